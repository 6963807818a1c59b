/**
 * Form fields by type: the sign shown beside a currency or percent, the input type of emails, URLs
 * and phone numbers, the problems pointed out before submitting, a rating sent as the grid sends it;
 * and the values of a row's history read back and written as the grid shows their column.
 */
import { expect, test } from 'bun:test';
import type { ColumnMeta } from '../../web/src/api/dashboard';
import { currencySign, fieldAdornment, fieldProblem, textInputType } from '../../web/src/features/grid/field-checks';
import { parseInput } from '../../web/src/features/grid/grid-cell';
import { historyText, historyValueOf } from '../../web/src/features/grid/history-value';

const col = (uidt: string, kind: string, meta: ColumnMeta['meta'] = null): ColumnMeta => ({ cn: 'c', _cn: 'C', uidt, kind, dt: kind, pk: false, ai: false, nullable: true, enumValues: null, hidden: false, meta });

test('a currency field shows its sign, a percent field %; emails, URLs and phones get their input types', () => {
  expect(currencySign('EUR', 'en-US')).toBe('€');
  expect(currencySign('USD', 'en-US')).toBe('$');
  expect(currencySign('JPY', 'en-US')).toBe('¥');
  expect(currencySign('NOPE', 'en-US')).toBe('NOPE');
  expect(fieldAdornment(col('Currency', 'decimal', { currency: 'GBP', locale: 'en-GB' }))).toEqual({ before: '£' });
  expect(fieldAdornment(col('Percent', 'decimal'))).toEqual({ after: '%' });
  expect(fieldAdornment(col('Number', 'integer'))).toBeNull();
  expect(textInputType(col('Email', 'string'))).toBe('email');
  expect(textInputType(col('URL', 'string'))).toBe('url');
  expect(textInputType(col('PhoneNumber', 'string'))).toBe('tel');
  expect(textInputType(col('SingleLineText', 'string'))).toBeNull();
});

test('a field points out text its column will not take; empty text and good values pass', () => {
  expect(fieldProblem(col('JSON', 'json'), '{"a": 1')).toBe('This is not valid JSON.');
  expect(fieldProblem(col('JSON', 'json'), '{"a": [1, 2]}')).toBeNull();
  expect(fieldProblem(col('JSON', 'json'), '"text"')).toBeNull();
  expect(fieldProblem(col('Email', 'string'), 'ann.example.com')).toBe('Enter an email address such as name@example.com.');
  expect(fieldProblem(col('Email', 'string'), 'ann@example.com')).toBeNull();
  expect(fieldProblem(col('PhoneNumber', 'string'), 'call me')).toMatch(/^Enter a phone number/);
  expect(fieldProblem(col('PhoneNumber', 'string'), '+33 (1) 23-45.67')).toBeNull();
  expect(fieldProblem(col('Number', 'integer'), '7e')).toBe('Enter a number.');
  expect(fieldProblem(col('Number', 'integer'), '7.5')).toBe('Enter a whole number.');
  expect(fieldProblem(col('Number', 'integer'), ' -12 ')).toBeNull();
  expect(fieldProblem(col('Decimal', 'decimal'), '1,5')).toBe('Enter a number.');
  expect(fieldProblem(col('Currency', 'decimal'), '1234.5')).toBeNull();
  expect(fieldProblem(col('Percent', 'decimal'), '12.5%')).toBeNull();
  expect(fieldProblem(col('Duration', 'decimal'), '1:30')).toBeNull();
  expect(fieldProblem(col('SingleLineText', 'string'), 'anything')).toBeNull();
  expect(fieldProblem(col('Number', 'integer'), '  ')).toBeNull();
});

test('a rating typed or picked is sent as a number, as the grid sets it', () => {
  expect(parseInput(col('Rating', 'integer'), '4')).toBe(4);
  expect(parseInput(col('Rating', 'integer'), '')).toBeNull();
  expect(parseInput(col('Number', 'integer'), '4')).toBe('4');
});

test('history values are read back by column type and written as the grid writes them', () => {
  expect(historyValueOf(col('Checkbox', 'boolean'), '1')).toBe(true);
  expect(historyValueOf(col('Checkbox', 'boolean'), 'false')).toBe(false);
  expect(historyValueOf(col('Rating', 'integer'), '4')).toBe(4);
  expect(historyValueOf(col('JSON', 'json'), '{"a":1}')).toEqual({ a: 1 });
  expect(historyValueOf(col('JSON', 'json'), 'not json')).toBe('not json');
  expect(historyText(col('Duration', 'decimal', { format: 'h:mm' }), '3600')).toBe('1:00');
  expect(historyText(col('Currency', 'decimal', { currency: 'EUR', locale: 'en-US', precision: 2 }), '1234.5')).toBe('€1,234.50');
  expect(historyText(col('Percent', 'decimal', { precision: 1 }), '12.5')).toBe('12.5%');
  expect(historyText(col('SingleLineText', 'string'), '3600')).toBe('3600');
  expect(historyText(undefined, '1')).toBe('1');
  // Dates as the API writes them, whatever form the database driver gave them.
  expect(historyText(col('Date', 'date'), '2021-03-04')).toBe('2021-03-04');
  expect(historyText(col('Date', 'date'), '2021-03-04T00:00:00.000Z')).toBe('2021-03-04');
  expect(historyText(col('Date', 'date'), 'Thu Mar 04 2021 00:00:00 GMT+0000 (Coordinated Universal Time)')).toBe('2021-03-04');
  expect(historyText(col('DateTime', 'datetime'), 'Thu Mar 04 2021 13:45:07 GMT+0000 (Coordinated Universal Time)')).toBe('2021-03-04 13:45:07');
  expect(historyText(col('DateTime', 'datetime'), '2021-03-04T13:45:07')).toBe('2021-03-04 13:45:07');
  expect(historyText(col('DateTime', 'datetime'), '2021-03-04 13:45:07+02:00')).toBe('2021-03-04 13:45:07+02:00');
});
