/** The grid's row window: which rows render where, unscaled for small tables and scaled past the browsers' height limit. */
import { describe, expect, test } from 'bun:test';
import { MAX_SCROLL_PX, rowWindow, scrollTopFor } from '../../web/src/features/grid/row-window';

const H = 32;
const VIEW = 640; // 20 rows

describe('row window', () => {
  test('a small table renders the rows in view at their own offsets, unscaled', () => {
    const w = rowWindow(1000, H, 3200, VIEW, 2);
    expect(w.scale).toBe(1);
    expect(w.height).toBe(32_000);
    expect(w.items[0]).toEqual({ index: 98, start: 98 * H });
    expect(w.items.at(-1)!.index).toBe(121);
  });

  test('an empty table renders nothing', () => {
    expect(rowWindow(0, H, 0, VIEW, 2)).toEqual({ items: [], height: 0, scale: 1 });
  });

  test('five million rows: the scroll range is capped, the first and the last rows are reachable', () => {
    const count = 5_000_000;
    const top = rowWindow(count, H, 0, VIEW, 0);
    expect(top.height).toBe(MAX_SCROLL_PX);
    expect(top.scale).toBeGreaterThan(10);
    expect(top.items[0]).toEqual({ index: 0, start: 0 });

    const bottom = rowWindow(count, H, MAX_SCROLL_PX - VIEW, VIEW, 0);
    const last = bottom.items.at(-1)!;
    expect(last.index).toBe(count - 1);
    // The last row ends exactly at the bottom of the viewport, at its real height.
    expect(last.start + H).toBeCloseTo(MAX_SCROLL_PX, 6);
    expect(bottom.items[1]!.start - bottom.items[0]!.start).toBe(H);
  });

  test('half way down the bar is half way through the table; rows keep their height', () => {
    const count = 5_000_000;
    const w = rowWindow(count, H, (MAX_SCROLL_PX - VIEW) / 2, VIEW, 0);
    const first = w.items[0]!.index;
    expect(Math.abs(first - count / 2)).toBeLessThan(20);
    for (let i = 1; i < w.items.length; i++) expect(w.items[i]!.start - w.items[i - 1]!.start).toBe(H);
    // The rows drawn cover the viewport.
    expect(w.items[0]!.start).toBeLessThanOrEqual((MAX_SCROLL_PX - VIEW) / 2);
    expect(w.items.at(-1)!.start + H).toBeGreaterThanOrEqual((MAX_SCROLL_PX - VIEW) / 2 + VIEW);
  });

  test('scrollTopFor brings a row into view from above or below, and leaves a visible row alone', () => {
    const small = rowWindow(1000, H, 0, VIEW, 0);
    expect(scrollTopFor(5, H, small, 0, VIEW)).toBeNull();
    expect(scrollTopFor(100, H, small, 0, VIEW)).toBe(101 * H - VIEW);
    expect(scrollTopFor(3, H, small, 50 * H, VIEW)).toBe(3 * H);

    const count = 5_000_000;
    const big = rowWindow(count, H, 0, VIEW, 0);
    const top = scrollTopFor(count - 1, H, big, 0, VIEW)!;
    const after = rowWindow(count, H, top, VIEW, 0);
    expect(after.items.at(-1)!.index).toBe(count - 1);
  });
});
