/** Import helpers without a server: delimiter detection, column type detection, cell text of XLSX values, CSV quoting. */
import { expect, test } from 'bun:test';
import { detectDelimiter } from '../../src/api/transfer/sniff';
import { detectType, cellValue } from '../../src/api/transfer/column-types';
import { cellText, csvCellText } from '../../src/api/transfer/row-sources';
import { csvField } from '../../src/api/transfer/export';
import { checkHeaders } from '../../src/api/transfer/uploads';
import { sqlNameOf } from '../../src/api/transfer/import-ops';

test('the delimiter is the one that splits every line alike, quotes respected', () => {
  expect(detectDelimiter('a,b,c\n1,2,3\n4,5,6\n')).toBe(',');
  expect(detectDelimiter('a;b;c\n"1,5";2;3\n4;5;6\n')).toBe(';');
  expect(detectDelimiter('a\tb\n1\t2\n')).toBe('\t');
  expect(detectDelimiter('a|b|c\n1|2|3\n')).toBe('|');
  // A comma inside quotes on every line does not make it the delimiter.
  expect(detectDelimiter('name;note\n"x";"a, b"\n"y";"c, d"\n')).toBe(';');
  expect(detectDelimiter('single\n1\n2\n')).toBe(',');
});

test('column types from samples', () => {
  expect(detectType(['1', '22', '-3', ''])).toBe('number');
  expect(detectType(['1', '2.5'])).toBe('decimal');
  expect(detectType(['2024-01-02', '2024/12/31'])).toBe('date');
  expect(detectType(['2024-01-02 10:00', '2024-01-03T11:00:00Z', '2024-01-04'])).toBe('datetime');
  expect(detectType(['yes', 'No', 'TRUE'])).toBe('checkbox');
  expect(detectType(['a@b.co', 'x.y@z.org'])).toBe('email');
  expect(detectType(['https://x.org/a', 'http://y.com'])).toBe('url');
  expect(detectType(['red', 'blue', 'red', 'blue', 'red', 'blue'])).toBe('select');
  expect(detectType(['red', 'blue', 'green'])).toBe('text');
  expect(detectType(['2024-13-45'])).toBe('text');
  expect(detectType([])).toBe('text');
});

test('cell values on their way into a column', () => {
  const col = (kind: string) => ({ kind }) as never;
  expect(cellValue(col('boolean'), 'Yes')).toBe(true);
  expect(cellValue(col('boolean'), '0')).toBe(false);
  expect(cellValue(col('date'), '2024/01/31')).toBe('2024-01-31');
  expect(cellValue(col('date'), '2024-01-31 00:00:00')).toBe('2024-01-31');
  expect(cellValue(col('datetime'), '2024-01-31')).toBe('2024-01-31 00:00:00');
  expect(cellValue(col('integer'), ' 42 ')).toBe('42');
  expect(cellValue(col('string'), ' kept ')).toBe(' kept ');
});

test('XLSX cells as text', () => {
  expect(cellText(new Date(Date.UTC(2024, 0, 2)))).toBe('2024-01-02');
  expect(cellText(new Date(Date.UTC(2024, 0, 2, 3, 4, 5)))).toBe('2024-01-02 03:04:05');
  expect(cellText({ richText: [{ text: 'a' }, { text: 'b' }] })).toBe('ab');
  expect(cellText({ formula: 'A1*2', result: 4 })).toBe('4');
  expect(cellText({ text: 'link', hyperlink: 'https://x.org' })).toBe('link');
  expect(cellText({ error: '#DIV/0!' })).toBe('');
  expect(cellText(true)).toBe('true');
  expect(cellText(null)).toBe('');
});

test('CSV fields are quoted when they must be', () => {
  expect(csvField('plain')).toBe('plain');
  expect(csvField('a,b')).toBe('"a,b"');
  expect(csvField('say "hi"')).toBe('"say ""hi"""');
  expect(csvField('two\nlines')).toBe('"two\nlines"');
  expect(csvField(' padded')).toBe('" padded"');
  expect(csvField(null)).toBe('');
  expect(csvField({ a: 1 })).toBe('"{""a"":1}"');
});

