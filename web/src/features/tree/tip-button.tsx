/**
 * An icon-only button with its name shown as a tooltip on hover and keyboard focus (react-aria:
 * the tooltip describes the button to screen readers and Esc hides it).
 */
import type { CSSProperties, ReactNode } from 'react';
import { Button, Tooltip, TooltipTrigger } from 'react-aria-components';
import './tree.css';

/** The button (named by `label`) and its tooltip (`tip`, or the label). */
export function TipButton(props: { label: string; tip?: string; className: string; onPress: () => void; children: ReactNode; style?: CSSProperties }) {
  return (
    <TooltipTrigger delay={600} closeDelay={100}>
      <Button className={props.className} aria-label={props.label} onPress={props.onPress} style={props.style}>
        {props.children}
      </Button>
      <TipText text={props.tip ?? props.label} />
    </TooltipTrigger>
  );
}

/** The tooltip of the enclosing TooltipTrigger. */
export function TipText(props: { text: string }) {
  return (
    <Tooltip className="tip-tooltip" offset={6} placement="bottom">
      {props.text}
    </Tooltip>
  );
}
