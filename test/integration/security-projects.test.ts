/**
 * Security review, findings 2 and 3: who may create projects and connect databases, and which
 * files a SQLite project may open. An invited viewer may not create projects, test connections or
 * add databases (403 before any connection is tried: no port or credential oracle) until the Super
 * Admin allows it; NC_CONNECT_ALLOW narrows the host:port targets; a SQLite project never opens the
 * metadata database (nor its -wal/-shm/-journal, keys/, another project's embedded database, a
 * symbolic link to any of them, or a file that is not a database), at create, edit and start.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { copyFileSync, mkdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TCPSocketListener } from 'bun';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { connectionFor, describeEngines, dropDatabase, freshDatabase, PG, runScript, type TestEngine } from '../helpers/engines';
import { allowProjects, joinProject, LIBRARY_SQL } from '../helpers/security';

const xcAuth = (token: string) => ({ 'xc-auth': token });

/** A loopback listener that counts the connections made to it (a database server that is not one). */
function countingListener(): { port: number; count: () => number; stop: () => void } {
  let n = 0;
  const l: TCPSocketListener = Bun.listen({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      open(s) {
        n++;
        s.end();
      },
      data() {},
    },
  });
  return { port: l.port, count: () => n, stop: () => l.stop(true) };
}

describe('creating projects and connecting databases', () => {
  let t: TestApp;
  let admin = '';
  let viewer = '';
  let projectId = '';
  let probe: ReturnType<typeof countingListener>;

  beforeAll(async () => {
    probe = countingListener();
    t = await makeTestApp({ connectAllow: ['127.0.0.1:5432', '127.0.0.1:3306', 'localhost:*'] });
    admin = (await signupSuperAdmin(t)).token;
    projectId = (await dashboardOp(t, admin, 'projectCreateByWeb', { args: { title: 'Shared' } })).body.id;
    viewer = await joinProject(t, admin, projectId, 'viewer@example.com', 'viewer');
  }, 60_000);
  afterAll(async () => {
    probe.stop();
    await t.close();
  });

  test('an invited viewer may not create projects: 403, and nothing is created', async () => {
    const res = await dashboardOp(t, viewer, 'projectCreateByWeb', { args: { title: 'Mine', db: { client: 'sqlite', connection: { filename: 'tablo.db' } } } });
    expect(res.status).toBe(403);
    expect(res.body.msg).toContain('Super Admin');
    const embedded = await dashboardOp(t, viewer, 'projectCreateByWeb', { args: { title: 'Mine too' } });
    expect(embedded.status).toBe(403);
    const list = await dashboardOp(t, viewer, 'PROJECT_READ_BY_WEB');
    expect(list.body.data.list.map((p: { title: string }) => p.title)).toEqual(['Shared']);
  });

  test('testConnection answers 403 before any connection is tried (no port or credential oracle)', async () => {
    for (const client of ['pg', 'mysql']) {
      const res = await dashboardOp(t, viewer, 'testConnection', { args: { db: { client, connection: { host: '127.0.0.1', port: probe.port, user: 'root', password: 'guess', database: 'x' } } } });
      expect(res.status).toBe(403);
    }
    await Bun.sleep(50);
    expect(probe.count()).toBe(0);
  });

  test('adding a database to a project needs the same right (an owner without it is refused)', async () => {
    const owner = await joinProject(t, admin, projectId, 'owner@example.com', 'owner');
    const add = await dashboardOp(t, owner, 'projectDbAdd', { project_id: projectId, args: { env: 'test', db: { client: 'pg', connection: { host: '127.0.0.1', port: probe.port, database: 'x' } } } });
    expect(add.status).toBe(403);
    expect(probe.count()).toBe(0);
  });

  test('NC_CONNECT_ALLOW refuses other targets with 403 before connecting, even for the Super Admin', async () => {
    const res = await dashboardOp(t, admin, 'testConnection', { args: { db: { client: 'pg', connection: { host: '127.0.0.1', port: probe.port, database: 'x' } } } });
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe(`Connections to 127.0.0.1:${probe.port} are not allowed on this server (NC_CONNECT_ALLOW)`);
    const other = await dashboardOp(t, admin, 'projectCreateByWeb', { args: { title: 'Elsewhere', db: { client: 'mysql', connection: { host: '10.1.2.3', port: 3306, database: 'x' } } } });
    expect(other.status).toBe(403);
    await Bun.sleep(50);
    expect(probe.count()).toBe(0);
    // Allowed targets still connect.
    expect((await dashboardOp(t, admin, 'testConnection', { args: { db: { client: 'pg', connection: { ...PG, database: 'postgres' } } } })).status).toBe(200);
  });

  test('the Super Admin allows a user on the Users page; the right is off by default and can be taken back', async () => {
    const users = await t.request('GET', '/admin/users', { headers: xcAuth(admin) });
    expect(users.body.list.find((u: { email: string }) => u.email === 'viewer@example.com').mayCreateProjects).toBe(false);
    expect(users.body.list.find((u: { email: string }) => u.email === 'admin@example.com').mayCreateProjects).toBe(true);
    // Only the Super Admin grants it.
    const self = await t.request('PUT', `/admin/users/${users.body.list.find((u: { email: string }) => u.email === 'viewer@example.com').id}`, { headers: xcAuth(viewer), body: { mayCreateProjects: true } });
    expect(self.status).toBe(403);
    await allowProjects(t, admin, 'viewer@example.com');
    expect((await t.request('GET', '/user/me', { headers: xcAuth(viewer) })).body.mayCreateProjects).toBe(true);
    const made = await dashboardOp(t, viewer, 'projectCreateByWeb', { args: { title: 'Allowed' } });
    expect(made.status).toBe(200);
    await allowProjects(t, admin, 'viewer@example.com', false);
    expect((await dashboardOp(t, viewer, 'projectCreateByWeb', { args: { title: 'Not any more' } })).status).toBe(403);
  });
});

