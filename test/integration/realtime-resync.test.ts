/**
 * Realtime across two instances sharing a PostgreSQL metadata store (in one process, each on its own
 * connections) when announcements are lost: B's listening connection away while A writes a row, or
 * ended by the database while A changes views and comments, makes B tell its clients to read again
 * (`{ type: "resync" }`) once it listens again; an announcement that the store did not take makes the
 * others resync once it answers; every row of an import that outlasts the instance's one-second cache
 * of the project reaches the grids of both instances; an imported row too big for a notification reaches
 * the other instance's grids whole (read there by its id), and a deleted row whose values are too big still
 * leaves them.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { describeEngines, PG } from '../helpers/engines';
import { freshMetaDb } from '../helpers/meta-db';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';
import { postJson, serveTestApp, type ServedApp } from '../helpers/terminal';
import { LiveClient } from '../helpers/live-client';
import { waitFor } from '../helpers/receiver';
import { LISTEN_APPLICATION_NAME, openPgMetaStore } from '../../src/meta/pg-store';
import { invalidation } from '../../src/meta/invalidation';

describeEngines(
  'realtime across instances after lost announcements',
  () => {
    let a: ServedApp;
    let b: ServedApp;
    let proxyB: TcpProxy;
    let meta: { url: string; name: string; drop(): Promise<void> };
    let dataDir = '';
    let owner = '';
    let pid = '';
    const clients: LiveClient[] = [];
    let admin: postgres.Sql;

    const call = async (on: ServedApp, method: string, path: string, body?: unknown) => {
      const res = await fetch(on.base + path, { method, headers: { 'content-type': 'application/json', 'xc-auth': owner }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    };
    const op = async (on: ServedApp, api: string, args: unknown, plus = false) => {
      const res = await call(on, 'POST', `/dashboard?q=${plus ? 'sqlOpPlus' : 'sqlOp'}_${api}`, { api, project_id: pid || undefined, args });
      if (res.status !== 200) throw new Error(`${api}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    /** A client of B that shows `table`. */
    const gridOnB = async (table: string) => {
      const c = new LiveClient(b.base, pid, { token: owner });
      clients.push(c);
      await c.opened;
      await c.ask({ type: 'subscribe', table });
      return c;
    };
    /** Uploads a CSV file to A for an import; answers its id. */
    const upload = async (csv: string) => {
      const form = new FormData();
      form.set('json', JSON.stringify({ api: 'importUpload', project_id: pid, dbAlias: 'db', args: {} }));
      form.set('file', new File([csv], 'tasks.csv', { type: 'text/csv' }));
      const up = await fetch(`${a.base}/dashboard?q=sqlOp_importUpload`, { method: 'POST', headers: { 'xc-gui': 'true', 'xc-auth': owner }, body: form });
      expect(up.status).toBe(200);
      return ((await up.json()) as { uploadId: string }).uploadId;
    };
    /** The process ids of the listening connections of the store's database. */
    const listeners = async () => (await admin.unsafe('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [meta.name, LISTEN_APPLICATION_NAME])).map((r) => Number(r.pid));
    let listenersOfA: number[] = [];

    beforeAll(async () => {
      meta = await freshMetaDb('rtsync');
      admin = postgres({ ...PG, database: 'postgres', max: 1, onnotice: () => {} });
      proxyB = startTcpProxy(PG.host, PG.port);
      dataDir = mkdtempSync(join(tmpdir(), 'tablo-rtsync-'));
      // One after the other, on one data directory: the first applies the migrations and makes the keys.
      a = await serveTestApp({ host: '127.0.0.1', allowSignup: true, dataDir, metaDb: meta.url });
      await waitFor('A to listen', async () => (await listeners()).length === 1);
      listenersOfA = await listeners();
      b = await serveTestApp({ host: '127.0.0.1', allowSignup: true, dataDir, metaDb: `postgres://${PG.user}@127.0.0.1:${proxyB.port}/${meta.name}` });
      await waitFor('B to listen', async () => (await listeners()).length === 2);
      owner = (await postJson(a.base, '/auth/signup', { email: 'owner@example.com', password: 'password123' })).token;
      pid = (await op(a, 'projectCreateByWeb', { title: 'Resync' })).id;
      await op(a, 'tableCreate', { tn: 'task', _tn: 'Tasks' }, true);
      await op(a, 'columnAdd', { tn: 'task', column: { cn: 'notes', uidt: 'LongText' } }, true);
    }, 60_000);
    afterAll(async () => {
      for (const c of clients) c.ws.close();
      await Promise.all([a?.close(), b?.close()]);
      proxyB?.down();
      await admin?.end();
      await meta?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }, 30_000);

    test('a row written on A while B does not listen: B tells its grid to read again once it listens again, and B reads the row', async () => {
      const grid = await gridOnB('Tasks');
      proxyB.down();
      const made = await call(a, 'POST', `/nc/${pid}/api/v1/Tasks`, { title: 'while B was away' });
      expect(made.status).toBe(200);
      const from = grid.messages.length;
      proxyB.up();
      await grid.next((m) => m.type === 'resync' && m.table === undefined, from);
      const read = await call(b, 'GET', `/nc/${pid}/api/v1/Tasks?where=(title,eq,while B was away)`);
      expect(read.status).toBe(200);
      expect(read.body).toHaveLength(1);
    }, 30_000);

    test("B's listening connection ended by the database while A changes views and comments: B's clients read again once it listens again", async () => {
      const made = await call(a, 'POST', `/nc/${pid}/api/v1/Tasks`, { title: 'commented' });
      const grid = await gridOnB('Tasks');
      const ofB = (await listeners()).filter((p) => !listenersOfA.includes(p));
      expect(ofB).toHaveLength(1);
      const from = grid.messages.length;
      await admin.unsafe('SELECT pg_terminate_backend($1)', [ofB[0]]);
      await op(a, 'xcVirtualTableCreate', { tn: 'task', title: 'Made meanwhile', type: 'grid', query_params: {} });
      await op(a, 'commentCreate', { tn: 'task', pk: String(made.body.Id), body: 'said meanwhile' });
      // Whether or not those notices came before B listened again, its clients are told to read everything again.
      await grid.next((m) => m.type === 'resync' && m.table === undefined, from);
      expect((await listeners()).filter((p) => !listenersOfA.includes(p) && p !== ofB[0])).toHaveLength(1);
    }, 30_000);

    test('an announcement the store did not take makes the other instances tell their clients to read again once it answers', async () => {
      const grid = await gridOnB('Tasks');
      // A third instance's notifier, on a connection of its own that the test can cut.
      const proxyC = startTcpProxy(PG.host, PG.port);
      const c = openPgMetaStore(`postgres://${PG.user}@127.0.0.1:${proxyC.port}/${meta.name}`);
      try {
        await invalidation(c).ready;
        const from = grid.messages.length;
        proxyC.down();
        await invalidation(c).announce('rows', JSON.stringify({ p: pid, d: 'db', t: 'task', o: 'insert', ids: ['1'] }));
        proxyC.up();
        await grid.next((m) => m.type === 'resync' && m.table === undefined, from);
      } finally {
        await c.close();
        proxyC.down();
      }
    }, 30_000);

    test('an imported row too big for a notification reaches the grid on B whole (B reads it by its id)', async () => {
      const uploadId = await upload(`title,notes\nhuge,${'x'.repeat(9000)}\n`);
      const grid = await gridOnB('Tasks');
      const from = grid.messages.length;
      const job = await op(a, 'importStart', { uploadId, tn: 'task' });
      await waitFor('the import to end', async () => (await op(a, 'importStatus', { jobId: job.id })).status !== 'running');
      // The announcement names the row by its id (its values do not fit): B reads it from the database.
      const got = await grid.next((m) => m.type === 'rows' || m.type === 'resync', from);
      expect(got).toMatchObject({ type: 'rows', table: 'Tasks', op: 'insert' });
      expect(got.rows).toHaveLength(1);
      expect(got.rows[0]).toMatchObject({ Title: 'huge', Notes: 'x'.repeat(9000) });
    }, 30_000);

    test("every row an import through A puts in after A's cached project row expired reaches the grids on A and on B", async () => {
      const uploadId = await upload(`title\n${Array.from({ length: 2000 }, (_, i) => `t${i}`).join('\n')}\n`);
      const onB = await gridOnB('Tasks');
      const onA = new LiveClient(a.base, pid, { token: owner });
      clients.push(onA);
      await onA.opened;
      await onA.ask({ type: 'subscribe', table: 'Tasks' });
      const job = await op(a, 'importStart', { uploadId, tn: 'task', batchSize: 10 });
      // As when a second has passed with no request for the project on A while the import runs.
      await invalidation(a.app.ctx.meta).publish('project', pid);
      await waitFor('the import to end', async () => (await op(a, 'importStatus', { jobId: job.id })).status !== 'running', 45_000);
      expect(await op(a, 'importStatus', { jobId: job.id })).toMatchObject({ status: 'done', rowsImported: 2000 });
      // Every row reaches the grids on both instances.
      const imported = (c: LiveClient) => new Set(c.messages.filter((m) => m.type === 'rows' && m.op === 'insert').flatMap((m) => m.rows.map((r: any) => r.Title)).filter((t: string) => /^t\d+$/.test(t))).size;
      for (const [name, c] of [['A', onA], ['B', onB]] as const) {
        await waitFor('every imported row to reach the grid', () => imported(c) === 2000 || null).catch(() => {
          throw new Error(`${imported(c)} of 2000 rows reached the grid on ${name}`);
        });
      }
    }, 60_000);

    test('a deleted row whose values are too big for a notification leaves the grid on the other instance', async () => {
      // 2,800 characters of 3 bytes each: within 7,000 characters, but over PostgreSQL's 8,000 bytes once announced.
      const made = await call(a, 'POST', `/nc/${pid}/api/v1/Tasks`, { title: 'long', notes: '€'.repeat(2800) });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const grid = await gridOnB('Tasks');
      const from = grid.messages.length;
      expect((await call(a, 'DELETE', `/nc/${pid}/api/v1/Tasks/${made.body.Id}`)).status).toBe(200);
      expect(await grid.next((m) => m.type === 'rows' || m.type === 'resync', from)).toMatchObject({ type: 'rows', op: 'delete', removed: [String(made.body.Id)] });
    }, 30_000);
  },
  ['pg'],
);
