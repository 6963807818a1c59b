/**
 * A SQLite project whose file another connection is writing (the SQL Client's runner, a cron job's SQL,
 * another program) never freezes the server: a write waits for the file without holding the server's
 * thread, so reads of every user are answered meanwhile; it goes through once the file is free, and
 * answers 503 with words when the file stays taken past the wait (nothing written).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { projectOver, sqliteCopyName } from '../helpers/dashboard';
import { join } from 'node:path';
import { dropDatabase, freshDatabase, runScript } from '../helpers/engines';
import { MSG_SQLITE_BUSY } from '../../src/sql/sqlite/driver';

const NAME = 'tablo_t_write_lock';
let t: TestApp;
let token = '';
let projectId = '';
let file = '';

beforeAll(async () => {
  t = await makeTestApp({ queryTimeoutMs: 1500 });
  token = (await signupSuperAdmin(t)).token;
  const cfg = await freshDatabase('sqlite', NAME);
  await runScript('sqlite', NAME, "CREATE TABLE item (id INTEGER PRIMARY KEY, v VARCHAR(20)); INSERT INTO item VALUES (1, 'a');");
  projectId = await projectOver(t, token, 'sqlite', 'Write lock', cfg);
  // The project's file: projectOver copies it into the data directory.
  file = join(t.dataDir, sqliteCopyName('Write lock'));
});
afterAll(async () => {
  await t.close();
  await dropDatabase('sqlite', NAME);
});

const auth = () => ({ headers: { 'xc-auth': token } });
/** Another connection holding the file's write lock (as a long UPDATE in the SQL Client's runner does). */
function holdWriteLock(): Database {
  const other = new Database(file);
  other.exec('PRAGMA busy_timeout = 0');
  other.exec('BEGIN IMMEDIATE');
  other.exec("UPDATE item SET v = 'held' WHERE id = 1");
  return other;
}

test('a write waiting for the file leaves the server answering, and goes through once the file is free', async () => {
  const other = holdWriteLock();
  const order: string[] = [];
  const write = t.request('PUT', `/nc/${projectId}/api/v1/Item/1`, { ...auth(), body: { V: 'mine' } }).then((r) => {
    order.push('write');
    return r;
  });
  // The read starts after the write is waiting: it must not queue behind it.
  await Bun.sleep(50);
  const read = await t.request('GET', `/nc/${projectId}/api/v1/Item/1`, auth());
  order.push('read');
  expect(read.status).toBe(200);
  expect(read.body.V).toBe('a');
  other.exec('ROLLBACK');
  other.close();
  order.push('freed');
  const written = await write;
  expect(order).toEqual(['read', 'freed', 'write']);
  expect(written.status).toBe(200);
  expect((await t.request('GET', `/nc/${projectId}/api/v1/Item/1`, auth())).body.V).toBe('mine');
});

test('a file taken past the wait answers 503 with words, and nothing is written', async () => {
  const other = holdWriteLock();
  try {
    const made = await t.request('POST', `/nc/${projectId}/api/v1/Item`, { ...auth(), body: { V: 'late' } });
    expect(made.status).toBe(503);
    expect(made.body.msg).toBe(MSG_SQLITE_BUSY);
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
  const rows = await t.request('GET', `/nc/${projectId}/api/v1/Item?where=${encodeURIComponent('(V,eq,late)')}`, auth());
  expect(rows.body).toEqual([]);
});
