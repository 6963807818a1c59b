/**
 * The rows of the grid to render for a scroll position, for tables of any size. Browsers lay out
 * elements only up to some 17-33 million px, so past `MAX_SCROLL_PX` the scroll range is scaled:
 * the scrollbar spans the whole table while the rows near the viewport keep their real height.
 */
import { useEffect, useState, type RefObject } from 'react';
import { LIMITS } from '../../lib/limits';

/** A row to render: its index and its top, in px from the top of the rows' container. */
export interface RowItem {
  index: number;
  start: number;
}

export interface RowWindow {
  items: RowItem[];
  /** Height of the rows' container (at most MAX_SCROLL_PX). */
  height: number;
  /** Table px per scrolled px (1 until the table is taller than MAX_SCROLL_PX). */
  scale: number;
}

/** Largest scroll height used; every current browser lays this out. */
export const MAX_SCROLL_PX = LIMITS.gridMaxScrollPx;

/** Rows in view (plus `overscan` on each side) when the rows' container is scrolled by `top` px. */
export function rowWindow(count: number, rowHeight: number, top: number, viewport: number, overscan: number): RowWindow {
  const total = count * rowHeight;
  const height = Math.min(total, MAX_SCROLL_PX);
  const scale = total > height && height > viewport ? (total - viewport) / (height - viewport) : 1;
  const scrolled = Math.min(Math.max(0, top), Math.max(0, height - viewport));
  const offset = scrolled * scale;
  const first = Math.max(0, Math.floor(offset / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((offset + viewport) / rowHeight) + overscan);
  const items: RowItem[] = [];
  for (let index = first; index < last; index++) items.push({ index, start: scrolled + index * rowHeight - offset });
  return { items, height, scale };
}

/**
 * The scroll position (of the rows' container) that brings row `index` into view, or null when it
 * is in view already.
 */
export function scrollTopFor(index: number, rowHeight: number, win: RowWindow, top: number, viewport: number): number | null {
  const offset = Math.max(0, top) * win.scale;
  const rowTop = index * rowHeight;
  let target: number;
  if (rowTop < offset) target = rowTop;
  else if (rowTop + rowHeight > offset + viewport) target = rowTop + rowHeight - viewport;
  else return null;
  return Math.max(0, target / win.scale);
}

/**
 * Follows the scroll position of `scroller` (once per animation frame) and answers the rows to
 * render inside `rows` (the rows' container, below the sticky header; the scroll position of the
 * scroller is that of the rows) and how to bring one into view.
 */
export function useRowWindow(scroller: RefObject<HTMLElement | null>, rows: RefObject<HTMLElement | null>, count: number, rowHeight: number, overscan: number) {
  const [pos, setPos] = useState({ top: 0, viewport: 0 });
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      // The header is sticky: it covers the top of the viewport, and the rows start below it.
      const head = rows.current?.offsetTop ?? 0;
      setPos({ top: el.scrollTop, viewport: Math.max(0, el.clientHeight - head) });
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(read);
    };
    read();
    el.addEventListener('scroll', onScroll, { passive: true });
    const resize = new ResizeObserver(onScroll);
    resize.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      resize.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [scroller, rows]);
  const win = rowWindow(count, rowHeight, pos.top, pos.viewport || rowHeight * 20, overscan);
  const scrollToIndex = (index: number) => {
    const el = scroller.current;
    if (!el) return;
    const head = rows.current?.offsetTop ?? 0;
    const viewport = Math.max(rowHeight, el.clientHeight - head);
    const target = scrollTopFor(index, rowHeight, win, el.scrollTop, viewport);
    if (target !== null) el.scrollTop = target;
  };
  return { ...win, scrollToIndex };
}
