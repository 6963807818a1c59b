/** Closing a popover or menu the usual ways: Esc, or a press outside it. */
import { useEffect, type RefObject } from 'react';

/** While `open`, Esc and a mouse press outside `ref` call `close` (the opener's own click toggles as before). */
export function useDismiss(ref: RefObject<HTMLElement | null>, open: boolean, close: () => void): void {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      close();
    };
    const outside = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', outside);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', outside);
    };
  }, [open, close]);
}
