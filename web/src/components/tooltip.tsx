/** A react-aria tooltip around a button: shown on hover and keyboard focus, linked as its description. */
import type { ReactNode } from 'react';
import { Tooltip, TooltipTrigger } from 'react-aria-components';
import './components.css';

/** Wraps one react-aria `Button` (or other focusable react-aria element) with a tooltip. */
export function WithTooltip(props: { tip: string; children: ReactNode; placement?: 'top' | 'bottom' | 'start' | 'end' }) {
  return (
    <TooltipTrigger delay={500} closeDelay={100}>
      {props.children}
      <Tooltip className="aria-tooltip" placement={props.placement ?? 'bottom'} offset={6}>
        {props.tip}
      </Tooltip>
    </TooltipTrigger>
  );
}
