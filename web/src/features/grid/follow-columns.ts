/**
 * Grid positions held by column index (the active cell, a range's anchor, the header the keyboard is
 * on) stay on their column when the columns shown change around them: someone adds a column before
 * it, a column is hidden, shown or moved. Each index moves to where its column is now (found by name);
 * an index whose column is gone stays where it was.
 */
import { useLayoutEffect, useRef } from 'react';

/** Where the column at `col` of `before` is in `after` (`col` itself when it is gone). */
export function followColumn(before: string[], after: string[], col: number): number {
  const name = before[col];
  if (name === undefined) return col;
  const at = after.indexOf(name);
  return at < 0 ? col : at;
}

/**
 * Calls `move` with the mapping from old to new indices whenever the names of the columns shown
 * change (before the browser paints, so the outline never shows on another column).
 */
export function useFollowColumns(names: string[], move: (to: (col: number) => number) => void): void {
  const before = useRef(names);
  const key = names.join('\u0000');
  useLayoutEffect(() => {
    const old = before.current;
    before.current = names;
    if (old.join('\u0000') === key) return;
    move((col) => followColumn(old, names, col));
  }, [key]);
}
