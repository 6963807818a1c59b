/**
 * The SQLite driver keeps prepared statements per SQL text and integer mode: the same text asked
 * with and without exact integers answers each way (a number past 2^53 always exactly), statements past the kept number still run,
 * errors still leave as AppErrors, and closing finalizes them.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteDriver } from '../../src/sql/sqlite/driver';
import { isAppError } from '../../src/lib/errors';

const dir = mkdtempSync(join(tmpdir(), 'tablo-statements-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('one SQL text, exact and plain integers, many texts, errors and close', async () => {
  const driver = openSqliteDriver(join(dir, 'statements.sqlite'), { create: true });
  await driver.execute({ sql: 'CREATE TABLE big (id integer PRIMARY KEY, n bigint)', params: [] });
  await driver.execute({ sql: 'INSERT INTO big (id, n) VALUES (1, 1152921504606846977)', params: [] });
  const sql = 'SELECT n FROM big WHERE id = ?';

  expect(await driver.query({ sql, params: [1], exact: true })).toEqual([{ n: '1152921504606846977' }]);
  // Asked without exact integers, a read whose number is past 2^53 is read again exactly (no digit lost).
  expect(await driver.query({ sql, params: [1] })).toEqual([{ n: '1152921504606846977' }]);
  expect(await driver.query({ sql: 'SELECT n + 0.5 AS f, 7 AS i FROM big WHERE id = ?', params: [1] })).toEqual([{ f: 1152921504606846977.5, i: 7 }]);
  // A write's RETURNING answers exact integers (it cannot be run a second time).
  expect(await driver.query({ sql: 'UPDATE big SET n = n WHERE id = ? RETURNING n', params: [1] })).toEqual([{ n: '1152921504606846977' }]);
  expect(await driver.query({ sql, params: [1], exact: true })).toEqual([{ n: '1152921504606846977' }]);

  // More distinct texts than the driver keeps: the oldest are finalized and prepared again when asked.
  for (let i = 0; i < 600; i++) expect(await driver.query({ sql: `SELECT ${i} AS v`, params: [] })).toEqual([{ v: i }]);
  expect(await driver.query({ sql: 'SELECT 0 AS v', params: [] })).toEqual([{ v: 0 }]);
  expect(await driver.query({ sql, params: [1], exact: true })).toEqual([{ n: '1152921504606846977' }]);

  const failed = await driver.query({ sql: 'SELECT nope FROM big', params: [] }).catch((e) => e);
  expect(isAppError(failed)).toBe(true);
  expect(failed.status).toBe(400);
  expect(failed.message).toContain('no such column');

  await driver.close();
  expect(await driver.query({ sql, params: [1] }).catch((e) => e)).toBeInstanceOf(Error);
});
