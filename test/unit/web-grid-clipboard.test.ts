/** Copy and paste of cell ranges: TSV both ways (quotes, tabs and line breaks in cells), HTML, and the paste plan. */
import { describe, expect, test } from 'bun:test';
import { cellText, parseTsv, planPaste, rangeOf, toHtml, toTsv, convertPasted } from '../../web/src/features/grid/clipboard';
import type { ColumnMeta } from '../../web/src/api/dashboard';

const col = (cn: string, kind: string, extra: Partial<ColumnMeta> = {}): ColumnMeta => ({ cn, _cn: cn, uidt: 'x', kind, dt: kind, pk: false, ai: false, nullable: true, enumValues: null, hidden: false, ...extra });

describe('TSV', () => {
  test('round trip with tabs, line breaks and quotes inside cells', () => {
    const rows = [['a', 'b\tc', 'say "hi"'], ['line1\nline2', '', '3']];
    const tsv = toTsv(rows);
    expect(tsv).toBe('a\t"b\tc"\t"say ""hi"""\r\n"line1\nline2"\t\t3');
    expect(parseTsv(tsv)).toEqual(rows);
  });
  test('what spreadsheets put on the clipboard (trailing line break, LF only)', () => {
    expect(parseTsv('1\t2\n3\t4\n')).toEqual([['1', '2'], ['3', '4']]);
    expect(parseTsv('x')).toEqual([['x']]);
  });
  test('HTML table escaped', () => {
    expect(toHtml([['<b>', 'a&b']])).toBe('<table><tr><td>&lt;b&gt;</td><td>a&amp;b</td></tr></table>');
  });
  test('a range from two corners in any order', () => {
    expect(rangeOf({ row: 5, col: 1 }, { row: 2, col: 3 })).toEqual({ top: 2, bottom: 5, left: 1, right: 3 });
  });
});

describe('paste plan', () => {
  const columns = [col('id', 'integer', { pk: true, nullable: false }), col('name', 'string'), col('qty', 'integer'), col('price', 'decimal'), col('done', 'boolean'), col('day', 'date')];
  const writable = (c: ColumnMeta) => !c.pk;
  test('values converted per column; rows past the end are added; what does not fit is reported', () => {
    const plan = planPaste(parseTsv('Pen\t3\t1,200.50\tyes\t2026-01-31\nInk\tmany\t2\tno\t31/01/2026\nNew\t1\t\t\t'), { row: 8, col: 1 }, columns, writable, 10);
    expect(plan.updates).toEqual([
      { index: 8, values: { name: 'Pen', qty: 3, price: '1200.50', done: true, day: '2026-01-31' } },
      { index: 9, values: { name: 'Ink', price: '2', done: false } },
    ]);
    expect(plan.inserts).toEqual([{ name: 'New', qty: 1, price: null, done: null, day: null }]);
    expect(plan.problems).toEqual([
      { row: 10, column: 'qty', value: 'many', reason: 'not a whole number' },
      { row: 10, column: 'day', value: '31/01/2026', reason: 'not a date (YYYY-MM-DD)' },
    ]);
  });
  test('keys and columns past the last are refused', () => {
    const plan = planPaste([['7', 'x', '1', '1', 'true', '2026-01-01', 'extra']], { row: 0, col: 0 }, columns, writable, 5);
    expect(plan.problems.map((p) => p.column)).toEqual(['id', '(column 7)']);
    expect(plan.updates[0]!.values).toEqual({ name: 'x', qty: 1, price: '1', done: true, day: '2026-01-01' });
  });
  test('without the right to add rows, rows past the end are not added but counted; the rows above are still pasted', () => {
    const plan = planPaste(parseTsv('Pen\t3\nInk\t4\n\t\nNew\t1'), { row: 8, col: 1 }, columns, writable, 10, { may: false, settable: () => false });
    expect(plan.updates).toEqual([{ index: 8, values: { name: 'Pen', qty: 3 } }, { index: 9, values: { name: 'Ink', qty: 4 } }]);
    expect(plan.inserts).toEqual([]);
    // The empty line past the end was nothing to add.
    expect(plan.notAdded).toBe(1);
  });
  test('new rows take only the columns the role may set on a new row (not those it may update)', () => {
    const plan = planPaste([['Pen', '3']], { row: 10, col: 1 }, columns, () => false, 10, { may: true, settable: (c) => c.cn === 'name' });
    expect(plan.inserts).toEqual([{ name: 'Pen' }]);
    expect(plan.problems).toEqual([{ row: 11, column: 'qty', value: '3', reason: 'your role may not set this column on a new row' }]);
  });
  test('a required column does not take an empty cell', () => {
    expect(convertPasted(col('n', 'integer', { nullable: false }), '')).toEqual({ reason: 'a value is required' });
  });
  test('a JSON cell is copied as its JSON text and pasted back the same (a JSON string stays a string); bad JSON is reported', () => {
    const json = col('data', 'json');
    const copied = toTsv([[cellText('123', json), cellText({ a: [1] }, json)]]);
    const [cells] = parseTsv(copied);
    expect(cells).toEqual(['"123"', '{"a":[1]}']);
    expect(convertPasted(json, cells![0]!)).toEqual({ value: '123' });
    expect(convertPasted(json, cells![1]!)).toEqual({ value: { a: [1] } });
    expect(convertPasted(json, '{broken')).toEqual({ reason: 'not valid JSON' });
  });
  test('a duration is pasted as its format shows it (the server reads h:mm)', () => {
    expect(convertPasted(col('took', 'decimal', { uidt: 'Duration' }), '1:30')).toEqual({ value: '1:30' });
  });
  test('numbers pasted as the language writes them or plainly; a comma out of place is refused, not dropped (1,5 was 15)', () => {
    const price = col('price', 'decimal');
    const qty = col('qty', 'integer');
    expect(convertPasted(price, '1,234.50', 'en-US')).toEqual({ value: '1234.50' });
    expect(convertPasted(price, '1,5', 'en-US')).toEqual({ reason: 'not a number' });
    expect(convertPasted(qty, '1,5', 'en-US')).toEqual({ reason: 'not a whole number' });
    expect(convertPasted(qty, '12,345,678', 'en-US')).toEqual({ value: 12345678 });
    expect(convertPasted(price, '1\u202f234,5', 'fr-FR')).toEqual({ value: '1234.5' });
    expect(convertPasted(price, '1,5', 'fr-FR')).toEqual({ value: '1.5' });
    expect(convertPasted(price, '1,234.50', 'fr-FR')).toEqual({ reason: 'not a number' });
    expect(convertPasted(price, '1.234,5', 'es-ES')).toEqual({ value: '1234.5' });
    // A plain number is read in every language.
    expect(convertPasted(price, '1.5', 'es-ES')).toEqual({ value: '1.5' });
    expect(convertPasted(price, '-2.5e3', 'fr-FR')).toEqual({ value: '-2.5e3' });
  });
});
