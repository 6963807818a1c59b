/**
 * A metadata store outage (PostgreSQL store cut through a TCP proxy) is no verdict on anyone's session:
 * a socket message the server cannot check ends the socket with 4503 ("try again"), not 4401 ("not
 * signed in"); a write whose readers cannot be worked out (no project row, no reader's rights) ends their sockets the same way,
 * so their client opens again and reads the table again instead of missing the change; a refresh asked
 * for meanwhile answers 503 {msg} and keeps the refresh cookie, which works again once the store is back.
 * Each test has an instance of its own (its own way to the store through a TCP proxy, its own pool), on the
 * store and data directory the first instance set up: one cut and one recovery per pool.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEngines, PG } from '../helpers/engines';
import { freshMetaDb } from '../helpers/meta-db';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';
import { postJson, serveTestApp, type ServedApp } from '../helpers/terminal';
import { LiveClient } from '../helpers/live-client';
import { waitFor } from '../helpers/receiver';
import { MSG_META_UNREACHABLE } from '../../src/meta/pg-store';
import { CLOSE_TRY_AGAIN } from '../../src/realtime/feature';
import { REFRESH_COOKIE } from '../../src/api/auth/cookies';
import { usersRepo } from '../../src/meta/users-repo';

describeEngines(
  'realtime and refresh while the metadata store is unreachable',
  () => {
    /** The instance that sets the project up, on a direct connection to the store. */
    let setup: ServedApp;
    /** The instance of the running test and its way to the store, which the test cuts. */
    let app: ServedApp;
    let proxy: TcpProxy;
    let meta: { url: string; name: string; drop(): Promise<void> };
    let dataDir = '';
    let owner = '';
    let pid = '';
    const clients: LiveClient[] = [];

    const op = async (api: string, args: unknown, plus = false) => {
      const res = await fetch(`${setup.base}/dashboard?q=${plus ? 'sqlOpPlus' : 'sqlOp'}_${api}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'xc-auth': owner },
        body: JSON.stringify({ api, project_id: pid || undefined, args }),
      });
      const body = (await res.json()) as any;
      if (res.status !== 200) throw new Error(`${api}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    /** A client of the project on the test's instance that shows `table`. */
    const grid = async (table: string, token = owner) => {
      const c = new LiveClient(app.base, pid, { token });
      clients.push(c);
      await c.opened;
      await c.ask({ type: 'subscribe', table });
      return c;
    };
    /**
     * Cuts the store and waits until the cached project row and the owner's cached user row have expired (a
     * second), looking only at the caches: the server's next check of the owner then needs the store.
     * note: no flood of checks meanwhile; queries of the PostgreSQL driver can hang under repeated refused connects.
     */
    const cutAndForget = async () => {
      const userId = ((await (await fetch(`${app.base}/user/me`, { headers: { 'xc-auth': owner } })).json()) as { id: string }).id;
      proxy.down();
      await waitFor('the cached rows to expire', () => !app.app.ctx.projects.peek(pid) && !usersRepo(app.app.ctx.meta).peekCached(userId));
    };

    beforeAll(async () => {
      meta = await freshMetaDb('rtoutage');
      dataDir = mkdtempSync(join(tmpdir(), 'tablo-rtoutage-'));
      setup = await serveTestApp({ host: '127.0.0.1', allowSignup: true, dataDir, metaDb: meta.url });
      owner = (await postJson(setup.base, '/auth/signup', { email: 'owner@example.com', password: 'password123' })).token;
      pid = (await op('projectCreateByWeb', { title: 'Outage' })).id;
      await op('tableCreate', { tn: 'task', _tn: 'Tasks' }, true);
    }, 60_000);
    beforeEach(async () => {
      proxy = startTcpProxy(PG.host, PG.port);
      app = await serveTestApp({ host: '127.0.0.1', allowSignup: true, dataDir, metaDb: `postgres://${PG.user}@127.0.0.1:${proxy.port}/${meta.name}` });
    }, 30_000);
    afterEach(async () => {
      proxy.up();
      for (const c of clients.splice(0)) c.ws.close();
      await app.close();
      proxy.down();
    }, 30_000);
    afterAll(async () => {
      await setup?.close();
      await meta?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }, 30_000);

    test("a write the server cannot share out (the store cut: no project row, no reader's rights) ends the readers' sockets with 4503, so they read the table again, and is not dropped silently", async () => {
      const reader = await grid('Tasks');
      const made = await fetch(`${app.base}/nc/${pid}/api/v1/Tasks`, { method: 'POST', headers: { 'content-type': 'application/json', 'xc-auth': owner }, body: JSON.stringify({ title: 'before the cut' }) });
      expect(made.status).toBe(200);
      const row = (await made.json()) as Record<string, unknown>;
      await reader.next((m) => m.type === 'rows' && m.op === 'insert');
      try {
        await cutAndForget();
        expect(reader.closed).toBeNull();
        // A committed write reaches the realtime feature (as one made just before the cut, or on another instance, does).
        const actor = { kind: 'user' as const, userId: 'someone', email: 'someone@example.com', roles: ['user'], superAdmin: false };
        app.app.ctx.writeEvents.emit({ projectId: pid, dbAlias: 'db', tn: 'task', op: 'update', rows: [{ data: { ...row, title: 'during the cut' }, previous: row }], actor });
        expect(await waitFor('the reader to be told to try again', () => reader.closed)).toEqual({ code: CLOSE_TRY_AGAIN, reason: MSG_META_UNREACHABLE });
      } finally {
        proxy.up();
      }
    }, 30_000);

    test('a message the server cannot check ends the socket with 4503 (try again), not 4401; the same token opens it again once the store is back', async () => {
      const c = await grid('Tasks');
      try {
        await cutAndForget();
        c.send({ type: 'subscribe', table: 'Other' });
        expect(await waitFor('the socket to end', () => c.closed)).toEqual({ code: CLOSE_TRY_AGAIN, reason: MSG_META_UNREACHABLE });
      } finally {
        proxy.up();
      }
      const again = await waitFor('the socket to open again', async () => {
        const c = new LiveClient(app.base, pid, { token: owner });
        clients.push(c);
        return c.opened.then(() => c, () => null);
      });
      await again!.ask({ type: 'subscribe', table: 'Tasks' });
      expect(again!.messages.at(-1)).toEqual({ type: 'ok', tables: ['Tasks'] });
    }, 30_000);

    test('a refresh while the store is unreachable answers 503 {msg} and keeps the refresh cookie, which refreshes once the store is back', async () => {
      const signin = await fetch(`${app.base}/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@example.com', password: 'password123' }) });
      expect(signin.status).toBe(200);
      const cookie = signin.headers.getSetCookie().find((c) => c.startsWith(`${REFRESH_COOKIE}=`))!.split(';')[0]!;
      const refresh = () => fetch(`${app.base}/auth/refresh-token`, { method: 'POST', headers: { cookie, 'xc-gui': 'true' } });
      proxy.down();
      try {
        const during = await refresh();
        expect(during.status).toBe(503);
        expect(await during.json()).toEqual({ msg: MSG_META_UNREACHABLE, code: 'META_UNREACHABLE' });
        // The browser keeps its cookie: no Set-Cookie lets it go.
        expect(during.headers.getSetCookie().filter((c) => c.startsWith(`${REFRESH_COOKIE}=`))).toEqual([]);
      } finally {
        proxy.up();
      }
      const after = await waitFor('the refresh to work again', async () => {
        const res = await refresh();
        return res.status === 503 ? null : res;
      });
      expect(after!.status).toBe(200);
      expect(typeof ((await after!.json()) as { token?: unknown }).token).toBe('string');
    }, 30_000);
  },
  ['pg'],
);
