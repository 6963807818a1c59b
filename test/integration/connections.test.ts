/**
 * Editing connections and environments: Update & Restart tests the new connection first and keeps
 * the old one on failure; an empty password keeps the stored one; a project whose database went
 * away answers 503 and is edited back to a working connection; environments are added and removed
 * (never the active one); only owners and creators edit. SSL usage Preferred falls back to plain text
 * against a server without SSL; Required against one says so.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { MY, PG, dbName, describeEngines, dropDatabase, freshDatabase, runScript } from '../helpers/engines';
import mysql from 'mysql2/promise';
import postgres from 'postgres';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => t.close());

describeEngines(
  'connections and environments',
  () => {
    const a = 'tablo_t_conn_a';
    const b = 'tablo_t_conn_b';
    let pid = '';
    let proxy: TcpProxy;
    const op = (api: string, args: unknown = {}, headers: Record<string, string> = {}) => dashboardOp(t, token, api, { project_id: pid, args, headers });
    const names = async () => (await t.request('GET', `/nc/${pid}/api/v1/Thing`, { headers: { 'xc-auth': token } })).body;
    const conn = (database: string, port = PG.port, password = 'secret-pw') => ({ client: 'pg', connection: { host: PG.host, port, user: PG.user, password, database } });

    beforeAll(async () => {
      for (const [db, v] of [[a, 'from a'], [b, 'from b']] as const) {
        await freshDatabase('pg', db);
        await runScript('pg', db, `CREATE TABLE thing (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO thing VALUES (1, '${v}');`);
      }
      proxy = startTcpProxy(PG.host, PG.port);
      pid = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Connections', db: conn(dbName(a), proxy.port) } })).body.id;
    });
    afterAll(async () => {
      proxy.down();
      await dropDatabase('pg', a);
      await dropDatabase('pg', b);
    });

    test('Update & Restart moves the project to the new connection; a failing one changes nothing', async () => {
      expect(await names()).toEqual([{ Id: 1, Name: 'from a' }]);
      const bad = await op('projectDbUpdate', { env: 'dev', dbAlias: 'db', db: conn('tablo_no_such_db') });
      expect(bad.status).toBe(400);
      expect(await names()).toEqual([{ Id: 1, Name: 'from a' }]);
      // An empty password keeps the stored one for the same server (host, port, user), not for another.
      const elsewhere = await op('projectDbUpdate', { env: 'dev', dbAlias: 'db', db: conn(dbName(b), PG.port, '') });
      expect(elsewhere.body).toEqual({ msg: 'Type the password again: the host, port or user changed' });
      expect(await names()).toEqual([{ Id: 1, Name: 'from a' }]);
      const ok = await op('projectDbUpdate', { env: 'dev', dbAlias: 'db', db: conn(dbName(b), proxy.port, '') });
      expect(ok.body).toEqual({ ok: true });
      expect(await names()).toEqual([{ Id: 1, Name: 'from b' }]);
      const envs = (await op('projectEnvList')).body;
      expect(envs.envs.dev.dbs[0].connection).toMatchObject({ database: dbName(b), hasPassword: true });
      expect(JSON.stringify(envs)).not.toContain('secret-pw');
    });

    test('a database that went away answers 503 and the connection can be edited back', async () => {
      expect((await op('projectDbUpdate', { env: 'dev', dbAlias: 'db', db: conn(dbName(a), proxy.port) })).status).toBe(200);
      proxy.down();
      await dashboardOp(t, token, 'projectRestart', { project_id: pid });
      const down = await t.request('GET', `/nc/${pid}/api/v1/Thing`, { headers: { 'xc-auth': token } });
      expect(down.status).toBe(503);
      expect((await op('projectEnvList')).status).toBe(200);
      const back = await op('projectDbUpdate', { env: 'dev', dbAlias: 'db', db: conn(dbName(a)) });
      expect(back.body).toEqual({ ok: true });
      expect(await names()).toEqual([{ Id: 1, Name: 'from a' }]);
    });

    test('environments: add one with a database, remove it; the active one stays', async () => {
      expect((await op('projectDbAdd', { env: 'staging', db: conn(dbName(b)) })).status).toBe(200);
      expect(Object.keys((await op('projectEnvList')).body.envs).sort()).toEqual(['dev', 'staging']);
      expect((await op('projectEnvRemove', { env: 'dev' })).status).toBe(400);
      expect((await op('projectEnvRemove', { env: 'staging' })).body).toEqual({ ok: true });
      expect(Object.keys((await op('projectEnvList')).body.envs)).toEqual(['dev']);
      expect((await op('projectEnvRemove', { env: 'staging' })).status).toBe(404);
    });

    test('only owners and creators edit connections', async () => {
      const res = await op('projectDbUpdate', { env: 'dev', dbAlias: 'db', db: conn(dbName(b)) }, { 'xc-preview': 'editor' });
      expect(res.status).toBe(403);
      expect(await names()).toEqual([{ Id: 1, Name: 'from a' }]);
    });
  },
  ['pg'],
);

describeEngines(
  'Test Database Connection while editing a stored connection',
  () => {
    const db = 'tablo_t_conn_pw';
    const user = dbName('tablo_t_conn_pw_user');
    const password = 'Stored-pw-123';
    let pid = '';
    const form = (pw = '') => ({ client: 'mysql', connection: { host: MY.host, port: MY.port, user, password: pw, database: dbName(db) } });
    const test_ = (args: Record<string, unknown>, headers: Record<string, string> = {}) => dashboardOp(t, token, 'testConnection', { project_id: pid, args, headers });

    beforeAll(async () => {
      await freshDatabase('mysql', db);
      const users = [`'${user}'@'%'`, `'${user}'@'localhost'`];
      await runScript('mysql', db, users.map((u) => `DROP USER IF EXISTS ${u}; CREATE USER ${u} IDENTIFIED BY '${password}'; GRANT ALL ON \`${dbName(db)}\`.* TO ${u};`).join('\n') + 'CREATE TABLE thing (id INT PRIMARY KEY);');
      pid = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Stored password', db: form(password) } })).body.id;
    });
    afterAll(async () => {
      await runScript('mysql', db, `DROP USER IF EXISTS '${user}'@'%'; DROP USER IF EXISTS '${user}'@'localhost';`);
      await dropDatabase('mysql', db);
    });

    test('the empty password field tests with the stored password, as Update & Restart saves with it', async () => {
      expect(pid).toMatch(/^stored_password_/);
      // A new connection with an empty password is tested as it is.
      const plain = await test_({ db: form() });
      expect(plain.body).toEqual({ msg: 'Invalid database credentials.', code: 'DB_BAD_CREDENTIALS' });
      // The form editing database db of dev: the stored password fills the empty field.
      expect((await test_({ db: form(), env: 'dev', dbAlias: 'db' })).body).toEqual({ ok: true });
      // A password typed in the form is the one tested.
      expect((await test_({ db: form('wrong-pw'), env: 'dev', dbAlias: 'db' })).status).toBe(400);
      expect((await test_({ db: form(), env: 'dev', dbAlias: 'db3' })).status).toBe(404);
      // Only owners and creators of the project borrow its stored password.
      expect((await test_({ db: form(), env: 'dev', dbAlias: 'db' }, { 'xc-preview': 'editor' })).status).toBe(403);
      expect((await dashboardOp(t, token, 'projectDbUpdate', { project_id: pid, args: { env: 'dev', dbAlias: 'db', db: form() } })).body).toEqual({ ok: true });
      // The stored password goes only to the server it was given for: another host, port or user needs it typed again.
      const moved = (connection: Record<string, unknown>) => ({ ...form(), client: 'mysql2', connection: { ...form().connection, ...connection } });
      for (const to of [{ host: 'localhost' }, { port: 3307 }, { user: 'root' }]) {
        expect((await test_({ db: moved(to), env: 'dev', dbAlias: 'db' })).body).toEqual({ msg: 'Type the password again: the host, port or user changed' });
        expect((await dashboardOp(t, token, 'projectDbUpdate', { project_id: pid, args: { env: 'dev', dbAlias: 'db', db: moved(to) } })).status).toBe(400);
      }
      // The same server written with its client's other name and the port left out is the same server.
      const { port: _port, ...noPort } = form().connection;
      expect((await test_({ db: { client: 'mysql2', connection: noPort }, env: 'dev', dbAlias: 'db' })).body).toEqual({ ok: true });
    });
  },
  ['mysql'],
);

test('SSL files that are not PEM answer 400 naming the file; the server keeps answering', async () => {
  const cases: [Record<string, string>, string][] = [
    [{ ca: 'not a pem' }, 'The server CA is not a usable PEM file'],
    [{ cert: 'not a pem', key: 'not a pem' }, 'The client cert is not a usable PEM file'],
  ];
  for (const [files, msg] of cases) {
    for (const [client, base] of [['pg', PG], ['mysql', MY]] as const) {
      const db = { client, connection: { host: base.host, port: base.port, user: base.user, database: 'postgres', ssl: { mode: 'Required-CA', ...files } } };
      const tested = await dashboardOp(t, token, 'testConnection', { args: db });
      expect({ client, files, status: tested.status, msg: String(tested.body.msg).split(':')[0] }).toEqual({ client, files, status: 400, msg });
      const created = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: `Bad SSL ${client}`, db } });
      expect(created.status).toBe(400);
    }
  }
  // A TLS failure outside the request would have ended the process: it still answers.
  expect((await dashboardOp(t, token, 'PROJECT_READ_BY_WEB')).status).toBe(200);
});

test('a port that takes the connection but never speaks PostgreSQL ends the test with the spec message, and nothing keeps connecting', async () => {
  let accepted = 0;
  // It reads the start-up message and hangs up, as a web server does with bytes it does not understand.
  const mute = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { open: () => void accepted++, data: (s) => void s.end() } });
  try {
    const started = performance.now();
    const res = await dashboardOp(t, token, 'testConnection', { args: { client: 'pg', connection: { host: '127.0.0.1', port: mute.port, user: 'postgres', database: 'x' } } });
    expect(res).toMatchObject({ status: 400, body: { msg: 'Unable to connect to database, please check your database is up.' } });
    expect(performance.now() - started).toBeLessThan(15_000);
    // The driver was closed: no new connection attempts once it is over.
    await Bun.sleep(3_000);
    const after = accepted;
    await Bun.sleep(3_000);
    expect(accepted).toBe(after);
  } finally {
    mute.stop(true);
  }
}, 40_000);

describeEngines(
  'SSL usage Preferred against a server without SSL',
  () => {
    const db = 'tablo_t_conn_ssl_pref';
    beforeAll(async () => {
      await freshDatabase('mysql', db);
      await runScript('mysql', db, "CREATE TABLE thing (id INT PRIMARY KEY, name VARCHAR(20)); INSERT INTO thing VALUES (1, 'plain');");
    });
    afterAll(async () => dropDatabase('mysql', db));

    test('connects in plain text, as mysql --ssl-mode=PREFERRED does: Test, the grid and the SQL client', async () => {
      const admin = await mysql.createConnection(MY);
      const [[row]] = (await admin.query("SHOW VARIABLES LIKE 'have_ssl'")) as unknown as [[{ Value: string }]];
      await admin.end();
      // The local test server has no SSL; against one that has it this proves nothing.
      if (row?.Value === 'YES') return console.log('skipped: the MariaDB test server has SSL');
      const form = { client: 'mysql', connection: { host: MY.host, port: MY.port, user: MY.user, database: dbName(db), ssl: { mode: 'Preferred' } } };
      expect((await dashboardOp(t, token, 'testConnection', { args: form })).body).toEqual({ ok: true });
      const pid = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Preferred SSL', db: form } })).body.id;
      const rows = await t.request('GET', `/nc/${pid}/api/v1/Thing`, { headers: { 'xc-auth': token } });
      expect(rows.body).toEqual([{ Id: 1, Name: 'plain' }]);
      const ran = await dashboardOp(t, token, 'rawSqlRun', { project_id: pid, args: { sql: 'SELECT name FROM thing', runId: `run_${Date.now().toString(36)}` } });
      expect(ran.body.results?.[0]?.rows).toEqual([['plain']]);
      // Required still refuses a server without SSL.
      const required = await dashboardOp(t, token, 'testConnection', { args: { ...form, connection: { ...form.connection, ssl: { mode: 'Required' } } } });
      expect(required.status).toBe(400);
    });
  },
  ['mysql'],
);

test('SSL usage Required against a server without SSL says the server does not accept SSL, not that it is down', async () => {
  const noSsl = { msg: 'The database server does not accept SSL connections: set SSL usage to No or Preferred.', code: 'DB_NO_SSL' };
  const pg = postgres({ ...PG, database: 'postgres', max: 1, onnotice: () => {} });
  const [{ ssl }] = (await pg`SHOW ssl`) as unknown as [{ ssl: string }];
  await pg.end();
  const my = await mysql.createConnection(MY);
  const [[haveSsl]] = (await my.query("SHOW VARIABLES LIKE 'have_ssl'")) as unknown as [[{ Value: string }]];
  await my.end();
  for (const [client, base, database, hasSsl] of [['pg', PG, 'postgres', ssl === 'on'], ['mysql', MY, 'mysql', haveSsl?.Value === 'YES']] as const) {
    // The local test servers have no SSL; against one that has it this proves nothing.
    if (hasSsl) continue;
    const db = { client, connection: { host: base.host, port: base.port, user: base.user, database, ssl: { mode: 'Required' } } };
    const tested = await dashboardOp(t, token, 'testConnection', { args: db });
    expect({ client, status: tested.status, body: tested.body }).toEqual({ client, status: 400, body: noSsl });
  }
});
