/**
 * Rows changed in the SQL Client (INSERT, UPDATE, DELETE; a WITH that writes) on SQLite, PostgreSQL and
 * MariaDB reach the open grids of the project: which rows changed is not known, so every client of the
 * project is told to read again what it shows (`{ type: "resync" }`), and the audit log says who ran
 * which statement. A SELECT tells no one. With two instances on one PostgreSQL metadata store, a grid
 * open on the other instance is told too.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshMetaDb } from '../helpers/meta-db';
import { postJson, serveTestApp, type ServedApp } from '../helpers/terminal';
import { describeEngines, dropDatabase, freshDatabase, type TestEngine } from '../helpers/engines';
import { LiveClient } from '../helpers/live-client';

describeEngines('SQL Client writes reach open grids', (engine: TestEngine) => {
  const db = `tablo_t_sqlrt_${engine}`;
  let t: ServedApp;
  let owner = '';
  let editor = '';
  let pid = '';
  const clients: LiveClient[] = [];
  const api = (path: string, body: unknown, token = owner) =>
    fetch(`${t.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'xc-auth': token }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json().catch(() => null)) as any }));
  const op = (name: string, args: unknown, token = owner) => api(`/dashboard?q=sqlOp_${name}`, { api: name, project_id: pid, args }, token);
  let runs = 0;
  const run = async (sql: string) => {
    const r = await op('rawSqlRun', { sql, runId: `run_sqlrt_${++runs}_${Date.now()}` });
    expect(r.status).toBe(200);
    expect(r.body.results.every((x: any) => !x.error)).toBe(true);
    return r.body;
  };

  beforeAll(async () => {
    t = await serveTestApp({ host: '127.0.0.1', allowSignup: true });
    owner = (await postJson(t.base, '/auth/signup', { email: 'owner@example.com', password: 'password123' })).token;
    const cfg = await freshDatabase(engine, db);
    let connection = cfg.connection as Record<string, unknown>;
    if (engine === 'sqlite') {
      await Bun.write(join(t.dataDir, 'sqlrt.sqlite'), Bun.file(cfg.connection.filename!));
      connection = { filename: 'sqlrt.sqlite' };
    }
    pid = (await op('projectCreateByWeb', { title: 'SqlLive', db: { client: engine, connection } })).body.id;
    await run('CREATE TABLE task (id INTEGER PRIMARY KEY, title VARCHAR(100))');
    await run("INSERT INTO task (id, title) VALUES (1, 'first')");
    const invite = await api('/admin', { email: 'editor@example.com', roles: 'editor', project_id: pid });
    editor = (await postJson(t.base, '/auth/signup', { email: 'editor@example.com', password: 'password123', token: String(invite.body.invite_url).split('/signup/')[1] })).token;
  }, 60_000);
  afterAll(async () => {
    for (const c of clients) c.ws.close();
    await t?.close();
    await dropDatabase(engine, db);
  });

  const grid = async (token: string) => {
    const c = new LiveClient(t.base, pid, { token });
    clients.push(c);
    await c.opened;
    await c.ask({ type: 'subscribe', table: 'task' });
    return c;
  };

  test("an UPDATE, an INSERT and a DELETE run by the owner make the editor's open grid read again, and are in the audit log", async () => {
    const c = await grid(editor);
    for (const sql of ["UPDATE task SET title = 'changed' WHERE id = 1", "INSERT INTO task (id, title) VALUES (2, 'second')", 'DELETE FROM task WHERE id = 2']) {
      const from = c.messages.length;
      await run(sql);
      await c.next((m) => m.type === 'resync', from);
    }
    const rows = await fetch(`${t.base}/nc/${pid}/api/v1/task/1`, { headers: { 'xc-auth': editor } }).then((r) => r.json());
    expect(rows).toMatchObject({ Id: 1, Title: 'changed' });
    const audit = await fetch(`${t.base}/admin/audit?op_type=DATA&search=SQL Client`, { headers: { 'xc-auth': owner } }).then((r) => r.json() as Promise<any>);
    const said = audit.list.map((e: any) => `${e.userEmail} ${e.description}`);
    expect(said).toContain("owner@example.com SQL Client: UPDATE task SET title = 'changed' WHERE id = 1");
    expect(said).toContain('owner@example.com SQL Client: DELETE FROM task WHERE id = 2');
  });

  test('a SELECT tells no one', async () => {
    const c = await grid(editor);
    await run('SELECT * FROM task');
    await run("UPDATE task SET title = 'again' WHERE id = 1");
    const first = await c.next((m) => m.type === 'resync');
    expect(c.messages.filter((m) => m.type === 'resync')).toEqual([first]);
  });
});

describeEngines(
  'SQL Client writes reach the open grids of another instance',
  () => {
    let a: ServedApp;
    let b: ServedApp;
    let meta: { url: string; drop(): Promise<void> };
    let dataDir = '';
    let owner = '';
    let pid = '';
    let client: LiveClient | undefined;
    const op = (name: string, args: unknown) =>
      fetch(`${a.base}/dashboard?q=sqlOp_${name}`, { method: 'POST', headers: { 'content-type': 'application/json', 'xc-auth': owner }, body: JSON.stringify({ api: name, project_id: pid, args }) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

    beforeAll(async () => {
      meta = await freshMetaDb('sqlrt');
      dataDir = mkdtempSync(join(tmpdir(), 'tablo-sqlrt-'));
      // One after the other, on one data directory: the first applies the migrations and makes the keys.
      a = await serveTestApp({ host: '127.0.0.1', allowSignup: true, dataDir, metaDb: meta.url });
      b = await serveTestApp({ host: '127.0.0.1', allowSignup: true, dataDir, metaDb: meta.url });
      owner = (await postJson(a.base, '/auth/signup', { email: 'owner@example.com', password: 'password123' })).token;
      pid = (await op('projectCreateByWeb', { title: 'SqlLiveTwo' })).body.id;
      for (const sql of ['CREATE TABLE task (id INTEGER PRIMARY KEY, title VARCHAR(100))', "INSERT INTO task (id, title) VALUES (1, 'first')"]) {
        expect((await op('rawSqlRun', { sql, runId: `run_sqlrt2_${Date.now()}_${sql.length}` })).status).toBe(200);
      }
    }, 60_000);
    afterAll(async () => {
      client?.ws.close();
      await Promise.all([a?.close(), b?.close()]);
      await meta?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }, 30_000);

    test("an UPDATE run on A makes a grid open on B read again", async () => {
      client = new LiveClient(b.base, pid, { token: owner });
      await client.opened;
      await client.ask({ type: 'subscribe', table: 'task' });
      const from = client.messages.length;
      expect((await op('rawSqlRun', { sql: "UPDATE task SET title = 'changed on A' WHERE id = 1", runId: `run_sqlrt2_${Date.now()}` })).status).toBe(200);
      await client.next((m) => m.type === 'resync', from);
    });
  },
  ['pg'],
);
