import { expect, test } from 'bun:test';
import { scrollLeftToShow } from '../../web/src/features/grid/frozen-columns';

// Row numbers 96 px wide and two frozen columns of 180 px: they cover the view up to 456 px.
const frozenEnd = 96 + 180 + 180;

test('a column scrolled under the frozen ones comes out beside them, not under them', () => {
  expect(scrollLeftToShow({ index: 4, start: 816, end: 996 }, 2, frozenEnd, { left: 562, width: 962 })).toBe(360);
  expect(scrollLeftToShow({ index: 2, start: 456, end: 636 }, 2, frozenEnd, { left: 180, width: 962 })).toBe(0);
});

test('a column past the right edge is scrolled to end there; one in view, or frozen, is left alone', () => {
  expect(scrollLeftToShow({ index: 4, start: 816, end: 996 }, 2, frozenEnd, { left: 0, width: 962 })).toBe(34);
  expect(scrollLeftToShow({ index: 3, start: 636, end: 816 }, 2, frozenEnd, { left: 0, width: 962 })).toBeNull();
  expect(scrollLeftToShow({ index: 1, start: 276, end: 456 }, 2, frozenEnd, { left: 500, width: 962 })).toBeNull();
  // Wider than the room beside the frozen columns: its start is shown.
  expect(scrollLeftToShow({ index: 5, start: 996, end: 2000 }, 2, frozenEnd, { left: 0, width: 962 })).toBe(540);
});
