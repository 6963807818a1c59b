/**
 * A cron job's SQL never holds the server: while a job's long statement runs, a REST read of the same
 * server answers at once (on SQLite the statement runs in the SQL Client's runner process, not on the
 * server's thread); past the statement time limit (NC_QUERY_TIMEOUT_MS) the run is recorded as failed
 * with the time-out message, on every engine; when Tablo stops, a statement still running on SQLite is
 * stopped with it (its runner is killed, so the file's write lock is free).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver, sqliteCopyName } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, runScript, type TestEngine } from '../helpers/engines';
import { waitFor } from '../helpers/receiver';
import { cronsRepo, STOPPED_RUN_ERROR } from '../../src/meta/crons-repo';

const TIMEOUT_ERROR = 'SQL error: The statement took too long and was stopped (statement time-out)';
/** Counting to 10^8 takes SQLite many seconds; the others sleep. */
const LONG: Partial<Record<TestEngine, string>> = {
  sqlite: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) SELECT COUNT(*) AS n FROM c',
  pg: 'SELECT pg_sleep(20)',
  mysql: 'SELECT SLEEP(20)',
};

type Op = (api: string, args?: unknown) => Promise<{ status: number; body: any }>;
const opsOf = (t: TestApp, token: string, projectId: string): Op => (api, args) => dashboardOp(t, token, api, { project_id: projectId, args });
const runsOf = async (op: Op, id: string) => (await op('xcCronLogs', { id })).body.data.list as any[];
const sqlJob = async (op: Op, title: string, sql: string): Promise<string> => {
  const made = await op('xcCronCreate', { title, pattern: '0 0 1 1 *', action: { type: 'sql', sql, dbAlias: 'db' } });
  expect(made.status).toBe(200);
  return made.body.id;
};

let t: TestApp;
let token = '';
beforeAll(async () => {
  t = await makeTestApp({ queryTimeoutMs: 1500 });
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => t.close());

describeEngines(
  'cron SQL under the statement time limit',
  (engine) => {
    const name = `tablo_t_cronsql_${engine}`;
    let op: Op;
    let projectId = '';
    const readFast = () => t.request('GET', `/nc/${projectId}/api/v1/Fast`, { headers: { 'xc-auth': token } });
    beforeAll(async () => {
      const cfg = await freshDatabase(engine, name);
      await runScript(engine, name, "CREATE TABLE fast (id INTEGER PRIMARY KEY, v VARCHAR(20)); INSERT INTO fast VALUES (1, 'a');");
      projectId = await projectOver(t, token, engine, `Cron SQL ${engine}`, cfg);
      op = opsOf(t, token, projectId);
    });
    afterAll(async () => dropDatabase(engine, name));

    test('while a long statement runs the server answers at once; past the limit the run is recorded as failed', async () => {
      const id = await sqlJob(op, 'long', LONG[engine]!);
      const ran = op('xcCronRun', { id });
      await waitFor('the run under way', async () => (await runsOf(op, id)).some((r) => r.status === 'running'));
      const started = performance.now();
      const read = await readFast();
      const took = performance.now() - started;
      expect(read.status).toBe(200);
      expect(read.body).toEqual([{ Id: 1, V: 'a' }]);
      expect(took).toBeLessThan(1000);
      // The read did not wait for the statement: the run is still going.
      expect((await runsOf(op, id)).map((r) => r.status)).toEqual(['running']);
      expect((await ran).body).toMatchObject({ status: 'error', error: TIMEOUT_ERROR });
      expect((await runsOf(op, id)).map((r) => [r.status, r.error])).toEqual([['error', TIMEOUT_ERROR]]);
      expect((await readFast()).status).toBe(200);
    }, 60_000);

    test('the next job runs as usual: its statements in order, with rows affected and rows read', async () => {
      const id = await sqlJob(op, 'usual', "INSERT INTO fast (id, v) VALUES (2, 'b'); SELECT v FROM fast WHERE id = 2; UPDATE fast SET v = 'c' WHERE id > 0");
      expect((await op('xcCronRun', { id })).body).toMatchObject({ status: 'success', result: '1: 1 row(s) affected\n2: 1 row(s): [{"v":"b"}]\n3: 2 row(s) affected' });
      expect((await readFast()).body).toEqual([{ Id: 1, V: 'c' }, { Id: 2, V: 'c' }]);
    });
  },
  ['sqlite', 'pg', 'mysql'],
);

test('a SQLite statement still running when Tablo stops is stopped with it (no time limit set)', async () => {
  const app = await makeTestApp({ queryTimeoutMs: 0 });
  const dbName = 'tablo_t_cronsql_stop';
  try {
    const admin = (await signupSuperAdmin(app)).token;
    const cfg = await freshDatabase('sqlite', dbName);
    await runScript('sqlite', dbName, 'CREATE TABLE counts (n INTEGER);');
    const title = 'Cron SQL stop';
    const projectId = await projectOver(app, admin, 'sqlite', title, cfg);
    const file = join(app.dataDir, sqliteCopyName(title));
    const op = opsOf(app, admin, projectId);
    // A write that counts for minutes: it holds the file's write lock while it runs.
    const id = await sqlJob(op, 'endless', 'INSERT INTO counts (n) SELECT COUNT(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000000) SELECT x FROM c)');
    const ran = op('xcCronRun', { id });
    const writeLocked = () => {
      const db = new Database(file);
      try {
        db.exec('PRAGMA busy_timeout = 0');
        db.exec('BEGIN IMMEDIATE');
        db.exec('ROLLBACK');
        return false;
      } catch (e) {
        if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
        return true;
      } finally {
        db.close();
      }
    };
    await waitFor('the statement holding the write lock', writeLocked);
    await app.app.close();
    await waitFor('the write lock set free', () => !writeLocked(), 5000);
    expect((await ran).body).toMatchObject({ status: 'error', error: STOPPED_RUN_ERROR });
    expect((await cronsRepo(app.app.ctx.meta).runs(id, 10)).map((r) => [r.status, r.error])).toEqual([['error', STOPPED_RUN_ERROR]]);
  } finally {
    await app.close();
    await dropDatabase('sqlite', dbName);
  }
}, 60_000);
