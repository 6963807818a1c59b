/**
 * Every data statement runs under NC_QUERY_TIMEOUT_MS on PostgreSQL and MariaDB: a read past it
 * answers 504 `{msg}` (the contract's statement time-out) and the server has ended the statement,
 * so nothing keeps running after the answer.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import postgres from 'postgres';
import mysql from 'mysql2/promise';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { projectOver } from '../helpers/dashboard';
import { MY, PG, dbName, describeEngines, dropDatabase, freshDatabase, runScript, type TestEngine } from '../helpers/engines';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp({ queryTimeoutMs: 400 });
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => t.close());

/** Statements of the test database still running that call the sleep function. */
async function sleeping(engine: TestEngine, name: string): Promise<number> {
  if (engine === 'pg') {
    const sql = postgres({ ...PG, database: 'postgres', max: 1, onnotice: () => {} });
    try {
      const rows = await sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ${dbName(name)} AND state = 'active' AND query ILIKE '%slow%'`;
      return rows[0]!.n as number;
    } finally {
      await sql.end();
    }
  }
  const c = await mysql.createConnection(MY);
  try {
    const [rows] = await c.query('SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND COMMAND = ? AND INFO LIKE ?', [dbName(name), 'Query', '%slow%']);
    return Number((rows as { n: number }[])[0]!.n);
  } finally {
    await c.end();
  }
}

describeEngines(
  'statement time limit',
  (engine: TestEngine) => {
    const name = `tablo_t_qtimeout_${engine}`;
    let id = '';
    beforeAll(async () => {
      const cfg = await freshDatabase(engine, name);
      await runScript(
        engine,
        name,
        engine === 'pg'
          ? `CREATE TABLE fast (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO fast VALUES (1, 'a');
             CREATE VIEW slow AS SELECT 1 AS id, pg_sleep(3)::text AS waited;`
          : `CREATE TABLE fast (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO fast VALUES (1, 'a');
             CREATE VIEW slow AS SELECT 1 AS id, SLEEP(3) AS waited;`,
      );
      id = await projectOver(t, token, engine, `Timeout ${engine}`, cfg);
    });
    afterAll(async () => dropDatabase(engine, name));

    test('a read past the limit answers 504 and leaves no statement running', async () => {
      const r = await t.request('GET', `/nc/${id}/api/v1/Slow`, { headers: { 'xc-auth': token } });
      expect(r.status).toBe(504);
      expect(r.body).toEqual({ msg: 'The statement took too long and was cancelled', code: 'QUERY_TIMEOUT' });
      expect(await sleeping(engine, name)).toBe(0);
    });

    test('reads within the limit answer as usual', async () => {
      const r = await t.request('GET', `/nc/${id}/api/v1/Fast`, { headers: { 'xc-auth': token } });
      expect(r.status).toBe(200);
      expect(r.body).toEqual([{ Id: 1, V: 'a' }]);
    });
  },
  ['pg', 'mysql'],
);
