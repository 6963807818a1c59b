/** The SQL Client's result grid sizes each column from all the rows shown, not the first few. */
import { expect, test } from 'bun:test';
import { cellText, columnWidths, MAX_WIDTH, MIN_WIDTH } from '../../web/src/features/sql-editor/column-widths';

const columns = [{ name: 'id', type: 'int4' }, { name: 'note', type: 'text' }];
const rowsWith = (last: unknown): unknown[][] => Array.from({ length: 10_000 }, (_, i) => [i + 1, i === 9_999 ? last : 'ab']);

test('a long value in the last of 10,000 rows widens its column', () => {
  const short = columnWidths(columns, rowsWith('ab'));
  expect(short[1]).toBe(MIN_WIDTH);
  const widened = columnWidths(columns, rowsWith('x'.repeat(40)));
  expect(widened[1]).toBe(40 * 7.5 + 24);
  expect(widened[0]).toBe(short[0]);
});

test('a column is at most MAX_WIDTH wide, however long its values', () => {
  expect(columnWidths(columns, rowsWith('y'.repeat(5_000)))[1]).toBe(MAX_WIDTH);
  expect(columnWidths(columns, rowsWith({ deep: 'z'.repeat(1_000) }))[1]).toBe(MAX_WIDTH);
});

test('NULL, JSON and wide characters are measured as shown', () => {
  expect(cellText(null)).toBe('NULL');
  expect(cellText({ a: 1 })).toBe('{"a":1}');
  // Twenty Chinese characters take the room of forty Latin ones in the monospace font.
  expect(columnWidths(columns, rowsWith('客'.repeat(20)))[1]).toBe(columnWidths(columns, rowsWith('x'.repeat(40)))[1]);
  // A header longer than the values sets the width.
  expect(columnWidths([{ name: 'n'.repeat(30), type: 'text' }], [['a']])[0]).toBe(30 * 7.5 + 24);
});
