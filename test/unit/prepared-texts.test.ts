import { describe, expect, test } from 'bun:test';
import { PreparedTexts } from '../../src/sql/postgres/prepared-texts';

describe('PreparedTexts', () => {
  test('a text is prepared from its second run on', () => {
    const t = new PreparedTexts(10);
    expect(t.admit('SELECT 1')).toBe(false);
    expect(t.admit('SELECT 1')).toBe(true);
    expect(t.admit('SELECT 1')).toBe(true);
    expect(t.admit('SELECT 2')).toBe(false);
    expect(t.size).toBe(1);
  });

  test('no more than max distinct texts are ever prepared; those kept stay prepared', () => {
    const t = new PreparedTexts(3);
    for (let i = 0; i < 10; i++) {
      t.admit(`SELECT ${i}`);
      t.admit(`SELECT ${i}`);
    }
    expect(t.size).toBe(3);
    expect(t.admit('SELECT 0')).toBe(true);
    expect(t.admit('SELECT 2')).toBe(true);
    expect(t.admit('SELECT 3')).toBe(false);
    expect(t.admit('SELECT 9')).toBe(false);
  });

  test('the texts seen once are forgotten in bulk past their own bound', () => {
    const t = new PreparedTexts(100, 4);
    for (let i = 0; i < 4; i++) t.admit(`SELECT ${i}`);
    t.admit('SELECT x'); // the fifth: the seen-once set starts afresh
    expect(t.admit('SELECT 0')).toBe(false);
    expect(t.admit('SELECT x')).toBe(true);
  });
});
