/**
 * Nested SQL kept per shape: the text is reused with the new key values (and cap) bound, and a
 * compiled query whose parameters are not exactly the keys then the cap is never kept.
 */
import { expect, test } from 'bun:test';
import type { Compiled } from '../../src/sql/ast';
import type { RelationModel } from '../../src/schema/model';
import { shapedCompile } from '../../src/data/nested-sql-cache';

const rel = () => ({}) as RelationModel;
const inList = (values: unknown[], cap?: number) => (): Compiled => ({
  sql: `SELECT x FROM t WHERE k IN (${values.map(() => '?').join(', ')})${cap === undefined ? '' : ' LIMIT ?'}`,
  params: (cap === undefined ? values : [...values, cap]) as Compiled['params'],
});

test('the SQL of a shape is compiled once, then only the values are bound', () => {
  const r = rel();
  let builds = 0;
  const counted = (b: () => Compiled) => () => (builds++, b());
  expect(shapedCompile(r, 'hm', [1, 2], 50, counted(inList([1, 2], 50)))).toEqual({ sql: 'SELECT x FROM t WHERE k IN (?, ?) LIMIT ?', params: [1, 2, 50] });
  expect(shapedCompile(r, 'hm', [7, 8], 50, counted(inList([7, 8], 50)))).toEqual({ sql: 'SELECT x FROM t WHERE k IN (?, ?) LIMIT ?', params: [7, 8, 50] });
  expect(builds).toBe(1);
  // Another number of keys, another shape key or another relation: compiled anew.
  expect(shapedCompile(r, 'hm', [1, 2, 3], 75, counted(inList([1, 2, 3], 75))).params).toEqual([1, 2, 3, 75]);
  expect(shapedCompile(r, 'bt', ['a', 'b'], undefined, counted(inList(['a', 'b']))).params).toEqual(['a', 'b']);
  expect(shapedCompile(rel(), 'hm', [1, 2], 50, counted(inList([1, 2], 50))).params).toEqual([1, 2, 50]);
  expect(builds).toBe(4);
});

test('a layout other than keys then cap, a cap among the keys or converted values are not kept', () => {
  const r = rel();
  let builds = 0;
  const capFirst = (): Compiled => (builds++, { sql: 'SELECT TOP (?) x FROM t WHERE k IN (?, ?)', params: [50, 1, 2] });
  shapedCompile(r, 'hm', [1, 2], 50, capFirst);
  expect(shapedCompile(r, 'hm', [3, 4], 50, capFirst).params).toEqual([50, 1, 2]);
  expect(builds).toBe(2);
  const capIsKey = () => (builds++, inList([2, 3], 2)());
  shapedCompile(r, 'x', [2, 3], 2, capIsKey);
  shapedCompile(r, 'x', [2, 3], 2, capIsKey);
  expect(builds).toBe(4);
  const when = new Date(0);
  const dates = (): Compiled => (builds++, { sql: 'SELECT x FROM t WHERE d IN (?)', params: [when.toISOString()] });
  shapedCompile(r, 'd', [when], undefined, dates);
  shapedCompile(r, 'd', [when], undefined, dates);
  expect(builds).toBe(6);
});
