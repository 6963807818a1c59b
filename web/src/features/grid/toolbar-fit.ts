/**
 * How much of the grid's toolbar fits its width: `wide`, every action a button; `narrow` (beside the
 * tree and the Views panel on a laptop, 1280 px), the secondary actions (webhooks, import, export) in
 * the More menu and the pickers' names as icons, so the toolbar keeps two rows; `phone`, the row
 * height and the grouping in the More menu too and Delete as an icon, so it takes three short rows.
 */
import { useLayoutEffect, useState, type RefObject } from 'react';

export type ToolbarFit = 'wide' | 'narrow' | 'phone';

/** Widths of the grid (px) from which the wide and narrow toolbars fit on their rows, in any language. */
export const WIDE_FROM = 1040;
export const NARROW_FROM = 560;

export const fitOf = (width: number): ToolbarFit => (width >= WIDE_FROM ? 'wide' : width >= NARROW_FROM ? 'narrow' : 'phone');

/** The fit of the element's width, followed as it changes (a window resized, a panel opened). */
export function useToolbarFit(ref: RefObject<HTMLElement | null>): ToolbarFit {
  const [fit, setFit] = useState<ToolbarFit>('wide');
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setFit(fitOf(el.getBoundingClientRect().width));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return fit;
}
