/**
 * Counting a big SQLite table does not hold the server: bun:sqlite runs a statement on the server's own
 * thread and cannot interrupt it, so a table's count runs in slices of its rowid range (caps.slicedCount)
 * and a page asked for meanwhile answers first. The slices add up to the exact count, with a filter,
 * with far-apart rowids, and a table WITHOUT ROWID is counted at once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { projectOver } from '../helpers/dashboard';

const ROWS = 800_000;

describe('SQLite counts in slices', () => {
  let t: TestApp;
  let token = '';
  let base = '';
  const dir = mkdtempSync(join(tmpdir(), 'tablo-count-'));
  const get = (path: string) => t.request('GET', `${base}/${path}`, { headers: { 'xc-auth': token } });

  beforeAll(async () => {
    const file = join(dir, 'big.sqlite');
    const db = new Database(file, { create: true });
    db.exec('CREATE TABLE big (id INTEGER PRIMARY KEY, score INTEGER NOT NULL)');
    db.exec(`INSERT INTO big WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${ROWS}) SELECT n, n % 10 FROM g`);
    db.exec('CREATE TABLE sparse (id INTEGER PRIMARY KEY, name TEXT)');
    db.exec("INSERT INTO sparse VALUES (-5, 'a'), (1, 'b'), (1000000000000, 'c'), (9007199254740000, 'd')");
    db.exec('CREATE TABLE keyed (code TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID');
    db.exec("INSERT INTO keyed VALUES ('a', 1), ('b', 2), ('c', 3)");
    db.close();
    t = await makeTestApp();
    token = (await signupSuperAdmin(t)).token;
    const projectId = await projectOver(t, token, 'sqlite', 'Counts', { client: 'sqlite', connection: { filename: file } });
    base = `/nc/${projectId}/api/v1`;
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the slices add up to the exact count, with and without a filter', async () => {
    expect((await get('Big/count')).body).toEqual({ count: ROWS });
    expect((await get(`Big/count?where=${encodeURIComponent('(Score,eq,3)')}`)).body).toEqual({ count: ROWS / 10 });
    expect((await get('Sparse/count')).body).toEqual({ count: 4 });
    expect((await get(`Sparse/count?where=${encodeURIComponent('(Name,neq,b)')}`)).body).toEqual({ count: 3 });
    expect((await get('Keyed/count')).body).toEqual({ count: 3 });
  }, 30_000);

  test('a page asked for while the table is counted answers before the count', async () => {
    const order: string[] = [];
    const counting = get('Big/count').then((r) => (order.push('count'), r));
    await Bun.sleep(5);
    const page = await get('Big?limit=25');
    order.push('page');
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(25);
    expect((await counting).body).toEqual({ count: ROWS });
    expect(order).toEqual(['page', 'count']);
  }, 30_000);
});
