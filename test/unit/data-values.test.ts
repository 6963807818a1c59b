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
});

describe('outputValue', () => {
  test('the same JSON whatever the driver returned', () => {
    expect([1, '1', true, 't'].map((v) => outputValue(col('boolean'), v))).toEqual([true, true, true, true]);
    expect([0, '0', false].map((v) => outputValue(col('boolean'), v))).toEqual([false, false, false]);
    expect(outputValue(col('decimal'), '10.50')).toBe(10.5);
    expect(outputValue(col('decimal'), '12345678901234567890.12')).toBe('12345678901234567890.12');
    expect(outputValue(col('bigint'), '42')).toBe(42);
    expect(outputValue(col('bigint'), '9007199254740993')).toBe('9007199254740993');
    expect(outputValue(col('json'), '{"a":1}')).toEqual({ a: 1 });
    expect(outputValue(col('binary'), new Uint8Array([1, 2, 3]))).toBe('AQID');
    expect(outputValue(col('datetime'), '2024-01-31T10:20:30.000Z')).toBe('2024-01-31 10:20:30');
    expect(outputValue(col('date'), '2024-01-31 00:00:00')).toBe('2024-01-31');
  });
});