test('a value a CSV export guarded against formulas goes back in as it was', () => {
  for (const v of ['+33 1 23 45 67 89', '=SUM(A1)', '-dash', '@user', '\tindented']) expect(csvCellText(csvField(v).replace(/^"|"$/g, ''))).toBe(v);
  expect(csvCellText("'plain quote")).toBe("'plain quote");
  expect(csvCellText("it's")).toBe("it's");
});

test('headers must be named and differ; SQL names are made from them', () => {
  expect(checkHeaders([' a ', 'B'])).toEqual(['a', 'B']);
  expect(() => checkHeaders(['a', ''])).toThrow('Column 2 of the header row has no name');
  expect(() => checkHeaders(['Name', 'name'])).toThrow("The header 'name' appears twice (columns 1 and 2)");
  const taken = new Set(['id']);
  expect(sqlNameOf('Unit Price (€)', taken)).toBe('unit_price');
  expect(sqlNameOf('ID', taken)).toBe('id_2');
  expect(sqlNameOf('2024 total', taken)).toBe('c_2024_total');
  expect(sqlNameOf('???', taken)).toBe('column');
});

test('the XLSX writer makes a workbook exceljs reads back: typed cells, dates, escaped text', async () => {
  const { XlsxWriter, columnLetters, xmlText } = await import('../../src/api/transfer/xlsx-writer');
  const ExcelJS = (await import('exceljs')).default;
  expect([0, 25, 26, 27, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
  expect(xmlText('a<b & "c"\u0001\ud800')).toBe('a&lt;b &amp; &quot;c&quot;');
  const parts: Uint8Array[] = [];
  let finals = 0;
  const columns = [{ header: 'Name' }, { header: 'N' }, { header: 'Day', numFmt: 'yyyy-mm-dd' }, { header: 'At', numFmt: 'yyyy-mm-dd hh:mm:ss' }, { header: 'Ok' }];
  const w = new XlsxWriter('Sales: 2024/Q1', columns, (c, final) => (parts.push(c), final && finals++), (e) => {
    throw e;
  });
  w.addRows([['a & <b>', 1.5, new Date(Date.UTC(2024, 0, 2)), new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), true]]);
  w.addRows([[null, -2, null, null, false]]);
  w.end();
  expect(finals).toBe(1);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.concat(parts) as never);
  const ws = wb.worksheets[0]!;
  expect(ws.name).toBe('Sales_ 2024_Q1');
  expect(ws.getRow(1).values).toEqual([undefined, 'Name', 'N', 'Day', 'At', 'Ok']);
  expect(ws.getRow(2).values).toEqual([undefined, 'a & <b>', 1.5, new Date(Date.UTC(2024, 0, 2)), new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), true]);
  expect(ws.getCell('C2').numFmt).toBe('yyyy-mm-dd');
  expect(ws.getCell('D2').numFmt).toBe('yyyy-mm-dd hh:mm:ss');
  expect(ws.getCell('A1').font?.bold).toBe(true);
  expect(ws.getRow(3).values).toEqual([undefined, undefined, -2, undefined, undefined, false]);
});

test('currency formats of XLSX exports: the symbol where the locale puts it, the decimals of the currency or the column', async () => {
  const { currencyFormat } = await import('../../src/api/transfer/xlsx-formats');
  expect(currencyFormat()).toBe('"$"#,##0.00');
  expect(currencyFormat('USD', 'en-US', 0)).toBe('"$"#,##0');
  expect(currencyFormat('EUR', 'de-DE')).toBe('#,##0.00"\u00a0€"');
  expect(currencyFormat('EUR', 'fr-FR', 3)).toBe('#,##0.000"\u00a0€"');
  expect(currencyFormat('JPY', 'ja-JP')).toBe('"￥"#,##0');
  expect(currencyFormat('GBP', 'en-GB', 1)).toBe('"£"#,##0.0');
});
