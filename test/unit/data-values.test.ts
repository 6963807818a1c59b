/** Values in (checked per column type) and out (the same JSON on every engine). */
import { describe, expect, test } from 'bun:test';
import { coerceValue, outputValue } from '../../src/data/values';
import type { ColumnModel } from '../../src/schema/model';

const col = (kind: ColumnModel['kind'], extra: Partial<ColumnModel> = {}): ColumnModel => ({
  cn: 'c', _cn: 'C', dt: kind, uidt: 'SingleLineText', kind, pk: false, ai: false, nullable: true, default: null, ...extra,
});

describe('coerceValue', () => {
  test('numbers', () => {
    expect(coerceValue(col('integer'), '42')).toBe(42);
    expect(coerceValue(col('bigint'), '9007199254740993')).toBe('9007199254740993');
    expect(() => coerceValue(col('integer'), '4.2')).toThrow('is not a whole number');
    expect(coerceValue(col('decimal'), '10.50')).toBe('10.50');
    expect(coerceValue(col('float'), '1e3')).toBe(1000);
    expect(() => coerceValue(col('decimal'), 'NaN')).toThrow('is not a number');
  });
  test('booleans, dates, times, JSON, text', () => {
    expect(coerceValue(col('boolean'), 'false')).toBe(false);
    expect(coerceValue(col('boolean'), 1)).toBe(true);
    expect(coerceValue(col('date'), '2024-02-29')).toBe('2024-02-29');
    expect(() => coerceValue(col('date'), '2024-13-01')).toThrow('is not a date');
    expect(coerceValue(col('datetime'), '2024-01-31T10:20')).toBe('2024-01-31 10:20:00');
    expect(coerceValue(col('datetime'), '2024-01-31T10:20:30Z')).toBe('2024-01-31 10:20:30');
    expect(coerceValue(col('time'), '10:20')).toBe('10:20');
    expect(coerceValue(col('json'), { a: [1] })).toBe('{"a":[1]}');
    expect(() => coerceValue(col('json'), '{oops')).toThrow('is not valid JSON');
    expect(() => coerceValue(col('string', { length: 3 }), 'abcd')).toThrow("Column 'C' is longer than 3 characters");
    expect(coerceValue(col('string', { length: 3 }), 'äöü')).toBe('äöü');
    expect(() => coerceValue(col('string', { enumValues: ['a', 'b'] }), 'c')).toThrow("is not one of 'a', 'b'");
    expect(() => coerceValue(col('string'), { a: 1 })).toThrow('is not text');
    expect(coerceValue(col('string'), null)).toBeNull();
  });
  test('values an engine would keep wrongly are refused', () => {
    expect(() => coerceValue(col('date'), '2023-02-29')).toThrow('is not a date');
    expect(() => coerceValue(col('date'), '2024-04-31')).toThrow('is not a date');
    expect(coerceValue(col('date'), '2000-02-29')).toBe('2000-02-29');
    expect(() => coerceValue(col('date'), '1900-02-29')).toThrow('is not a date');
    expect(() => coerceValue(col('datetime'), '2024-02-30 10:00:00')).toThrow('is not a date and time');
    expect(() => coerceValue(col('datetime'), '2024-01-01 24:00:00')).toThrow('is not a date and time');
    expect(() => coerceValue(col('datetime'), '2024-01-01 23:60')).toThrow('is not a date and time');
    expect(() => coerceValue(col('time'), '25:00:00')).toThrow('is not a time');
    expect(() => coerceValue(col('time'), '23:59:60')).toThrow('is not a time');
    expect(() => coerceValue(col('time'), '24:00:01')).toThrow('is not a time');
    expect(coerceValue(col('time'), '24:00:00')).toBe('24:00:00');
    expect(coerceValue(col('time'), '23:59:59.999')).toBe('23:59:59.999');
    expect(coerceValue(col('bigint'), '9223372036854775807')).toBe('9223372036854775807');
    expect(coerceValue(col('bigint'), '-9223372036854775808')).toBe('-9223372036854775808');
    expect(() => coerceValue(col('bigint'), '9223372036854775808')).toThrow('is out of range for a whole number');
    expect(() => coerceValue(col('integer'), 1e20)).toThrow('is out of range for a whole number');
    // Past 2^53 a whole number goes as exact text (SQLite's INTEGER keeps it, and its reads answer it exactly).
    expect(coerceValue(col('integer'), '9007199254740993')).toBe('9007199254740993');
    expect(coerceValue(col('integer'), '9007199254740991')).toBe(9007199254740991);
    expect(() => coerceValue(col('float'), '1e400')).toThrow('"1e400" is out of range for a number');
    expect(() => coerceValue(col('decimal'), '-1e400')).toThrow('is out of range for a number');
    expect(() => coerceValue(col('float'), Infinity)).toThrow("Column 'C': Infinity is not a number");
    expect(coerceValue(col('float'), '1e-400')).toBe(0);
    expect(() => coerceValue(col('binary'), '!!!')).toThrow('is not base64 text');
    expect(() => coerceValue(col('binary'), 'abcde')).toThrow('is not base64 text');
    expect(() => coerceValue(col('binary'), 'ab=')).toThrow('is not base64 text');
    expect(coerceValue(col('binary'), 'aGVsbG8')).toEqual(Buffer.from('hello'));
    expect(coerceValue(col('binary'), 'aGVs\nbG8=')).toEqual(Buffer.from('hello'));
    expect(coerceValue(col('binary'), '-_8')).toEqual(Buffer.from([0xfb, 0xff]));
    expect(coerceValue(col('binary'), '')).toEqual(Buffer.alloc(0));
  });
});

