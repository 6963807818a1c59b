/**
 * A small menu of actions at a point of the screen (a context menu, or under the button that
 * opened it): role menu with menu items, arrow keys move between them; Esc or a click elsewhere closes it.
 */
import { useEffect, useRef } from 'react';

/** One entry of a popup menu. */
export interface MenuEntry {
  id: string;
  label: string;
  danger?: boolean;
  run: () => void;
}

/** The menu itself, at `at` (kept inside the window). */
export function PopupMenu(props: { label: string; at: { x: number; y: number }; entries: MenuEntry[]; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLButtonElement>('button')?.focus();
    const outside = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) props.onClose();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') props.onClose();
      // Up and down move between the items, round the ends.
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        const items = [...(ref.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
        const i = items.indexOf(document.activeElement as HTMLButtonElement);
        const next = items[(i + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length];
        if (next) {
          e.preventDefault();
          next.focus();
        }
      }
    };
    document.addEventListener('mousedown', outside);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', outside);
      document.removeEventListener('keydown', onKey);
    };
  }, [props.onClose]);
  // Kept inside the window: a menu opened near the right or bottom edge opens leftwards or upwards.
  const left = Math.min(props.at.x, window.innerWidth - 200);
  const top = Math.min(props.at.y, window.innerHeight - 40 - props.entries.length * 32);
  return (
    <div className="popup-menu menu-list" role="menu" aria-label={props.label} ref={ref} style={{ left, top }}>
      {props.entries.map((e) => (
        <button
          key={e.id}
          role="menuitem"
          className={`menu-item${e.danger ? ' menu-danger' : ''}`}
          onClick={() => {
            props.onClose();
            e.run();
          }}
        >
          {e.label}
        </button>
      ))}
    </div>
  );
}
