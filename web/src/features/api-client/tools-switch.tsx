/** An on/off option of the tools on react-aria's Switch (role switch, Space toggles), in the tools' look. */
import type { ReactNode } from 'react';
import { Switch } from 'react-aria-components';
import './tools.css';

export function ToolsSwitch(props: { isSelected: boolean; onChange: (on: boolean) => void; label?: string; children?: ReactNode; className?: string }) {
  return (
    <Switch className={`tools-switch${props.className ? ` ${props.className}` : ''}`} isSelected={props.isSelected} onChange={props.onChange} aria-label={props.label}>
      <span className="tools-switch-track" aria-hidden />
      {props.children}
    </Switch>
  );
}
