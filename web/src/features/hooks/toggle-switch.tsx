/**
 * An on/off setting as a react-aria Switch (role switch, Space toggles, the label is its name),
 * drawn as a small track and thumb beside its text.
 */
import type { ReactNode } from 'react';
import { Switch } from 'react-aria-components';
import './toggle-switch.css';

export function ToggleSwitch(props: {
  isSelected: boolean;
  onChange: (on: boolean) => void;
  /** The accessible name when the visible text is absent or shorter. */
  'aria-label'?: string;
  isDisabled?: boolean;
  /** A tooltip-like hint (title) on the whole switch. */
  title?: string;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <Switch
      className={`toggle-switch${props.className ? ` ${props.className}` : ''}`}
      isSelected={props.isSelected}
      onChange={props.onChange}
      isDisabled={props.isDisabled}
      aria-label={props['aria-label']}
    >
      <span className="toggle-switch-track" aria-hidden title={props.title}>
        <span className="toggle-switch-thumb" />
      </span>
      {props.children}
    </Switch>
  );
}