describe('outputValue', () => {
  test('the same JSON whatever the driver returned', () => {
    expect([1, '1', true, 't'].map((v) => outputValue(col('boolean'), v))).toEqual([true, true, true, true]);
    expect([0, '0', false].map((v) => outputValue(col('boolean'), v))).toEqual([false, false, false]);
    // MySQL's BIT(1) arrives as bytes.
    expect([Buffer.from([1]), Buffer.from([0]), new Uint8Array([0, 1])].map((v) => outputValue(col('boolean'), v))).toEqual([true, false, true]);
    expect(outputValue(col('decimal'), '10.50')).toBe(10.5);
    expect(outputValue(col('decimal'), '12345678901234567890.12')).toBe('12345678901234567890.12');
    expect(outputValue(col('bigint'), '42')).toBe(42);
    expect(outputValue(col('bigint'), '9007199254740993')).toBe('9007199254740993');
    expect(outputValue(col('json'), '{"a":1}')).toEqual({ a: 1 });
    expect(outputValue(col('binary'), new Uint8Array([1, 2, 3]))).toBe('AQID');
    expect(outputValue(col('datetime'), '2024-01-31T10:20:30.000Z')).toBe('2024-01-31 10:20:30');
    expect(outputValue(col('date'), '2024-01-31 00:00:00')).toBe('2024-01-31');
  });

  test('a column retyped in place: a date alone in a date-time column, any non-zero number in a checkbox', () => {
    // SQLite keeps a Date column's '2024-01-31' when it becomes a DateTime: it was read as '2024-01'.
    expect(outputValue(col('datetime'), '2024-01-31')).toBe('2024-01-31 00:00:00');
    expect(outputValue(col('datetime'), '2024-01-31T10:20:30+02:00')).toBe('2024-01-31 10:20:30');
    // A Number column holding 5 that becomes a Checkbox (SQLite, MariaDB's tinyint(1)) was read as false.
    expect([5, -1, 0.5, 2n].map((v) => outputValue(col('boolean'), v))).toEqual([true, true, true, true]);
    // Numbers JSON cannot hold are null on every engine (SQLite gives Infinity, PostgreSQL 'Infinity').
    expect([Infinity, -Infinity, NaN, 'Infinity', '-Infinity', 'NaN'].map((v) => outputValue(col('float'), v))).toEqual([null, null, null, null, null, null]);
    expect(outputValue(col('decimal'), 'NaN')).toBeNull();
  });
});
