/**
 * An icon-only (or letter-only) button named by `label`, with a react-aria tooltip showing `tip`
 * (the label when absent) on hover and on keyboard focus.
 */
import type { ReactNode } from 'react';
import { Button, Tooltip, TooltipTrigger } from 'react-aria-components';
import './toggle-switch.css';

export function TipButton(props: {
  label: string;
  tip?: string;
  className: string;
  onPress: () => void;
  children: ReactNode;
  'aria-pressed'?: boolean | 'true' | 'false' | 'mixed';
  'aria-expanded'?: boolean;
}) {
  return (
    <TooltipTrigger delay={500} closeDelay={100}>
      <Button className={props.className} aria-label={props.label} aria-pressed={props['aria-pressed']} aria-expanded={props['aria-expanded']} onPress={props.onPress}>
        {props.children}
      </Button>
      <Tooltip className="tip-tooltip" offset={6}>
        {props.tip ?? props.label}
      </Tooltip>
    </TooltipTrigger>
  );
}
