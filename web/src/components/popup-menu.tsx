/**
 * A small menu of actions at a point of the screen (a context menu, or under the button that
 * opened it), on react-aria: a popover anchored at that point holding a menu (role menu, arrow
 * keys and typing move between the items, Esc or a press elsewhere closes it, focus goes back).
 */
import { useRef } from 'react';
import { Menu, MenuItem, Popover } from 'react-aria-components';

/** One entry of a popup menu. */
export interface MenuEntry {
  id: string;
  label: string;
  danger?: boolean;
  run: () => void;
}

/** The menu itself, at `at` (flipped to stay inside the window). */
export function PopupMenu(props: { label: string; at: { x: number; y: number }; entries: MenuEntry[]; onClose: () => void }) {
  // A point-sized anchor at `at`: the popover places itself against it.
  const anchor = useRef<HTMLSpanElement>(null);
  return (
    <>
      <span ref={anchor} aria-hidden style={{ position: 'fixed', left: props.at.x, top: props.at.y, width: 0, height: 0 }} />
      <Popover
        triggerRef={anchor}
        isOpen
        onOpenChange={(open) => !open && props.onClose()}
        placement="bottom start"
        offset={0}
        containerPadding={8}
        className="aria-popover popup-menu-popover"
      >
        <Menu
          className="popup-menu-list menu-list aria-menu"
          aria-label={props.label}
          autoFocus="first"
          onAction={(id) => {
            const entry = props.entries.find((e) => e.id === id);
            props.onClose();
            entry?.run();
          }}
        >
          {props.entries.map((e) => (
            <MenuItem key={e.id} id={e.id} textValue={e.label} className={`menu-item${e.danger ? ' menu-danger' : ''}`}>
              {e.label}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </>
  );
}