describe('SQLite project files stay in the projects area', () => {
  let t: TestApp;
  let admin = '';
  let source = '';

  beforeAll(async () => {
    t = await makeTestApp();
    admin = (await signupSuperAdmin(t)).token;
    const cfg = await freshDatabase('sqlite', 'tablo_t_sec_files');
    await runScript('sqlite', 'tablo_t_sec_files', LIBRARY_SQL);
    source = cfg.connection.filename!;
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await dropDatabase('sqlite', 'tablo_t_sec_files');
  });

  const create = (title: string, filename: string) => dashboardOp(t, admin, 'projectCreateByWeb', { args: { title, db: { client: 'sqlite', connection: { filename } } } });

  test("the metadata database, its companions, keys/ and another project's embedded database are refused (400)", async () => {
    const other = (await dashboardOp(t, admin, 'projectCreateByWeb', { args: { title: 'Embedded' } })).body.id;
    const names = ['tablo.db', './tablo.db', 'tablo.db-wal', 'tablo.db-shm', 'tablo.db-journal', 'keys/jwt-secret', `xcdb/${other}.db`, `sub/../tablo.db`, join(t.dataDir, 'tablo.db'), '../etc/passwd'];
    for (const name of names) {
      const res = await create(`Attack ${name}`, name);
      expect(res.status).toBe(400);
      expect(typeof res.body.msg).toBe('string');
    }
    // Nobody became Super Admin through raw SQL on the metadata store: no such project exists.
    const list = await dashboardOp(t, admin, 'PROJECT_READ_BY_WEB');
    expect(list.body.data.list.map((p: { title: string }) => p.title)).toEqual(['Embedded']);
    expect((await t.app.ctx.meta.all<{ email: string }>("SELECT email FROM nc_users WHERE roles LIKE '%super%'")).map((u) => u.email)).toEqual(['admin@example.com']);
  });

  test("a SQLite project's owner cannot ATTACH the metadata database (or other files) from the SQL Client", async () => {
    const own = (await dashboardOp(t, admin, 'projectCreateByWeb', { args: { title: 'Own' } })).body.id;
    const sqls = [`ATTACH DATABASE '${join(t.dataDir, 'tablo.db')}' AS meta`, "attach 'tablo.db' as m", `VACUUM INTO '${join(t.dataDir, 'copy.db')}'`, 'DETACH DATABASE meta'];
    for (const sql of sqls) {
      const res = await dashboardOp(t, admin, 'rawSql', { project_id: own, args: { sql } });
      expect(res.status).toBe(403);
    }
    const read = await dashboardOp(t, admin, 'rawSql', { project_id: own, args: { sql: 'SELECT email, roles FROM meta.nc_users' } });
    expect(read.status).toBe(400);
    expect(read.text).not.toContain('super');
    expect((await dashboardOp(t, admin, 'rawSql', { project_id: own, args: { sql: 'SELECT 1 AS one' } })).body.rows).toEqual([{ one: 1 }]);
  });

  test('a symbolic link to the metadata database (of the file or a folder) is refused by its real path', async () => {
    symlinkSync(join(t.dataDir, 'tablo.db'), join(t.dataDir, 'innocent.sqlite'));
    mkdirSync(join(t.dataDir, 'links'));
    symlinkSync(t.dataDir, join(t.dataDir, 'links', 'up'));
    expect((await create('Link', 'innocent.sqlite')).status).toBe(400);
    expect((await create('Folder link', 'links/up/tablo.db')).status).toBe(400);
    expect((await create('Keys link', 'links/up/keys/connection-key')).status).toBe(400);
  });

  test('a data-dir file that is not a database answers 400', async () => {
    writeFileSync(join(t.dataDir, 'notes.txt'), 'this is not a database, just some text for the test');
    const res = await create('Text', 'notes.txt');
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe("'notes.txt' is not a SQLite database file");
    mkdirSync(join(t.dataDir, 'folder.sqlite'));
    expect((await create('Folder', 'folder.sqlite')).status).toBe(400);
  });

  test('a real database file in the data directory works; swapped for a link to the metadata store, it is refused at start', async () => {
    copyFileSync(source, join(t.dataDir, 'library.sqlite'));
    const made = await create('Library', 'library.sqlite');
    expect(made.status).toBe(200);
    expect((await t.request('GET', `/nc/${made.body.id}/api/v1/Note`, { headers: xcAuth(admin) })).body.length).toBe(2);
    expect((await dashboardOp(t, admin, 'projectStop', { project_id: made.body.id })).status).toBe(200);
    unlinkSync(join(t.dataDir, 'library.sqlite'));
    symlinkSync(join(t.dataDir, 'tablo.db'), join(t.dataDir, 'library.sqlite'));
    const start = await dashboardOp(t, admin, 'projectStart', { project_id: made.body.id });
    expect(start.status).toBe(400);
    // Editing the project's databases is checked the same way.
    const add = await dashboardOp(t, admin, 'projectDbAdd', { project_id: made.body.id, args: { env: 'test', db: { client: 'sqlite', connection: { filename: 'tablo.db-wal' } } } });
    expect(add.status).toBe(400);
  });
});

