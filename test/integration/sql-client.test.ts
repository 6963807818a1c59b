/**
 * SQL Client (rawSqlRun / rawSqlCancel, saved queries, history) on SQLite, PostgreSQL and MariaDB:
 * several statements with a result each, typed columns, errors with their position, query plans,
 * time-outs and cancels that really stop the statement in the database, the schema read again
 * after DDL (and the DDL in the audit log), refusals to editors, viewers and outsiders, and cancels of others' runs by owners only.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import postgres from 'postgres';
import mysql from 'mysql2/promise';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { dbName, describeEngines, dropDatabase, freshDatabase, MY, PG, type TestEngine } from '../helpers/engines';

const auth = (token: string) => ({ 'xc-auth': token });
let runSeq = 0;
const newRunId = () => `run_${Date.now().toString(36)}_${++runSeq}`;

/** Is a statement whose text contains `marker` still running in the database? */
async function runningIn(engine: TestEngine, db: string, marker: string): Promise<number> {
  if (engine === 'pg') {
    const sql = postgres({ ...PG, database: 'postgres', max: 1, onnotice: () => {} });
    try {
      const rows = await sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ${dbName(db)} AND state = 'active' AND query LIKE ${'%' + marker + '%'} AND pid <> pg_backend_pid()`;
      return rows[0]!.n as number;
    } finally {
      await sql.end();
    }
  }
  const c = await mysql.createConnection({ ...MY });
  try {
    const [rows] = (await c.query("SELECT count(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND COMMAND = 'Query' AND INFO LIKE ? AND ID <> CONNECTION_ID()", [dbName(db), '%' + marker + '%'])) as unknown as [{ n: number }[]];
    return Number(rows[0]!.n);
  } finally {
    await c.end();
  }
}

const processAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describeEngines('SQL client', (engine: TestEngine) => {
  const db = `tablo_t_sqlclient_${engine}`;
  let t: TestApp;
  let owner = '';
  let projectId = '';
  let otherProjectId = '';
  const tokens: Record<string, string> = {};

  const join = async (email: string, roles: string, pid = projectId) => {
    const invite = await t.request('POST', '/admin', { headers: auth(owner), body: { email, roles, project_id: pid } });
    expect(invite.status).toBe(200);
    const token = String(invite.body.invite_url).split('/signup/')[1]!;
    return (await t.request('POST', '/auth/signup', { body: { email, password: 'password123', token } })).body.token as string;
  };
  const op = (token: string, api: string, args?: unknown) => dashboardOp(t, token, api, { project_id: projectId, args });
  const run = (sql: string, extra: Record<string, unknown> = {}, token = owner) => op(token, 'rawSqlRun', { sql, runId: newRunId(), ...extra });

  beforeAll(async () => {
    t = await makeTestApp();
    owner = (await signupSuperAdmin(t, 'owner@example.com')).token;
    const cfg = await freshDatabase(engine, db);
    projectId = await projectOver(t, owner, engine, 'SqlClient', cfg);
    otherProjectId = await projectOver(t, owner, engine, 'SqlClientOther', cfg);
    tokens.owner = await join('owner2@example.com', 'owner');
    tokens.creator = await join('creator@example.com', 'creator');
    tokens.creator2 = await join('creator2@example.com', 'creator');
    tokens.editor = await join('editor@example.com', 'editor');
    tokens.viewer = await join('viewer@example.com', 'viewer');
    tokens.outsider = await join('outsider@example.com', 'owner', otherProjectId);
  }, 30_000);
  afterAll(async () => {
    await t.close();
    await dropDatabase(engine, db);
  }, 30_000);

  test('several statements answer one result each; DDL reads the schema again', async () => {
    const sql = [
      'CREATE TABLE sc_items (id INTEGER PRIMARY KEY, name VARCHAR(50))',
      "INSERT INTO sc_items (id, name) VALUES (1, 'a;b'), (2, 'c -- not a comment')",
      '/* a; comment */ SELECT id, name FROM sc_items ORDER BY id',
      '-- only a comment;',
    ].join(';\n');
    const res = await run(sql);
    expect(res.status).toBe(200);
    const { results, schemaChanged, skipped } = res.body;
    expect(results.length).toBe(3);
    expect(skipped).toBe(0);
    expect(schemaChanged).toBe(true);
    expect(results[1].affected).toBe(2);
    expect(results[2].columns.map((c: { name: string }) => c.name)).toEqual(['id', 'name']);
    expect(results[2].columns.every((c: { type: string }) => c.type.length > 0)).toBe(true);
    expect(results[2].rows).toEqual([[1, 'a;b'], [2, 'c -- not a comment']]);
    expect(results[2].rowCount).toBe(2);
    expect(typeof results[2].ms).toBe('number');
    // Offsets point into the text sent, so the editor can mark each statement.
    expect(sql.slice(results[1].start, results[1].start + 6)).toBe('INSERT');
    // The audit log says who changed the schema through the SQL Client, and how.
    const audit = await t.request('GET', `/admin/audit?op_type=SCHEMA&project_id=${projectId}`, { headers: auth(owner) });
    expect(audit.body.list.map((e: { description: string; userEmail: string }) => [e.description, e.userEmail])).toContainEqual(['SQL Client: CREATE TABLE sc_items (id INTEGER PRIMARY KEY, name VARCHAR(50))', 'owner@example.com']);
    expect(audit.body.list.filter((e: { description: string }) => /INSERT|SELECT/.test(e.description))).toEqual([]);
    // The model was read again: the tree lists the new table.
    const tables = await op(owner, 'tableList');
    expect(tables.body.data.list.map((x: { tn: string }) => x.tn)).toContain('sc_items');
    // The editor's completion knows it with its columns.
    const schema = (await op(owner, 'sqlClientSchema')).body;
    expect(schema.engine).toBe(engine);
    const items = schema.tables.find((x: { name: string }) => x.name === 'sc_items');
    expect(items.columns.map((c: { name: string }) => c.name)).toEqual(['id', 'name']);
  });

  test('a transaction spans the statements of one run; one left open is rolled back', async () => {
    const res = await run("BEGIN; INSERT INTO sc_items (id, name) VALUES (10, 't'); SELECT count(*) AS n FROM sc_items WHERE id = 10; ROLLBACK; SELECT count(*) AS n FROM sc_items WHERE id = 10");
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { rows: unknown[][] }) => r.rows[0]?.map(Number))).toEqual([undefined, undefined, [1], undefined, [0]]);
    // Left open when the run ends: the run's connection goes, and the row with it.
    expect((await run("BEGIN; INSERT INTO sc_items (id, name) VALUES (11, 'u')")).status).toBe(200);
    expect((await run('SELECT count(*) AS n FROM sc_items WHERE id = 11')).body.results[0].rows[0].map(Number)).toEqual([0]);
  });

  test('an error carries its position and ends the run', async () => {
    const res = await run('SELECT 1 AS one;\nSELECT * FRM sc_items;\nSELECT 2 AS two');
    expect(res.status).toBe(200);
    const { results, skipped } = res.body;
    expect(results.length).toBe(2);
    expect(results[0].rows).toEqual([[1]]);
    expect(results[1].error.kind).toBe('statement');
    expect(results[1].error.msg.length).toBeGreaterThan(0);
    // Each engine names the spot (FRM): PostgreSQL's position, MariaDB's "near '...'", SQLite's near "...".
    expect(results[1].error.position).toBe('SELECT * '.length);
    expect(skipped).toBe(1);
    // Counted as the editor counts: characters beyond the BMP (an emoji) are two there.
    const wide = "SELECT '😀客' AS x ";
    expect((await run(`${wide}FRM sc_items`)).body.results[0].error.position).toBe(wide.length);
  });

  test('a large result answers its first rows; the rest are read page by page', async () => {
    const digits = `(${Array.from({ length: 10 }, (_, d) => `SELECT ${d} AS d`).join(' UNION ALL ')})`;
    const big = `SELECT a.d * 1000 + b.d * 100 + c.d * 10 + e.d + 1 AS n FROM ${digits} a CROSS JOIN ${digits} b CROSS JOIN ${digits} c CROSS JOIN ${digits} e ORDER BY n`;
    const res = await run(big);
    expect(res.status).toBe(200);
    const first = res.body.results[0];
    expect(first.rows.length).toBe(500);
    expect(first.rows[0].map(Number)).toEqual([1]);
    expect(first.complete).toBe(false);
    const page = await op(owner, 'rawSqlRows', { resultId: first.resultId, offset: 500, limit: 20_000 });
    expect(page.status).toBe(200);
    expect(page.body.done).toBe(true);
    expect(page.body.rowCount).toBe(10_000);
    expect(page.body.rows.length).toBe(9_500);
    expect(page.body.rows[0].map(Number)).toEqual([501]);
    expect(page.body.rows[9_499].map(Number)).toEqual([10_000]);
    // Another user's results are not theirs to read.
    expect((await op(tokens.creator!, 'rawSqlRows', { resultId: first.resultId, offset: 0, limit: 10 })).status).toBe(404);
    expect((await op(owner, 'rawSqlRows', { resultId: 'nope', offset: 0, limit: 10 })).status).toBe(404);
  });

  test('explain answers the query plan', async () => {
    const res = await run('SELECT * FROM sc_items WHERE id = 1', { explain: true });
    expect(res.status).toBe(200);
    const plan = res.body.results[0];
    expect(plan.error).toBeUndefined();
    expect(plan.rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(plan.rows)).toMatch(engine === 'pg' ? /Scan/ : engine === 'sqlite' ? /SEARCH|SCAN/ : /SIMPLE/);
  });

  test('a statement over its time-out is stopped by the database', async () => {
    const slow = engine === 'pg' ? 'SELECT pg_sleep(5)' : engine === 'mysql' ? 'SELECT SLEEP(5)' : 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
    const started = Date.now();
    const res = await run(`SELECT 1 AS before_it; ${slow}; SELECT 3`, { timeoutMs: 400 });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(res.body.results.length).toBe(2);
    expect(res.body.results[1].error.kind).toBe('timeout');
    // The next run works as before.
    expect((await run('SELECT 7 AS seven')).body.results[0].rows).toEqual([[7]]);
  });

  test('cancel stops the running statement in the database', async () => {
    const runId = newRunId();
    const marker = engine === 'pg' ? 'pg_sleep(30)' : 'SLEEP(30)';
    const slow = engine === 'pg' ? 'SELECT pg_sleep(30)' : engine === 'mysql' ? 'SELECT SLEEP(30)' : 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
    const pending = op(owner, 'rawSqlRun', { sql: `${slow}; SELECT 2`, runId, timeoutMs: 60_000 });
    let connectionId: number | null = null;
    for (let i = 0; i < 100; i++) {
      await Bun.sleep(50);
      if (engine === 'sqlite') {
        if (i >= 6) break;
      } else if ((await runningIn(engine, db, marker)) > 0) break;
    }
    if (engine !== 'sqlite') expect(await runningIn(engine, db, marker)).toBe(1);
    const cancel = await op(owner, 'rawSqlCancel', { runId });
    expect(cancel.status).toBe(200);
    connectionId = cancel.body.connectionId;
    expect(typeof connectionId).toBe('number');
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.results.length).toBe(1);
    expect(res.body.results[0].error.kind).toBe('cancelled');
    expect(res.body.skipped).toBe(1);
    if (engine === 'sqlite') expect(processAlive(connectionId!)).toBe(false);
    else expect(await runningIn(engine, db, marker)).toBe(0);
    // A run that is over cannot be cancelled.
    expect((await op(owner, 'rawSqlCancel', { runId })).status).toBe(404);
    const history = (await op(owner, 'sqlHistoryList')).body.list;
    expect(history[0].status).toBe('cancelled');
  }, 20_000);

  test('cancel also stops a statement whose rows are still being read', async () => {
    const digits = `(${Array.from({ length: 10 }, (_, d) => `SELECT ${d} AS d`).join(' UNION ALL ')})`;
    // Rows that take a while each, so the cancel comes long before the row limit.
    const huge =
      engine === 'pg' ? 'SELECT g AS n, (SELECT count(*) FROM generate_series(1, 200 + g % 2)) AS work FROM generate_series(1, 20000000) g'
      : engine === 'mysql' ? `SELECT a.d AS n, SLEEP(0.0002) FROM ${digits} a, ${digits} b, ${digits} c, ${digits} d2, ${digits} e, ${digits} f, ${digits} g`
      : 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 20000000) SELECT n, (WITH RECURSIVE d(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM d WHERE x < 300) SELECT count(*) FROM d) FROM c';
    const runId = newRunId();
    const res = await op(owner, 'rawSqlRun', { sql: huge, runId, timeoutMs: 30_000 });
    expect(res.status).toBe(200);
    const first = res.body.results[0];
    expect(first.complete).toBe(false);
    expect(first.rows.length).toBe(500);
    const cancel = await op(owner, 'rawSqlCancel', { runId });
    expect(cancel.status).toBe(200);
    let page = await op(owner, 'rawSqlRows', { resultId: first.resultId, offset: 0, limit: 25_000 });
    for (let i = 0; i < 100 && !page.body.done; i++) {
      await Bun.sleep(100);
      page = await op(owner, 'rawSqlRows', { resultId: first.resultId, offset: 0, limit: 25_000 });
    }
    expect(page.body.done).toBe(true);
    expect(page.body.error.kind).toBe('cancelled');
    expect(page.body.loaded).toBeLessThan(100_000);
    if (engine === 'sqlite') expect(processAlive(cancel.body.connectionId)).toBe(false);
    else {
      // The statement is gone from the server once its connection is let go.
      const marker = engine === 'pg' ? 'generate_series(1, 20000000)' : 'SELECT a.d AS n';
      for (let i = 0; i < 20 && (await runningIn(engine, db, marker)) > 0; i++) await Bun.sleep(100);
      expect(await runningIn(engine, db, marker)).toBe(0);
    }
  }, 30_000);

  test('a result past the row limit is cut there, and the rest is not read', async () => {
    const digits = `(${Array.from({ length: 10 }, (_, d) => `SELECT ${d} AS d`).join(' UNION ALL ')})`;
    const big =
      engine === 'pg' ? 'SELECT g AS n FROM generate_series(1, 5000000) g'
      : engine === 'mysql' ? `SELECT a.d AS n FROM ${digits} a, ${digits} b, ${digits} c, ${digits} d2, ${digits} e, ${digits} f, ${digits} g`
      : 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5000000) SELECT n FROM c';
    const res = await run(big);
    expect(res.status).toBe(200);
    const { resultId } = res.body.results[0];
    let page = await op(owner, 'rawSqlRows', { resultId, offset: 500, limit: 25_000 });
    let loaded = 500 + page.body.rows.length;
    for (let i = 0; i < 20 && !(page.body.done && loaded >= page.body.loaded); i++) {
      page = await op(owner, 'rawSqlRows', { resultId, offset: loaded, limit: 25_000 });
      loaded += page.body.rows.length;
    }
    expect(page.body).toMatchObject({ done: true, truncated: true, loaded: 100_000 });
    expect(page.body.error).toBeUndefined();
    expect(loaded).toBe(100_000);
    expect(page.body.rowCount).toBeLessThan(5_000_000);
  }, 30_000);

  test('only owners and creators may run, cancel, save or list', async () => {
    const creator = await run('SELECT 5 AS five', {}, tokens.creator);
    expect(creator.status).toBe(200);
    expect(creator.body.results[0].rows).toEqual([[5]]);
    for (const who of ['editor', 'viewer', 'outsider']) {
      const token = tokens[who]!;
      expect((await run('SELECT 1', {}, token)).status).toBe(403);
      expect((await op(token, 'rawSqlCancel', { runId: newRunId() })).status).toBe(403);
      expect((await op(token, 'sqlQuerySave', { name: 'x', sql: 'SELECT 1' })).status).toBe(403);
      expect((await op(token, 'sqlQueryList')).status).toBe(403);
      expect((await op(token, 'sqlHistoryList')).status).toBe(403);
      expect((await op(token, 'sqlClientSchema')).status).toBe(403);
    }
    expect((await dashboardOp(t, null, 'rawSqlRun', { project_id: projectId, args: { sql: 'SELECT 1', runId: newRunId() } })).status).toBe(401);
  });

  test('bad input answers 400 with a message', async () => {
    const noId = await op(owner, 'rawSqlRun', { sql: 'SELECT 1' });
    expect(noId.status).toBe(400);
    expect(noId.body.msg).toContain('runId');
    const empty = await run('  -- nothing here\n ');
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('There is no statement to run');
    expect((await run('SELECT 1', { timeoutMs: -5 })).status).toBe(400);
  });

  // MariaDB's doubles hold no NaN or infinity.
  if (engine !== 'mysql') {
    test('NaN and infinities are shown as such, not as NULL', async () => {
      const sql = engine === 'pg' ? "SELECT 'NaN'::float8 AS a, 'Infinity'::float8 AS b, '-Infinity'::float8 AS c, NULL::float8 AS d" : 'SELECT 9e999 AS b, -9e999 AS c, NULL AS d';
      const res = await run(sql);
      expect(res.body.results[0].rows).toEqual([[...(engine === 'pg' ? ['NaN'] : []), 'Infinity', '-Infinity', null]]);
    });
  }

  if (engine === 'mysql') {
    test("columns are typed with their SQL types, not the protocol's names (LONG, NEWDECIMAL, VAR_STRING)", async () => {
      await run('CREATE TABLE sc_typed (i INT, u BIGINT UNSIGNED, d DECIMAL(10,2), v VARCHAR(20), t TEXT, b BLOB, vb VARBINARY(4), e ENUM(\'a\',\'b\'), dt DATETIME, j JSON)');
      const res = await run('SELECT * FROM sc_typed');
      expect(res.status).toBe(200);
      // MariaDB's JSON is an alias of LONGTEXT, announced as text; MySQL has its own type.
      const types = res.body.results[0].columns.map((c: { name: string; type: string }) => `${c.name} ${c.type}`);
      expect(types.map((x: string) => (x === 'j TEXT' ? 'j JSON' : x))).toEqual(['i INT', 'u BIGINT UNSIGNED', 'd DECIMAL', 'v VARCHAR', 't TEXT', 'b BLOB', 'vb VARBINARY', 'e ENUM', 'dt DATETIME', 'j JSON']);
      await run('DROP TABLE sc_typed');
    });
  }
  if (engine === 'sqlite') {
    test('on SQLite no statement may attach the metadata store or write another file', async () => {
      const meta = `${t.dataDir}/tablo.db`;
      for (const sql of [`ATTACH DATABASE '${meta}' AS m; SELECT name FROM m.sqlite_master`, `SELECT 1;\nattach '${meta}' as m`, `VACUUM INTO '${t.dataDir}/copy.db'`, 'DETACH m']) {
        const res = await run(sql);
        expect({ sql, status: res.status, body: res.body }).toEqual({ sql, status: 403, body: { msg: 'The SQL Client cannot attach, detach or write other database files' } });
      }
      expect((await run('SELECT 1 AS one')).status).toBe(200);
    });
  }

  test('saved queries per project and history per user, newest first', async () => {
    const saved = await op(owner, 'sqlQuerySave', { name: 'Items', sql: 'SELECT * FROM sc_items' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ name: 'Items', sql: 'SELECT * FROM sc_items' });
    expect((await op(tokens.creator!, 'sqlQuerySave', { name: 'Items', sql: 'SELECT 1' })).status).toBe(409);
    const renamed = await op(tokens.creator!, 'sqlQuerySave', { id: saved.body.id, name: 'All items', sql: 'SELECT id FROM sc_items' });
    expect(renamed.status).toBe(200);
    const list = (await op(owner, 'sqlQueryList')).body.list;
    expect(list.map((q: { name: string; sql: string }) => [q.name, q.sql])).toEqual([['All items', 'SELECT id FROM sc_items']]);
    expect((await dashboardOp(t, tokens.outsider!, 'sqlQueryList', { project_id: otherProjectId })).body.list).toEqual([]);
    expect((await op(owner, 'sqlQueryDelete', { id: saved.body.id })).status).toBe(200);
    expect((await op(owner, 'sqlQueryDelete', { id: saved.body.id })).status).toBe(404);

    await run('SELECT 11 AS first_run');
    await run('SELECT 12 AS second_run');
    const history = (await op(owner, 'sqlHistoryList')).body.list;
    expect(history[0].sql).toBe('SELECT 12 AS second_run');
    expect(history[1].sql).toBe('SELECT 11 AS first_run');
    expect(history[0]).toMatchObject({ status: 'ok', statements: 1 });
    // Another user's history is their own.
    const creatorHistory = (await op(tokens.creator!, 'sqlHistoryList')).body.list;
    expect(creatorHistory.map((h: { sql: string }) => h.sql)).toEqual(['SELECT 5 AS five']);
    expect((await op(owner, 'sqlHistoryClear')).status).toBe(200);
    expect((await op(owner, 'sqlHistoryList')).body.list).toEqual([]);
  });

  test('each API token has a history of its own, and reads only the rows of its own runs', async () => {
    const token = async (description: string) => (await op(owner, 'xcApiTokenCreate', { description, role: 'owner' })).body.token as string;
    const [a, b] = [await token('history a'), await token('history b')];
    const byToken = (tok: string, api: string, args?: unknown) => dashboardOp(t, null, api, { project_id: projectId, args, headers: { 'xc-token': tok } });
    expect((await byToken(a, 'rawSqlRun', { sql: 'SELECT 21 AS by_token_a', runId: newRunId() })).status).toBe(200);
    expect((await byToken(b, 'rawSqlRun', { sql: 'SELECT 22 AS by_token_b', runId: newRunId() })).status).toBe(200);
    const sqls = async (tok: string) => (await byToken(tok, 'sqlHistoryList')).body.list.map((h: { sql: string }) => h.sql);
    expect(await sqls(a)).toEqual(['SELECT 21 AS by_token_a']);
    expect(await sqls(b)).toEqual(['SELECT 22 AS by_token_b']);
    expect((await byToken(a, 'sqlHistoryClear')).status).toBe(200);
    expect(await sqls(b)).toEqual(['SELECT 22 AS by_token_b']);
    // A result kept for token a's run is not token b's to read.
    const digits = `(${Array.from({ length: 10 }, (_, d) => `SELECT ${d} AS d`).join(' UNION ALL ')})`;
    const many = `SELECT a.d * 100 + b.d * 10 + c.d AS n FROM ${digits} a CROSS JOIN ${digits} b CROSS JOIN ${digits} c`;
    const kept = (await byToken(a, 'rawSqlRun', { sql: many, runId: newRunId() })).body.results[0];
    expect(kept.resultId).toBeString();
    expect((await byToken(b, 'rawSqlRows', { resultId: kept.resultId, offset: 500, limit: 10 })).status).toBe(404);
    expect((await byToken(a, 'rawSqlRows', { resultId: kept.resultId, offset: 500, limit: 10 })).status).toBe(200);
  });

  test('a creator cancels only the statements they started; owners and the Super Admin any', async () => {
    const slow = engine === 'pg' ? 'SELECT pg_sleep(30)' : engine === 'mysql' ? 'SELECT SLEEP(30)' : 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
    /** Starts a slow run as `starter`; answers once `canceller`'s cancel finds it (anything but 404). */
    const startSlow = async (starter: string, canceller: string) => {
      const runId = newRunId();
      const pending = op(starter, 'rawSqlRun', { sql: slow, runId, timeoutMs: 60_000 });
      let cancel = await op(canceller, 'rawSqlCancel', { runId });
      for (let i = 0; i < 400 && cancel.status === 404; i++) {
        await Bun.sleep(25);
        cancel = await op(canceller, 'rawSqlCancel', { runId });
      }
      return { runId, pending, cancel };
    };
    // Another creator's run, or an owner's, or the Super Admin's: refused, and the statement goes on running.
    const refused = async (starter: string, canceller: string) => {
      const { runId, pending, cancel } = await startSlow(starter, canceller);
      expect(cancel.status).toBe(403);
      expect(cancel.body).toEqual({ msg: 'Creators can cancel only the statements they started' });
      expect((await op(starter, 'rawSqlCancel', { runId })).status).toBe(200);
      expect((await pending).body.results[0].error.kind).toBe('cancelled');
    };
    const cancelledBy = async (starter: string, canceller: string) => {
      const { pending, cancel } = await startSlow(starter, canceller);
      expect(cancel.status).toBe(200);
      expect((await pending).body.results[0].error.kind).toBe('cancelled');
    };
    for (const starter of [tokens.creator2!, tokens.owner!, owner]) await refused(starter, tokens.creator!);
    await cancelledBy(tokens.creator!, tokens.creator!);
    await cancelledBy(tokens.creator!, tokens.owner!);
    await cancelledBy(tokens.creator2!, owner);
  }, 60_000);
});
