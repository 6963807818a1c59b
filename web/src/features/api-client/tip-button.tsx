/**
 * Icon-only buttons of the tools (×, +) on react-aria-components: the name for screen readers and the
 * same text as a tooltip on hover and keyboard focus. `TabCloseButton` is the × inside a closable tab:
 * a pointer control only (Delete on the focused tab closes it, see `closeKeys` and `TabCloseHint`) whose press does not select the tab.
 */
import type { ReactNode } from 'react';
import { Button, Tooltip, TooltipTrigger } from 'react-aria-components';
import { t } from '../../i18n';
import './tools.css';

export function TipButton(props: { label: string; tip?: string; className: string; onPress: () => void; children: ReactNode; isDisabled?: boolean }) {
  return (
    <TooltipTrigger delay={500} closeDelay={100}>
      <Button className={props.className} aria-label={props.label} onPress={props.onPress} isDisabled={props.isDisabled}>
        {props.children}
      </Button>
      <Tooltip className="tools-tooltip" placement="bottom" offset={4}>
        {props.tip ?? props.label}
      </Tooltip>
    </TooltipTrigger>
  );
}

export function TabCloseButton(props: { label: string; className: string; onClose: () => void }) {
  // Not a button: a control inside a tab is a nested interactive element screen readers mishandle.
  // The tab says by its description (`TabCloseHint`) that Delete closes it.
  return (
    <span
      aria-hidden
      className={props.className}
      title={props.label}
      onPointerDown={(e) => e.stopPropagation()}
      onMouseDown={(e) => (e.stopPropagation(), e.preventDefault())}
      onClick={(e) => (e.stopPropagation(), props.onClose())}
    >
      ×
    </span>
  );
}

/** The hidden description of closable tabs ("Press Delete to close this tab"), named by their aria-describedby. */
export function TabCloseHint(props: { id: string }) {
  return (
    <span id={props.id} hidden>
      {t('common.tabs.closeHint')}
    </span>
  );
}

/** For the element around a tab list: Delete on a focused tab closes it (the focused tab is the selected one). */
export const closeKeys = (onClose: () => void) => (e: { key: string; target: EventTarget; preventDefault(): void }) => {
  if (e.key === 'Delete' && (e.target as HTMLElement).getAttribute?.('role') === 'tab') {
    e.preventDefault();
    onClose();
  }
};