describeEngines('a user the Super Admin allowed connects a server database', (engine: TestEngine) => {
  const name = `tablo_t_sec_connect_${engine}`;
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
    await freshDatabase(engine, name);
    await runScript(engine, name, LIBRARY_SQL);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await dropDatabase(engine, name);
  });

  test('refused (403) before the right, connected after it', async () => {
    const admin = (await signupSuperAdmin(t)).token;
    const home = (await dashboardOp(t, admin, 'projectCreateByWeb', { args: { title: 'Home' } })).body.id;
    const user = await joinProject(t, admin, home, 'maker@example.com', 'editor');
    let connection = connectionFor(engine, name).connection as Record<string, unknown>;
    if (engine === 'sqlite') {
      copyFileSync(connection.filename as string, join(t.dataDir, 'maker.sqlite'));
      connection = { filename: 'maker.sqlite' };
    }
    const db = { client: engine, connection };
    expect((await dashboardOp(t, user, 'testConnection', { args: { db } })).status).toBe(403);
    expect((await dashboardOp(t, user, 'projectCreateByWeb', { args: { title: 'Maker', db } })).status).toBe(403);
    await allowProjects(t, admin, 'maker@example.com');
    expect((await dashboardOp(t, user, 'testConnection', { args: { db } })).status).toBe(200);
    const made = await dashboardOp(t, user, 'projectCreateByWeb', { args: { title: 'Maker', db } });
    expect(made.status).toBe(200);
    expect((await t.request('GET', `/nc/${made.body.id}/api/v1/Author`, { headers: xcAuth(user) })).body.length).toBe(2);
  });
});

