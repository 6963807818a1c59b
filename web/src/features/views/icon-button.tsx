/**
 * An icon-only button of the views screens (drawer, kanban lanes, calendar): a react-aria Button
 * named by its label, with the label as a tooltip on hover and on keyboard focus.
 */
import type { ReactNode } from 'react';
import { Button, Tooltip, TooltipTrigger } from 'react-aria-components';
import './views-aria.css';

/** The button; `className` defaults to the app's plain icon button. */
export function IconButton(props: { label: string; onPress: () => void; children: ReactNode; className?: string; isDisabled?: boolean; expanded?: boolean }) {
  return (
    <TooltipTrigger delay={600} closeDelay={100}>
      <Button className={props.className ?? 'icon-plain'} aria-label={props.label} aria-expanded={props.expanded} isDisabled={props.isDisabled} onPress={props.onPress}>
        {props.children}
      </Button>
      <Tooltip className="views-tooltip" offset={6}>
        {props.label}
      </Tooltip>
    </TooltipTrigger>
  );
}
