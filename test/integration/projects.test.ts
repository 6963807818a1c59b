/**
 * Projects over real databases through the dashboard operations: create (embedded and external),
 * list, object lists, environments, stop/start/restart/delete, schema sync, connection errors,
 * encryption at rest, a database that goes away and comes back, and one dropped on its server.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import mysql from 'mysql2/promise';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { dbName, describeEngines, dropDatabase, freshDatabase, loadChinook, runScript } from '../helpers/engines';
import { startTcpProxy } from '../helpers/tcp-proxy';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => {
  await t.close();
});

describe('embedded projects', () => {
  test('a new project on an embedded SQLite database starts empty and is listed', async () => {
    const res = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Sales Data', projectType: 'rest' } });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('Sales Data');
    expect(res.body.id).toMatch(/^sales_data_[a-z0-9]{4}$/);
    expect(existsSync(join(t.dataDir, 'xcdb', `${res.body.id}.db`))).toBe(true);

    const list = await dashboardOp(t, token, 'PROJECT_READ_BY_WEB');
    expect(list.body.data.list).toContainEqual(expect.objectContaining({ id: res.body.id, title: 'Sales Data', status: 'started', projectType: 'rest' }));

    for (const api of ['tableList', 'viewList', 'functionList', 'procedureList', 'sequenceList']) {
      const r = await dashboardOp(t, token, api, { project_id: res.body.id });
      expect(r.status).toBe(200);
      expect(r.body.data.list).toEqual([]);
    }
  });

  test('bad input answers a clear {msg}', async () => {
    expect((await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: '' } })).body.msg).toContain('Project name is required');
    const dup = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'sales data' } });
    expect(dup.status).toBe(409);
    const sqliteOutside = await dashboardOp(t, token, 'projectCreateByWeb', {
      args: { title: 'Outside', db: { client: 'sqlite', connection: { filename: '/etc/passwd' } } },
    });
    expect(sqliteOutside.status).toBe(400);
    expect(sqliteOutside.body.msg).toContain('inside the data directory');
    const badChars = await dashboardOp(t, token, 'testConnection', { args: { client: 'sqlite', connection: { filename: 'a|b.db' } } });
    expect(badChars.body).toEqual({ msg: 'Invalid character in folder path.' });
    expect((await dashboardOp(t, token, 'noSuchOperation')).status).toBe(404);
    // An envelope whose URL and body name two operations ran the body's (a projectDelete sent as sqlOp_tableList).
    const other = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Kept' } })).body.id as string;
    const mixed = await t.request('POST', '/dashboard?q=sqlOp_tableList', { body: { api: 'projectDelete', project_id: other }, headers: { 'xc-gui': 'true', 'xc-auth': token } });
    expect(mixed.status).toBe(400);
    expect(mixed.body).toEqual({ msg: "The operation named in the URL ('tableList') and in the body ('projectDelete') differ" });
    expect((await dashboardOp(t, token, 'tableList', { project_id: other })).status).toBe(200);
    expect((await dashboardOp(t, null, 'PROJECT_READ_BY_WEB')).status).toBe(401);
    expect((await dashboardOp(t, token, 'tableList', { project_id: 'nope_0000' })).status).toBe(404);
  });

  test('stop answers 503, start and restart bring it back, delete keeps the file unless asked', async () => {
    const { body } = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Lifecycle' } });
    const id = body.id;
    expect((await dashboardOp(t, token, 'projectStop', { project_id: id })).body).toEqual({ ok: true });
    const stopped = await dashboardOp(t, token, 'tableList', { project_id: id });
    expect(stopped.status).toBe(503);
    expect(stopped.body.msg).toContain('stopped');
    expect((await dashboardOp(t, token, 'projectStart', { project_id: id })).body).toEqual({ ok: true });
    expect((await dashboardOp(t, token, 'tableList', { project_id: id })).status).toBe(200);
    expect((await dashboardOp(t, token, 'projectRestart', { project_id: id })).body).toEqual({ ok: true });
    const file = join(t.dataDir, 'xcdb', `${id}.db`);
    expect((await dashboardOp(t, token, 'projectDelete', { project_id: id })).body).toEqual({ ok: true });
    expect((await dashboardOp(t, token, 'tableList', { project_id: id })).status).toBe(404);
    expect(existsSync(file)).toBe(true);

    const second = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Lifecycle 2' } })).body.id;
    await dashboardOp(t, token, 'projectDelete', { project_id: second, args: { deleteFile: true } });
    expect(existsSync(join(t.dataDir, 'xcdb', `${second}.db`))).toBe(false);
  });

  test('a database added after one was removed takes the first free alias instead of one in use', async () => {
    const id = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Aliases' } })).body.id;
    const db = { client: 'sqlite', connection: { filename: 'aliases-extra.db' }, createIfNotExists: true };
    const add = () => dashboardOp(t, token, 'projectDbAdd', { project_id: id, args: { env: 'dev', db } });
    expect((await add()).body).toEqual({ env: 'dev', dbAlias: 'db2' });
    expect((await add()).body).toEqual({ env: 'dev', dbAlias: 'db3' });
    expect((await dashboardOp(t, token, 'projectDbRemove', { project_id: id, args: { env: 'dev', dbAlias: 'db2' } })).body).toEqual({ ok: true });
    expect(await add()).toMatchObject({ status: 200, body: { env: 'dev', dbAlias: 'db2' } });
    expect((await add()).body).toEqual({ env: 'dev', dbAlias: 'db4' });
    await dashboardOp(t, token, 'projectDelete', { project_id: id, args: { deleteFile: true } });
  });

  test('a connected SQLite file that went away answers 503 naming it, is not made again empty, and works once back', async () => {
    const file = join(t.dataDir, 'moved-away.sqlite');
    const { Database } = await import('bun:sqlite');
    const seed = new Database(file, { create: true });
    seed.run('CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT)');
    seed.run("INSERT INTO note (body) VALUES ('kept')");
    seed.close();
    const id = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Moved away', db: { client: 'sqlite', connection: { filename: 'moved-away.sqlite' } } } })).body.id;
    renameSync(file, `${file}.bak`);
    const restart = await dashboardOp(t, token, 'projectRestart', { project_id: id });
    expect(restart).toMatchObject({ status: 503, body: { msg: `The SQLite file '${file}' does not exist` } });
    expect(existsSync(file)).toBe(false);
    expect((await dashboardOp(t, token, 'tableList', { project_id: id })).status).toBe(503);
    renameSync(`${file}.bak`, file);
    expect((await dashboardOp(t, token, 'projectStart', { project_id: id })).body).toEqual({ ok: true });
    const rows = await t.request('GET', `/nc/${id}/api/v1/Note`, { headers: { 'xc-auth': token } });
    expect(rows.body).toEqual([{ Id: 1, Body: 'kept' }]);
    await dashboardOp(t, token, 'projectDelete', { project_id: id });
  });

  test('switching to an environment whose database cannot be opened answers why and stays on the current one', async () => {
    const id = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Env switch' } })).body.id;
    const file = join(t.dataDir, 'env-switch-prod.sqlite');
    const add = await dashboardOp(t, token, 'projectDbAdd', { project_id: id, args: { env: 'prod', db: { client: 'sqlite', connection: { filename: file }, createIfNotExists: true } } });
    expect(add.status).toBe(200);
    renameSync(file, `${file}.gone`);
    const change = await dashboardOp(t, token, 'projectChangeEnv', { project_id: id, args: { env: 'prod' } });
    expect(change).toMatchObject({ status: 503, body: { msg: `The SQLite file '${file}' does not exist` } });
    expect((await dashboardOp(t, token, 'projectEnvList', { project_id: id })).body.workingEnv).toBe('dev');
    expect((await dashboardOp(t, token, 'tableList', { project_id: id })).status).toBe(200);
    renameSync(`${file}.gone`, file);
    expect((await dashboardOp(t, token, 'projectChangeEnv', { project_id: id, args: { env: 'prod' } })).body).toEqual({ ok: true, env: 'prod' });
    expect((await dashboardOp(t, token, 'projectEnvList', { project_id: id })).body.workingEnv).toBe('prod');
    await dashboardOp(t, token, 'projectDelete', { project_id: id, args: { deleteFile: true } });
  });

  test('another user neither sees nor operates someone else’s project', async () => {
    const other = await makeTestApp({ allowSignup: true });
    try {
      const admin = (await signupSuperAdmin(other)).token;
      const { body } = await dashboardOp(other, admin, 'projectCreateByWeb', { args: { title: 'Private' } });
      const signup = await other.request('POST', '/auth/signup', { body: { email: 'second@example.com', password: 'password123' } });
      expect(signup.status).toBe(200);
      const second = signup.body.token as string;
      expect((await dashboardOp(other, second, 'PROJECT_READ_BY_WEB')).body.data.list).toEqual([]);
      const denied = await dashboardOp(other, second, 'tableList', { project_id: body.id });
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ msg: 'Not allowed', code: 'NOT_ALLOWED' });
      expect((await dashboardOp(other, second, 'projectDelete', { project_id: body.id })).status).toBe(403);
    } finally {
      await other.close();
    }
  });
});

const DB = (engine: string) => `tablo_t_projects_${engine}`;

describeEngines('projects over external databases', (engine) => {
  let projectId: string;
  let connection: any;

  beforeAll(async () => {
    const cfg = await loadChinook(engine, DB(engine));
    connection = cfg.connection;
    if (engine === 'sqlite') {
      // External SQLite files must live in the data directory (or an allowed folder).
      const target = join(t.dataDir, 'chinook-copy.sqlite');
      await Bun.write(target, Bun.file(cfg.connection.filename!));
      connection = { filename: 'chinook-copy.sqlite' };
    }
    const res = await dashboardOp(t, token, 'projectCreateByWeb', {
      args: { title: `Chinook ${engine}`, projectType: 'rest', db: { client: engine, connection } },
    });
    expect(res.status).toBe(200);
    projectId = res.body.id;
  });

  test('lists tables with aliases by inflection and hides junction tables unless asked', async () => {
    const res = await dashboardOp(t, token, 'tableList', { project_id: projectId });
    const aliases = res.body.data.list.map((x: any) => x._tn).sort();
    expect(aliases).toEqual(['Album', 'Artist', 'Customer', 'Employee', 'Genre', 'Invoice', 'InvoiceLine', 'MediaType', 'Playlist', 'Track']);
    const withM2M = await dashboardOp(t, token, 'tableList', { project_id: projectId, args: { includeM2M: true } });
    expect(withM2M.body.data.list.map((x: any) => x._tn)).toContain('PlaylistTrack');
  });

  test('connection passwords are encrypted at rest and never returned', async () => {
    const row = await t.app.ctx.meta.get<{ connection_enc: string }>('SELECT connection_enc FROM nc_project_dbs WHERE project_id = ?', [projectId]);
    expect(row!.connection_enc.startsWith('v1:')).toBe(true);
    expect(row!.connection_enc).not.toContain(String(connection.database ?? connection.filename));
    const envs = await dashboardOp(t, token, 'projectEnvList', { project_id: projectId });
    expect(envs.body.workingEnv).toBe('dev');
    expect(JSON.stringify(envs.body)).not.toContain('"password"');
    expect(envs.body.envs.dev.active).toBe(true);
  });

  test('metaSync reflects tables and columns changed outside Tablo', async () => {
    const exec = await rawExecutor(engine, connection, t.dataDir);
    try {
      await exec('CREATE TABLE tablo_sync_probe (id INTEGER PRIMARY KEY, label VARCHAR(20))');
      const first = await dashboardOp(t, token, 'metaSync', { project_id: projectId });
      expect(first.status).toBe(200);
      expect(first.body.added).toEqual(['tablo_sync_probe']);
      await exec('ALTER TABLE tablo_sync_probe ADD COLUMN extra INTEGER');
      const second = await dashboardOp(t, token, 'metaSync', { project_id: projectId });
      expect(second.body.changed).toEqual([{ tn: 'tablo_sync_probe', addedColumns: ['extra'], removedColumns: [], changedColumns: [] }]);
      const tables = await dashboardOp(t, token, 'tableList', { project_id: projectId });
      expect(tables.body.data.list.map((x: any) => x.tn)).toContain('tablo_sync_probe');
      await exec('DROP TABLE tablo_sync_probe');
      const third = await dashboardOp(t, token, 'metaSync', { project_id: projectId });
      expect(third.body.removed).toEqual(['tablo_sync_probe']);
    } finally {
      await exec('DROP TABLE IF EXISTS tablo_sync_probe').catch(() => {});
      await exec.close();
    }
  });

  test('display names survive a schema sync; the API answers by the new alias', async () => {
    const renamed = await dashboardOp(t, token, 'modelUpdate', { project_id: projectId, args: { tn: 'Artist', _tn: 'Performer', columns: { Name: { _cn: 'StageName' } } } });
    expect(renamed.status).toBe(200);
    expect(renamed.body._tn).toBe('Performer');
    const exec = await rawExecutor(engine, connection, t.dataDir);
    try {
      await exec('CREATE TABLE tablo_meta_probe (id INTEGER PRIMARY KEY)');
      const sync = await dashboardOp(t, token, 'metaSync', { project_id: projectId });
      expect(sync.body.added).toEqual(['tablo_meta_probe']);
      const tables = await dashboardOp(t, token, 'tableList', { project_id: projectId });
      expect(tables.body.data.list.map((x: any) => x._tn)).toContain('Performer');
      const row = await t.request('GET', `/nc/${projectId}/api/v1/Performer/1`, { headers: { 'xc-auth': token } });
      expect(row.body).toEqual({ ArtistId: 1, StageName: 'AC/DC' });
      const dup = await dashboardOp(t, token, 'modelUpdate', { project_id: projectId, args: { tn: 'Album', _tn: 'Performer' } });
      expect(dup.status).toBe(400);
    } finally {
      await exec('DROP TABLE IF EXISTS tablo_meta_probe');
      await exec.close();
      await dashboardOp(t, token, 'modelUpdate', { project_id: projectId, args: { tn: 'Artist', _tn: 'Artist', columns: { Name: { _cn: 'Name' } } } });
    }
  });

  // covered by the pg/mysql runs; sqlite needs a second file
  if (engine !== 'sqlite') test('environments: add a database to a new environment and switch to it', async () => {
    const other = await freshDatabase(engine, `${DB(engine)}_env2`);
    try {
      const add = await dashboardOp(t, token, 'projectDbAdd', { project_id: projectId, args: { env: 'test', db: { client: engine, connection: other.connection } } });
      expect(add.body).toEqual({ env: 'test', dbAlias: 'db' });
      const change = await dashboardOp(t, token, 'projectChangeEnv', { project_id: projectId, args: { env: 'test' } });
      expect(change.body).toEqual({ ok: true, env: 'test' });
      expect((await dashboardOp(t, token, 'tableList', { project_id: projectId })).body.data.list).toEqual([]);
      await dashboardOp(t, token, 'projectChangeEnv', { project_id: projectId, args: { env: 'dev' } });
      expect((await dashboardOp(t, token, 'tableList', { project_id: projectId })).body.data.list.length).toBe(10);
      expect((await dashboardOp(t, token, 'projectChangeEnv', { project_id: projectId, args: { env: 'nope' } })).status).toBe(404);
    } finally {
      await dashboardOp(t, token, 'projectChangeEnv', { project_id: projectId, args: { env: 'dev' } });
      await dashboardOp(t, token, 'projectDbRemove', { project_id: projectId, args: { env: 'test', dbAlias: 'db' } });
      await dropDatabase(engine, `${DB(engine)}_env2`);
    }
  });

  if (engine !== 'sqlite') test('wrong credentials and a closed port give the spec’s messages', async () => {
    // A wrong password, or none at all (MariaDB refuses that with another code).
    for (const password of ['wrong', '']) {
      const bad = await dashboardOp(t, token, 'testConnection', {
        args: { client: engine, connection: { ...connection, user: 'tablo_no_such_user', password } },
      });
      expect({ password, status: bad.status, msg: bad.body.msg }).toEqual({ password, status: 400, msg: 'Invalid database credentials.' });
    }
    const closed = await dashboardOp(t, token, 'testConnection', { args: { client: engine, connection: { ...connection, port: 1 } } });
    expect(closed.status).toBe(400);
    expect(closed.body.msg).toBe('Unable to connect to database, please check your database is up.');
  });

  test("with 'create database if not exists' a missing database tests as its server (nothing created); saving creates it", async () => {
    const name = `${DB(engine)}_tomake`;
    await dropDatabase(engine, name);
    const db = engine === 'sqlite' ? { client: 'sqlite', connection: { filename: `${name}.sqlite` } } : { client: engine, connection: { ...connection, database: dbName(name) } };
    try {
      const without = await dashboardOp(t, token, 'testConnection', { args: db });
      expect(without.status).toBe(400);
      expect(without.body.msg).toMatch(/does not exist/);
      const tested = await dashboardOp(t, token, 'testConnection', { args: { ...db, createIfNotExists: true } });
      expect({ status: tested.status, body: tested.body }).toEqual({ status: 200, body: { ok: true } });
      // The test created nothing: without the switch it is still missing.
      expect((await dashboardOp(t, token, 'testConnection', { args: db })).status).toBe(400);
      if (engine !== 'sqlite') {
        const wrong = await dashboardOp(t, token, 'testConnection', { args: { ...db, connection: { ...db.connection, user: 'tablo_no_such_user', password: 'wrong' }, createIfNotExists: true } });
        expect(wrong.body.msg).toBe('Invalid database credentials.');
      }
      const made = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: `Made ${engine}`, db: { ...db, createIfNotExists: true } } });
      expect(made.status).toBe(200);
      expect((await dashboardOp(t, token, 'testConnection', { args: db })).body).toEqual({ ok: true });
      await dashboardOp(t, token, 'projectDelete', { project_id: made.body.id });
    } finally {
      if (engine !== 'sqlite') await dropDatabase(engine, name);
    }
  });

  if (engine !== 'sqlite') test('a database that goes away answers 503 quickly and works again when it comes back', async () => {
    const proxy = startTcpProxy('127.0.0.1', Number(connection.port ?? (engine === 'pg' ? 5432 : 3306)));
    try {
      const res = await dashboardOp(t, token, 'projectCreateByWeb', {
        args: { title: `Flaky ${engine}`, db: { client: engine, connection: { ...connection, host: '127.0.0.1', port: proxy.port } } },
      });
      expect(res.status).toBe(200);
      const id = res.body.id;
      expect((await dashboardOp(t, token, 'metaSync', { project_id: id })).status).toBe(200);
      proxy.down();
      const started = performance.now();
      const down = await dashboardOp(t, token, 'metaSync', { project_id: id });
      expect(down.status).toBe(503);
      expect(down.body.msg).toBe('Unable to connect to database, please check your database is up.');
      expect(performance.now() - started).toBeLessThan(8000);
      proxy.up();
      let back = await dashboardOp(t, token, 'metaSync', { project_id: id });
      for (let i = 0; i < 10 && back.status !== 200; i++) {
        await Bun.sleep(300);
        back = await dashboardOp(t, token, 'metaSync', { project_id: id });
      }
      expect(back.status).toBe(200);
      await dashboardOp(t, token, 'projectDelete', { project_id: id });
    } finally {
      proxy.down();
    }
  }, 30_000);

  if (engine !== 'sqlite') test('a database dropped on its server answers 503 naming it, as a missing SQLite file does, and works once made again', async () => {
    const name = 'tablo_qa_e_dropped';
    const cfg = await freshDatabase(engine, name);
    const make = () => runScript(engine, name, "CREATE TABLE thing (id INTEGER PRIMARY KEY, name VARCHAR(20)); INSERT INTO thing VALUES (1, 'here');");
    await make();
    const id = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: `Dropped ${engine}`, db: cfg } })).body.id;
    const read = () => t.request('GET', `/nc/${id}/api/v1/Thing`, { headers: { 'xc-auth': token } });
    try {
      expect((await read()).body).toEqual([{ Id: 1, Name: 'here' }]);
      await dropDatabase(engine, name);
      const gone = { msg: `The database '${dbName(name)}' does not exist` };
      // Connections opened before the drop, then new ones, then the project opened again.
      expect(await read()).toMatchObject({ status: 503, body: gone });
      expect(await read()).toMatchObject({ status: 503, body: gone });
      expect(await dashboardOp(t, token, 'projectRestart', { project_id: id })).toMatchObject({ status: 503, body: gone });
      await freshDatabase(engine, name);
      await make();
      expect((await dashboardOp(t, token, 'projectStart', { project_id: id })).body).toEqual({ ok: true });
      expect((await read()).body).toEqual([{ Id: 1, Name: 'here' }]);
    } finally {
      await dashboardOp(t, token, 'projectDelete', { project_id: id });
      await dropDatabase(engine, name);
    }
  });

  test('deleting the project keeps the external database', async () => {
    expect((await dashboardOp(t, token, 'projectDelete', { project_id: projectId })).body).toEqual({ ok: true });
    const exec = await rawExecutor(engine, connection, t.dataDir);
    try {
      const rows = await exec.rows(engine === 'pg' ? 'SELECT count(*)::int AS n FROM artist' : 'SELECT count(*) AS n FROM Artist');
      expect(Number(rows[0].n)).toBe(275);
    } finally {
      await exec.close();
    }
  });
});

/** A direct connection to the test database, to change its schema "outside Tablo". */
async function rawExecutor(engine: string, connection: any, dataDir: string) {
  if (engine === 'pg') {
    const sql = postgres({ host: connection.host, port: connection.port, user: connection.user, password: connection.password, database: connection.database, max: 1, onnotice: () => {} });
    return Object.assign((text: string) => sql.unsafe(text).then(() => undefined), {
      rows: (text: string) => sql.unsafe(text) as Promise<any[]>,
      close: () => sql.end(),
    });
  }
  if (engine === 'mysql') {
    const conn = await mysql.createConnection({ host: connection.host, port: connection.port, user: connection.user, password: connection.password, database: connection.database });
    return Object.assign((text: string) => conn.query(text).then(() => undefined), {
      rows: async (text: string) => (await conn.query(text))[0] as any[],
      close: () => conn.end(),
    });
  }
  const { Database } = await import('bun:sqlite');
  const db = new Database(join(dataDir, connection.filename));
  return Object.assign(async (text: string) => void db.exec(text), {
    rows: async (text: string) => db.query(text).all() as any[],
    close: async () => db.close(),
  });
}
