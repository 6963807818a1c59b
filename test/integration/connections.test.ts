/**
 * Editing connections and environments: Update & Restart tests the new connection first and keeps
 * the old one on failure; an empty password keeps the stored one; a project whose database went
 * away answers 503 and is edited back to a working connection; environments are added and removed
 * (never the active one); only owners and creators edit.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { MY, PG, dbName, describeEngines, dropDatabase, freshDatabase, runScript } from '../helpers/engines';
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
