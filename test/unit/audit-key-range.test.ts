/**
 * The order of a bulk insert's key range: whole numbers as numbers, other keys by their UTF-8 bytes,
 * both written with 0-9 and a-z only (which SQLite and PostgreSQL compare alike).
 */
import { expect, test } from 'bun:test';
import { keyOrder, keyRange } from '../../src/meta/audit-key-range';

test('whole numbers order as numbers, other keys by their bytes, numbers before text', () => {
  const keys = ['10', '9', '0', '100000000000000000000', 'b', 'a', 'é', 'Z', '-1', '007', 'a___b'];
  const sorted = [...keys].sort((x, y) => (keyOrder(x) < keyOrder(y) ? -1 : 1));
  expect(sorted).toEqual(['0', '9', '10', '100000000000000000000', '-1', '007', 'Z', 'a', 'a___b', 'b', 'é']);
  for (const k of keys) expect(keyOrder(k)).toMatch(/^[0-9a-z]+$/);
});

test('a range holds every key of its batch; no known key: a range nothing falls into', () => {
  const r = keyRange(['12', null, '9', '11']);
  expect(r).toEqual({ lo: keyOrder('9'), hi: keyOrder('12') });
  for (const k of ['9', '10', '12']) expect(keyOrder(k) >= r.lo && keyOrder(k) <= r.hi).toBe(true);
  const none = keyRange([null]);
  expect(['0', '5', 'a'].some((k) => keyOrder(k) >= none.lo && keyOrder(k) <= none.hi)).toBe(false);
});
