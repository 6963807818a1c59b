/** Writes checked by logical type: email, URL, phone, select choices, rating range, percentages. */
import { describe, expect, test } from 'bun:test';
import { writeValue } from '../../src/data/logical-values';
import type { ColumnModel } from '../../src/schema/model';

const col = (uidt: ColumnModel['uidt'], extra: Partial<ColumnModel> = {}): ColumnModel => ({
  cn: 'c', _cn: 'Contact', dt: 'varchar', uidt, kind: 'string', pk: false, ai: false, nullable: true, default: null, ...extra,
});

describe('writeValue', () => {
  test('valid values pass (MultiSelect joined by commas)', () => {
    expect(writeValue(col('Email'), 'ada@example.com')).toBe('ada@example.com');
    expect(writeValue(col('URL'), 'https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(writeValue(col('URL'), 'example.com/docs')).toBe('example.com/docs');
    expect(writeValue(col('PhoneNumber'), '+44 (20) 7946-0958')).toBe('+44 (20) 7946-0958');
    expect(writeValue(col('SingleSelect', { enumValues: ['a', 'b'] }), 'b')).toBe('b');
    expect(writeValue(col('MultiSelect', { enumValues: ['a', 'b', 'c'] }), ['a', 'c'])).toBe('a,c');
    expect(writeValue(col('MultiSelect', { enumValues: ['a', 'b', 'c'] }), 'b, c')).toBe('b,c');
    expect(writeValue(col('Rating', { kind: 'integer' }), 5)).toBe(5);
    expect(writeValue(col('Email'), null)).toBeNull();
  });

  test('a percentage may be written as shown, with its % sign', () => {
    const pct = col('Percent', { kind: 'decimal', dt: 'decimal' });
    expect(writeValue(pct, '12.5%')).toBe('12.5');
    expect(writeValue(pct, ' -3 % ')).toBe('-3');
    expect(writeValue(col('Percent', { kind: 'float', dt: 'double' }), '40%')).toBe(40);
    expect(() => writeValue(pct, '%')).toThrow("Column 'Contact'");
    expect(() => writeValue(pct, '12%%')).toThrow("Column 'Contact'");
  });

  test('invalid values answer 400 naming the column', () => {
    const cases: [ColumnModel, unknown][] = [
      [col('Email'), 'ada@'],
      [col('URL'), 'not a url'],
      [col('URL'), 'javascript:alert(1)'],
      [col('PhoneNumber'), 'call me'],
      [col('PhoneNumber'), '12'],
      [col('SingleSelect', { enumValues: ['a', 'b'] }), 'z'],
      [col('MultiSelect', { enumValues: ['a', 'b'] }), ['a', 'z']],
      [col('Rating', { kind: 'integer' }), 11],
      [col('Rating', { kind: 'integer' }), -1],
    ];
    for (const [c, v] of cases) {
      let err: unknown;
      try {
        writeValue(c, v);
      } catch (e) {
        err = e;
      }
      expect(err).toMatchObject({ status: 400, message: expect.stringContaining("Column 'Contact'") });
    }
  });
});
