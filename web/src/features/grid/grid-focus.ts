/**
 * The grid is one tab stop (ARIA grid pattern): the keyboard moves the active cell inside it, and
 * Tab leaves it. Controls drawn inside its cells and headers (checkboxes, buttons, links) are taken
 * out of the tab order as they appear; they stay usable with the pointer, and the grid's keys reach
 * them (Enter on a cell presses its action, Space expands the row). Cell editors keep their focus.
 */
import { useEffect, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';

function quietOne(el: HTMLElement): void {
  // Cell editors keep their own order (a date field moves between its segments by tab order).
  if (el.tabIndex !== -1 && !el.classList.contains('cell-input') && !el.closest('.cell-editor')) el.tabIndex = -1;
}

function quiet(root: ParentNode): void {
  for (const el of root.querySelectorAll<HTMLElement>(FOCUSABLE)) quietOne(el);
}

/** Keeps the controls inside `ref` (the grid element, not itself) out of the tab order. */
export function useSingleTabStop(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    quiet(root);
    // Only what was added is looked at (rows come and go as the grid scrolls).
    const seen = new MutationObserver((changes) => {
      for (const c of changes) {
        for (const n of c.addedNodes) {
          if (!(n instanceof HTMLElement)) continue;
          if (n.matches(FOCUSABLE)) quietOne(n);
          quiet(n);
        }
      }
    });
    seen.observe(root, { childList: true, subtree: true });
    return () => seen.disconnect();
  }, [ref]);
}

/** Presses the first control of a cell (a picker's button, an attachment's +), for Enter on cells not edited in place. */
export function pressFirstAction(cell: HTMLElement | null): boolean {
  const b = cell?.querySelector<HTMLElement>('.chip-add, .attach-add, button, a[href]');
  if (!b) return false;
  b.click();
  return true;
}
