/** The SQL Client's metadata: history capped per user and database, newest first; saved query names unique. */
import { expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteMetaStore } from '../../src/meta/sqlite-store';
import { migrateMeta } from '../../src/meta/migrate';
import { runStamp, SQL_HISTORY_MAX, sqlClientRepo } from '../../src/meta/sql-client-repo';

async function store() {
  const meta = openSqliteMetaStore(join(mkdtempSync(join(tmpdir(), 'tablo-sqlc-')), 'meta.db'));
  await migrateMeta(meta);
  // Projects are not needed here: their foreign keys are left unchecked.
  await meta.exec('PRAGMA foreign_keys = OFF');
  return meta;
}

test('history keeps the last runs of each user and database, newest first', async () => {
  const meta = await store();
  const repo = sqlClientRepo(meta);
  for (let i = 1; i <= SQL_HISTORY_MAX + 5; i++) await repo.addHistory('p1', 'db', 'u1', { sql: `SELECT ${i}`, status: 'ok', statements: 1, durationMs: i });
  await repo.addHistory('p1', 'db', 'u2', { sql: 'SELECT other', status: 'error', statements: 1, durationMs: 1 });
  await repo.addHistory('p1', 'db2', 'u1', { sql: 'SELECT db2', status: 'ok', statements: 1, durationMs: 1 });
  const mine = await repo.history('p1', 'db', 'u1');
  expect(mine.length).toBe(SQL_HISTORY_MAX);
  expect(mine[0]!.sql).toBe(`SELECT ${SQL_HISTORY_MAX + 5}`);
  expect(mine[SQL_HISTORY_MAX - 1]!.sql).toBe('SELECT 6');
  expect((await repo.history('p1', 'db', 'u2')).map((h) => h.sql)).toEqual(['SELECT other']);
  expect((await repo.history('p1', 'db2', 'u1')).map((h) => h.sql)).toEqual(['SELECT db2']);
  await repo.clearHistory('p1', 'db', 'u1');
  expect(await repo.history('p1', 'db', 'u1')).toEqual([]);
  expect((await repo.history('p1', 'db', 'u2')).length).toBe(1);
  await meta.close();
});

test('run stamps increase even within one millisecond', () => {
  const stamps = Array.from({ length: 50 }, runStamp);
  expect([...stamps].sort()).toEqual(stamps);
  expect(new Set(stamps).size).toBe(50);
});

test('saved queries: names unique per database, renamed in place, deleted once', async () => {
  const meta = await store();
  const repo = sqlClientRepo(meta);
  const q = await repo.saveQuery('p1', 'db', { name: 'Top', sql: 'SELECT 1' }, 'u1');
  await expect(repo.saveQuery('p1', 'db', { name: 'Top', sql: 'SELECT 2' }, 'u2')).rejects.toMatchObject({ status: 409 });
  expect((await repo.saveQuery('p1', 'db2', { name: 'Top', sql: 'SELECT 3' }, 'u1')).name).toBe('Top');
  expect(await repo.saveQuery('p1', 'db', { id: q.id, name: 'Top 10', sql: 'SELECT 10' }, 'u2')).toMatchObject({ id: q.id, name: 'Top 10', sql: 'SELECT 10', createdBy: 'u1' });
  await expect(repo.saveQuery('p1', 'db', { id: 'sq_missing', name: 'X', sql: 'SELECT 1' }, 'u1')).rejects.toMatchObject({ status: 404 });
  expect((await repo.listQueries('p1', 'db')).map((x) => x.name)).toEqual(['Top 10']);
  await repo.deleteQuery('p1', 'db', q.id);
  await expect(repo.deleteQuery('p1', 'db', q.id)).rejects.toMatchObject({ status: 404 });
  await meta.close();
});
