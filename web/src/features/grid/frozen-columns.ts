/**
 * The frozen columns of the grid: the display column, and the few before it (the key), stay in view
 * when the grid scrolls right. They are always rendered (the column virtualiser keeps them), sit at
 * their sticky left offsets, and come first in the row (CSS order), before the spacer of the
 * columns scrolled out of view.
 */
import { defaultRangeExtractor, type Range, type VirtualItem } from '@tanstack/react-virtual';

/** The display column is frozen when it is among the first this many columns. */
const FREEZE_WITHIN = 3;

/** How many leading columns are frozen: up to and including the display column. */
export function frozenCount(columns: { _cn: string }[], displayColumn: string | null | undefined): number {
  const at = displayColumn ? columns.findIndex((c) => c._cn === displayColumn) : -1;
  return at >= 0 && at < FREEZE_WITHIN ? at + 1 : 0;
}

/** A range extractor that always keeps the first `n` columns rendered. */
export function keepFirst(n: number): (range: Range) => number[] {
  return (range) => [...new Set([...Array.from({ length: n }, (_, i) => i), ...defaultRangeExtractor(range)])].sort((a, b) => a - b);
}

/** The spacers around the rendered columns, and each frozen column's sticky left offset. */
export function columnLayout(items: VirtualItem[], frozen: number, total: number, indexWidth: number): { leftPad: number; rightPad: number; stickyLeft: (index: number) => number | undefined } {
  const frozenItems = items.filter((v) => v.index < frozen);
  const rest = items.filter((v) => v.index >= frozen);
  const frozenEnd = frozenItems.at(-1)?.end ?? indexWidth;
  const leftPad = Math.max(0, (rest[0]?.start ?? frozenEnd) - frozenEnd);
  const rightPad = Math.max(0, total - ((items.at(-1)?.end ?? indexWidth) - indexWidth));
  const lefts = new Map(frozenItems.map((v) => [v.index, v.start]));
  return { leftPad, rightPad, stickyLeft: (index) => lefts.get(index) };
}

/**
 * The scroll position that brings a column (`start`..`end` in the rows' coordinates) into view beside the
 * row numbers and the frozen columns, which stay over the left of the view up to `frozenEnd`; null when it
 * is in view already, as a frozen column always is.
 */
export function scrollLeftToShow(col: { index: number; start: number; end: number }, frozen: number, frozenEnd: number, view: { left: number; width: number }): number | null {
  if (col.index < frozen) return null;
  if (col.start < view.left + frozenEnd) return Math.max(0, col.start - frozenEnd);
  if (col.end > view.left + view.width) return Math.min(col.start - frozenEnd, col.end - view.width);
  return null;
}
