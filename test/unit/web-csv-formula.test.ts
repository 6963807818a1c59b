/** The SQL client's CSV download: formula-like text behind an apostrophe, as the server's exports write it. */
import { expect, test } from 'bun:test';
import { toCsv } from '../../web/src/features/sql-editor/csv';
import { formulaSafe, isNumericType } from '../../web/src/lib/csv-formula';

test('text a spreadsheet would run as a formula gets an apostrophe; other text stays', () => {
  const notes = ['=1+1', '+cmd', '-x', '@SUM(A1)', '\tlead', '\rret', '-4'];
  for (const n of notes) expect(formulaSafe(n, false)).toBe(`'${n}`);
  for (const n of ['plain', 'a=b', ' =x', '']) expect(formulaSafe(n, false)).toBe(n);
});

test('number text of a number column stays; other text of it does not', () => {
  expect(formulaSafe('-5.00', true)).toBe('-5.00');
  expect(formulaSafe('+1e5', true)).toBe('+1e5');
  expect(formulaSafe('-9007199254740993', true)).toBe('-9007199254740993');
  expect(formulaSafe('-1+cmd', true)).toBe("'-1+cmd");
  expect(formulaSafe('=1', true)).toBe("'=1");
});

test('the type names of number columns, as PostgreSQL, MySQL/MariaDB and SQLite report them', () => {
  for (const ty of ['integer', 'bigint', 'smallint', 'numeric', 'real', 'double precision', 'int8', 'LONGLONG', 'NEWDECIMAL', 'TINY', 'INT24', 'YEAR', 'DECIMAL(10,2)', 'INTEGER', 'REAL', 'INT UNSIGNED', '']) expect(isNumericType(ty)).toBe(true);
  for (const ty of ['text', 'TEXT', 'interval', 'point', 'int8range', 'VAR_STRING', 'TINY_BLOB', 'LONG_BLOB', 'money', 'character varying']) expect(isNumericType(ty)).toBe(false);
});

test('the SQL result CSV guards text cells and headers; numbers and number text of number columns stay', () => {
  const columns = [{ name: 'note', type: 'text' }, { name: 'qty', type: 'integer' }, { name: 'price', type: 'numeric' }, { name: '=total', type: 'bigint' }];
  const rows = [
    ['=HYPERLINK("http://x","y")', -5, '-5.50', '-9007199254740993'],
    ['-4', -1, '+2', null],
    ['@me', 3, '=1+1', '7'],
  ];
  expect(toCsv(columns, rows)).toBe(
    [`note,qty,price,'=total`, `"'=HYPERLINK(""http://x"",""y"")",-5,-5.50,-9007199254740993`, `'-4,-1,+2,`, `'@me,3,'=1+1,7`].join('\r\n') + '\r\n',
  );
  // A JSON value starts with { or [ and is written as its text.
  expect(toCsv([{ name: 'j', type: 'jsonb' }], [[{ a: '=x' }]])).toBe('j\r\n"{""a"":""=x""}"\r\n');
});
