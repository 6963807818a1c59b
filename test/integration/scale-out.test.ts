/**
 * Two Tablo processes sharing one PostgreSQL metadata store (and one data directory), requests
 * alternating between them: a schema change, a rights change, a revoked API token, a removed
 * member and a stopped project made on one instance take effect on the other within 1 s
 * (LISTEN/NOTIFY); an import (upload, preview, start, progress, cancel) and a shared form with a
 * file run across both; sign-in attempts and wrong shared-link passwords are counted across both;
 * a store outage answers 503 `{msg}` on both and both recover by themselves when it is back.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEngines, PG } from '../helpers/engines';
import { freshMetaDb } from '../helpers/meta-db';
import { startInstance, tookUntil, type Instance } from '../helpers/instances';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';
import { openPgMetaStore } from '../../src/meta/pg-store';
import { invalidation } from '../../src/meta/invalidation';
import { startReceiver, waitFor } from '../helpers/receiver';
import { LiveClient } from '../helpers/live-client';
import { openSqliteDriver } from '../../src/sql/sqlite/driver';
import { openSqliteMetaStore } from '../../src/meta/sqlite-store';

// Instances on one data directory open the same embedded project files: one closing its last
// connection (a checkpoint under an exclusive lock) or writing while another opens the file.
test('an SQLite file another process holds for a moment is opened once it is free, not refused as locked', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tablo-scale-lock-'));
  try {
    for (const open of [(f: string) => openSqliteDriver(f).close(), (f: string) => openSqliteMetaStore(f).close()]) {
      const file = join(dir, `${Math.random()}.db`);
      openSqliteDriver(file, { create: true }).close();
      const holder = Bun.spawn(
        ['bun', '-e', `const { Database } = require('bun:sqlite'); const d = new Database(${JSON.stringify(file)}); d.exec('PRAGMA locking_mode = EXCLUSIVE'); d.exec('BEGIN EXCLUSIVE'); console.log('held'); setTimeout(() => { d.exec('COMMIT'); d.close(); }, 300);`],
        { stdout: 'pipe', stderr: 'inherit' },
      );
      const reader = (holder.stdout as ReadableStream<Uint8Array>).getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('held');
      await open(file);
      await holder.exited;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 20_000);

describeEngines(
  'two instances, one metadata store',
  () => {
    let a: Instance;
    let b: Instance;
    let proxy: TcpProxy;
    let meta: { url: string; name: string; drop(): Promise<void> };
    let dataDir = '';
    let owner = '';
    let projectId = '';

    const auth = (token: string) => ({ 'xc-auth': token });
    const op = async (on: Instance, token: string, api: string, args: unknown, plus = false) => {
      const res = await on.call('POST', `/dashboard?q=${plus ? 'sqlOpPlus' : 'sqlOp'}_${api}`, {
        body: { api, project_id: projectId || undefined, args },
        headers: { 'xc-gui': 'true', ...auth(token) },
      });
      if (res.status !== 200) throw new Error(`${api}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const tasks = (on: Instance, headers: Record<string, string>, query = '') => on.call('GET', `/nc/${projectId}/api/v1/Tasks${query}`, { headers });

    beforeAll(async () => {
      meta = await freshMetaDb('scale');
      proxy = startTcpProxy(PG.host, PG.port);
      const viaProxy = `postgres://${PG.user}@127.0.0.1:${proxy.port}/${meta.name}`;
      dataDir = mkdtempSync(join(tmpdir(), 'tablo-scale-'));
      // One after the other: the first creates the shared keys and applies the migrations.
      // The webhook and cron job of these tests call a receiver on loopback.
      const env = { NC_API_CLIENT_ALLOW_PRIVATE: '1' };
      a = await startInstance({ dataDir, metaDb: viaProxy, env });
      b = await startInstance({ dataDir, metaDb: viaProxy, env });
      owner = (await a.call('POST', '/auth/signup', { body: { email: 'owner@example.com', password: 'password123' } })).body.token;
      projectId = (await op(b, owner, 'projectCreateByWeb', { title: 'Scaled' })).id;
      await op(a, owner, 'tableCreate', { tn: 'task', _tn: 'Tasks' }, true);
    }, 60_000);
    afterAll(async () => {
      for (const i of [a, b]) if (i && i.proc.exitCode !== null) console.error(`instance exited ${i.proc.exitCode}: ${i.stderr()}`);
      await Promise.all([a?.stop(), b?.stop()]);
      proxy?.down();
      await meta?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }, 30_000);

    test('both instances answer for the same users and projects', async () => {
      const signin = await b.call('POST', '/auth/signin', { body: { email: 'owner@example.com', password: 'password123' } });
      expect(signin.status).toBe(200);
      expect((await tasks(a, auth(owner))).status).toBe(200);
      expect((await tasks(b, auth(signin.body.token))).status).toBe(200);
    });

    test('a schema change on A: B reads the new column within 1 s', async () => {
      expect((await tasks(b, auth(owner), '?fields=points')).status).toBe(400);
      await op(a, owner, 'columnAdd', { tn: 'task', column: { cn: 'points', uidt: 'Number' } }, true);
      const took = await tookUntil(1000, async () => (await tasks(b, auth(owner), '?fields=points')).status === 200);
      expect(took).not.toBeNull();
      // And back the other way: a column added through B shows on A.
      await op(b, owner, 'columnAdd', { tn: 'task', column: { cn: 'label', uidt: 'SingleLineText' } }, true);
      expect(await tookUntil(1000, async () => (await tasks(a, auth(owner), '?fields=label')).status === 200)).not.toBeNull();
    });

    test('schema changes sent to both instances at once run one after the other, each on the schema the other left', async () => {
      const [x, y] = await Promise.all([
        op(a, owner, 'columnAdd', { tn: 'task', column: { cn: 'from_a', uidt: 'Number' } }, true),
        op(b, owner, 'columnAdd', { tn: 'task', column: { cn: 'from_b', uidt: 'Number' } }, true),
      ]);
      expect([x.migration.status, y.migration.status]).toEqual(['applied', 'applied']);
      for (const on of [a, b]) expect((await tasks(on, auth(owner), '?fields=from_a,from_b')).status).toBe(200);
      const listed = (await op(b, owner, 'migrationList', {})).list.length as number;
      const store = openPgMetaStore(meta.url);
      try {
        // Recorded one after the other: numbered 1..n without a number taken twice.
        const seqs = await store.all<{ seq: number }>('SELECT seq FROM nc_schema_migrations ORDER BY seq');
        expect(seqs.map((r) => r.seq)).toEqual(Array.from({ length: listed }, (_, i) => i + 1));
      } finally {
        await store.close();
      }
    }, 30_000);

    test('a rights change on A and a revoked token: B refuses within 1 s', async () => {
      const token = (await op(a, owner, 'xcApiTokenCreate', { description: 'reader', role: 'viewer' })).token as string;
      const viaToken = { 'xc-token': token };
      expect((await tasks(b, viaToken)).status).toBe(200);
      await op(a, owner, 'aclSave', { tn: 'task', role: 'viewer', rule: { read: false, create: false, update: false, delete: false, where: null } });
      expect(await tookUntil(1000, async () => (await tasks(b, viaToken)).status === 403)).not.toBeNull();
      await op(b, owner, 'aclSave', { tn: 'task', role: 'viewer', rule: null });
      expect(await tookUntil(1000, async () => (await tasks(a, viaToken)).status === 200)).not.toBeNull();
      expect((await tasks(b, viaToken)).status).toBe(200);

      const list = await op(b, owner, 'xcApiTokenList', {});
      await op(b, owner, 'xcApiTokenDelete', { id: list.data.list[0].id });
      expect(await tookUntil(1000, async () => (await tasks(a, viaToken)).status === 401)).not.toBeNull();
    });

    test('a member removed on A: B refuses them within 1 s', async () => {
      const invite = await a.call('POST', '/admin', { headers: auth(owner), body: { email: 'ed@example.com', roles: 'editor', project_id: projectId } });
      const link = String(invite.body.invite_url).split('/signup/')[1]!;
      const ed = (await b.call('POST', '/auth/signup', { body: { email: 'ed@example.com', password: 'password123', token: link } })).body.token as string;
      expect((await tasks(b, auth(ed))).status).toBe(200);
      const members = await a.call('GET', `/admin?project_id=${projectId}`, { headers: auth(owner) });
      const edId = members.body.list.find((u: { email: string }) => u.email === 'ed@example.com').id;
      expect((await a.call('DELETE', `/admin/${edId}?project_id=${projectId}`, { headers: auth(owner) })).status).toBe(200);
      expect(await tookUntil(1000, async () => (await tasks(b, auth(ed))).status === 403)).not.toBeNull();
    }, 30_000);

    test('a project stopped on A answers 503 on B within 1 s; started on B, A serves it again', async () => {
      expect((await tasks(b, auth(owner))).status).toBe(200);
      await op(a, owner, 'projectStop', {});
      expect(await tookUntil(1000, async () => (await tasks(b, auth(owner))).status === 503)).not.toBeNull();
      await op(b, owner, 'projectStart', {});
      expect(await tookUntil(1000, async () => (await tasks(a, auth(owner))).status === 200)).not.toBeNull();
      expect((await tasks(b, auth(owner))).status).toBe(200);
    });

    test('a saved view made on A is read through B within 1 s', async () => {
      const view = await op(a, owner, 'xcVirtualTableCreate', { tn: 'task', title: 'Open ones', type: 'grid', query_params: { sort: '-id' } });
      expect(await tookUntil(1000, async () => (await tasks(b, auth(owner), `?view=${view.id}`)).status === 200)).not.toBeNull();
    });

    test('a webhook made on A fires for a write through B; a cron job runs once per tick on two instances', async () => {
      const rx = startReceiver();
      try {
        await op(a, owner, 'xcHookCreate', { tn: 'task', title: 'Notify', event: 'after.insert', notification: { type: 'url', url: rx.url('/hook') } });
        // The hook is read by B within a second of its creation on A.
        await Bun.sleep(1000);
        expect((await b.call('POST', `/nc/${projectId}/api/v1/Tasks`, { headers: auth(owner), body: { title: 'hooked' } })).status).toBe(200);
        await waitFor('the webhook delivery', async () => rx.at('/hook').some((r) => r.body.includes('hooked')), 10_000);
        const job = await op(b, owner, 'xcCronCreate', { title: 'every second', pattern: '* * * * * *', action: { type: 'url', method: 'GET', url: rx.url('/tick') } });
        await waitFor('four runs', async () => ((await op(a, owner, 'xcCronLogs', { id: job.id })).data.list as { status: string }[]).filter((r) => r.status !== 'running').length >= 4, 15_000);
        await op(a, owner, 'xcCronUpdate', { id: job.id, active: false });
        await Bun.sleep(1500);
        const runs = (await op(a, owner, 'xcCronLogs', { id: job.id })).data.list as { tick: string }[];
        expect(new Set(runs.map((r) => r.tick)).size).toBe(runs.length);
        expect(rx.at('/tick')).toHaveLength(runs.length);
      } finally {
        rx.stop();
      }
    }, 40_000);

    /** A realtime socket of the owner on instance B showing `table`, once subscribed. */
    const gridOnB = async (table: string) => {
      const ws = new WebSocket(`${b.url.replace(/^http/, 'ws')}/api/v1/realtime?project_id=${projectId}`, ['tablo.realtime', `tablo.jwt.${owner}`]);
      const messages: any[] = [];
      ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)));
      await new Promise<void>((resolve, reject) => ((ws.onopen = () => resolve()), (ws.onerror = () => reject(new Error('socket failed')))));
      ws.send(JSON.stringify({ type: 'subscribe', table }));
      expect(await tookUntil(1000, async () => messages.some((m) => m.type === 'ok'))).not.toBeNull();
      return { ws, messages };
    };

    test('realtime: a write through A reaches a grid open on B within 1 s', async () => {
      const { ws, messages } = await gridOnB('Tasks');
      const made = await a.call('POST', `/nc/${projectId}/api/v1/Tasks`, { headers: auth(owner), body: { title: 'from instance A' } });
      expect(made.status).toBe(200);
      expect(await tookUntil(1000, async () => messages.some((m) => m.type === 'rows' && m.op === 'insert' && m.rows[0]?.Title === 'from instance A'))).not.toBeNull();
      ws.close();
    });

    test('realtime: a view or comment changed on A, and a table renamed or deleted on A, reach a grid open on B', async () => {
      await op(a, owner, 'tableCreate', { tn: 'note', _tn: 'Notes' }, true);
      const made = await a.call('POST', `/nc/${projectId}/api/v1/Notes`, { headers: auth(owner), body: { title: 'first' } });
      expect(made.status).toBe(200);
      const { ws, messages } = await gridOnB('Notes');
      // No time is promised here (a rename reads the schema again on B): a busy machine gets 10 s.
      const seen = (test: (m: any) => boolean) => tookUntil(10_000, async () => messages.some(test));

      await op(a, owner, 'xcVirtualTableCreate', { tn: 'note', title: 'Recent notes', type: 'grid', query_params: { sort: '-id' } });
      expect(await seen((m) => m.type === 'views' && m.table === 'Notes')).not.toBeNull();
      await op(a, owner, 'commentCreate', { tn: 'note', pk: String(made.body.Id), body: 'seen on B?' });
      expect(await seen((m) => m.type === 'comments' && m.table === 'Notes')).not.toBeNull();

      await op(a, owner, 'tableRename', { tn: 'note', _tn: 'Memos', newTn: 'memo' }, true);
      expect(await seen((m) => m.type === 'schema' && m.renamed?.some((r: any) => r.from === 'Notes' && r.to === 'Memos'))).not.toBeNull();
      ws.send(JSON.stringify({ type: 'subscribe', table: 'Memos' }));
      expect(await seen((m) => m.type === 'ok' && m.tables.includes('Memos'))).not.toBeNull();
      await op(a, owner, 'tableDelete', { tn: 'memo' }, true);
      expect(await seen((m) => m.type === 'schema' && m.deleted?.some((d: any) => d.name === 'Memos'))).not.toBeNull();
      ws.close();
    });

    test('realtime: a view or comment changed on A reaches a grid open on B after B let the project\'s cached row go (another instance changed the project)', async () => {
      await op(a, owner, 'tableCreate', { tn: 'pin', _tn: 'Pins' }, true);
      const made = await a.call('POST', `/nc/${projectId}/api/v1/Pins`, { headers: auth(owner), body: { title: 'first' } });
      expect(made.status).toBe(200);
      const { ws, messages } = await gridOnB('Pins');
      const other = openPgMetaStore(meta.url);
      try {
        const changes: Array<[string, unknown, string]> = [
          ['xcVirtualTableCreate', { tn: 'pin', title: 'Recent pins', type: 'grid', query_params: { sort: '-id' } }, 'views'],
          ['commentCreate', { tn: 'pin', pk: String(made.body.Id), body: 'seen on B?' }, 'comments'],
        ];
        for (const [api, args, type] of changes) {
          // Another instance changes the project: B drops its cached row before the notice comes (it leaves after).
          await invalidation(other).publish('project', projectId);
          await op(a, owner, api, args);
          expect(await tookUntil(10_000, async () => messages.some((m) => m.type === type && m.table === 'Pins'))).not.toBeNull();
        }
      } finally {
        ws.close();
        await other.close();
      }
    });

    test("realtime: a table renamed on A follows on a grid B opened while it did not hold the project's model", async () => {
      const shared = projectId;
      projectId = (await op(a, owner, 'projectCreateByWeb', { title: 'Renamed later' })).id;
      const other = openPgMetaStore(meta.url);
      try {
        await op(a, owner, 'tableCreate', { tn: 'card', _tn: 'Cards' }, true);
        // B lets the project's cached row go (another instance changed the project) before its first grid opens.
        await invalidation(other).publish('project', projectId);
        await Bun.sleep(1500);
        const { ws, messages } = await gridOnB('Cards');
        await Bun.sleep(300);
        await op(a, owner, 'tableRename', { tn: 'card', _tn: 'Boards', newTn: 'board' }, true);
        expect(await tookUntil(10_000, async () => messages.some((m) => m.type === 'schema' && m.renamed?.some((r: any) => r.from === 'Cards' && r.to === 'Boards')))).not.toBeNull();
        ws.close();
      } finally {
        await other.close();
        projectId = shared;
      }
    });

    test('realtime: members served by A and by B see each other on a table, and who wrote; a row an update takes out of a reader\'s rows leaves their grid on the other instance', async () => {
      await op(a, owner, 'tableCreate', { tn: 'meet', _tn: 'Meetings', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'title', uidt: 'SingleLineText' }, { cn: 'room', uidt: 'SingleLineText' }] }, true);
      const link = (await a.call('POST', '/admin', { headers: auth(owner), body: { email: 'ada@example.com', roles: 'viewer', project_id: projectId } })).body.invite_url;
      const ada = (await b.call('POST', '/auth/signup', { body: { email: 'ada@example.com', password: 'password123', token: String(link).split('/signup/')[1] } })).body.token as string;
      await op(a, owner, 'aclSave', { tn: 'meet', role: 'viewer', rule: { read: true, create: false, update: false, delete: false, where: '(room,eq,blue)' } });
      const made = await a.call('POST', `/nc/${projectId}/api/v1/Meetings`, { headers: auth(owner), body: { title: 'standup', room: 'blue' } });
      expect(made.status).toBe(200);

      const ownerOnA = new LiveClient(a.url, projectId, { token: owner });
      const adaOnB = new LiveClient(b.url, projectId, { token: ada });
      try {
        for (const c of [ownerOnA, adaOnB]) {
          await c.opened;
          await c.ask({ type: 'subscribe', table: 'Meetings' });
        }
        // Each sees the other, though another instance serves them.
        expect(await tookUntil(1000, async () => ownerOnA.others('Meetings').join() === 'ada@example.com')).not.toBeNull();
        expect(await tookUntil(1000, async () => adaOnB.others('Meetings').join() === 'owner@example.com')).not.toBeNull();

        // The owner's change through A is named on B; moving the row out of Ada's rows takes it from her grid.
        let from = adaOnB.messages.length;
        expect((await a.call('PUT', `/nc/${projectId}/api/v1/Meetings/${made.body.Id}`, { headers: auth(owner), body: { title: 'daily standup' } })).status).toBe(200);
        expect(await adaOnB.next((m) => m.type === 'rows', from)).toMatchObject({ op: 'update', by: 'owner@example.com', rows: [{ Title: 'daily standup' }] });
        from = adaOnB.messages.length;
        expect((await a.call('PUT', `/nc/${projectId}/api/v1/Meetings/${made.body.Id}`, { headers: auth(owner), body: { room: 'red' } })).status).toBe(200);
        expect(await adaOnB.next((m) => m.type === 'rows', from)).toMatchObject({ op: 'update', rows: [], removed: [String(made.body.Id)] });

        // Ada leaves the table, then comes back and closes her socket: the owner on A is told each time.
        let seen = ownerOnA.messages.length;
        await adaOnB.ask({ type: 'unsubscribe', table: 'Meetings' });
        expect(await tookUntil(1000, async () => ownerOnA.presence('Meetings', seen).at(-1)?.users.length === 0)).not.toBeNull();
        await adaOnB.ask({ type: 'subscribe', table: 'Meetings' });
        expect(await tookUntil(1000, async () => ownerOnA.others('Meetings').join() === 'ada@example.com')).not.toBeNull();
        seen = ownerOnA.messages.length;
        adaOnB.ws.close();
        expect(await tookUntil(1000, async () => ownerOnA.presence('Meetings', seen).at(-1)?.users.length === 0)).not.toBeNull();

        // A third instance started now learns who is there at once; when it stops, its member goes from A.
        const c = await startInstance({ dataDir, metaDb: meta.url });
        try {
          const adaOnC = new LiveClient(c.url, projectId, { token: ada });
          await adaOnC.opened;
          await adaOnC.ask({ type: 'subscribe', table: 'Meetings' });
          expect(await tookUntil(1000, async () => adaOnC.others('Meetings').join() === 'owner@example.com')).not.toBeNull();
          expect(await tookUntil(1000, async () => ownerOnA.others('Meetings').join() === 'ada@example.com')).not.toBeNull();
          seen = ownerOnA.messages.length;
        } finally {
          await c.stop();
        }
        expect(await tookUntil(1000, async () => ownerOnA.presence('Meetings', seen).at(-1)?.users.length === 0)).not.toBeNull();
      } finally {
        ownerOnA.ws.close();
        adaOnB.ws.close();
      }
    });

    test('an import uploaded through A is previewed, started, followed and cancelled through B; a grid open on A sees its rows go in', async () => {
      const upload = async (on: Instance, csv: string) => {
        const form = new FormData();
        form.set('json', JSON.stringify({ api: 'importUpload', project_id: projectId, dbAlias: 'db', args: {} }));
        form.set('file', new File([csv], 'fruit.csv', { type: 'text/csv' }));
        const res = await fetch(`${on.url}/dashboard?q=sqlOp_importUpload`, { method: 'POST', headers: { 'xc-gui': 'true', ...auth(owner) }, body: form });
        expect(res.status).toBe(200);
        return ((await res.json()) as { uploadId: string }).uploadId;
      };
      const small = await upload(a, 'name,qty\napple,1\npear,2\n');
      expect((await op(b, owner, 'importPreview', { uploadId: small })).preview.columns.map((c: { header: string }) => c.header)).toEqual(['name', 'qty']);
      const job = await op(b, owner, 'importStart', { uploadId: small, create: { tn: 'fruit', _tn: 'Fruit' } });
      await waitFor('the import to end', async () => (await op(a, owner, 'importStatus', { jobId: job.id })).status !== 'running', 10_000);
      expect(await op(a, owner, 'importStatus', { jobId: job.id })).toMatchObject({ status: 'done', rowsImported: 2 });
      expect((await a.call('GET', `/nc/${projectId}/api/v1/Fruit`, { headers: auth(owner) })).body).toHaveLength(2);
      // The upload is gone for both once imported.
      for (const on of [a, b]) expect((await on.call('POST', '/dashboard?q=sqlOp_importPreview', { body: { api: 'importPreview', project_id: projectId, args: { uploadId: small } }, headers: { 'xc-gui': 'true', ...auth(owner) } })).status).toBe(404);

      // A grid of the table open on A sees the rows the import through B puts in, as they go in.
      const gridOnA = new LiveClient(a.url, projectId, { token: owner });
      await gridOnA.opened;
      await gridOnA.ask({ type: 'subscribe', table: 'Fruit' });
      const big = await upload(b, `name,qty\n${Array.from({ length: 20_000 }, (_, i) => `f${i},${i}`).join('\n')}\n`);
      const long = await op(b, owner, 'importStart', { uploadId: big, tn: 'fruit', batchSize: 10 });
      try {
        expect(await gridOnA.next((m) => m.type === 'rows' && m.op === 'insert' && m.rows.some((r: any) => r.name === 'f0'), 0, 15_000)).toMatchObject({ table: 'Fruit', by: 'owner@example.com' });
      } finally {
        gridOnA.ws.close();
      }
      await op(a, owner, 'importCancel', { jobId: long.id });
      await waitFor('the import to be cancelled', async () => (await op(a, owner, 'importStatus', { jobId: long.id })).status === 'cancelled', 10_000);
      expect((await op(b, owner, 'importStatus', { jobId: long.id })).status).toBe('cancelled');
    }, 60_000);

    test('sign-in attempts are counted across both instances', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const on = i % 2 ? b : a;
        statuses.push((await on.call('POST', '/auth/signin', { body: { email: 'nobody@example.com', password: 'wrong-password' } })).status);
      }
      // The limit is 10 per window (per e-mail and per IP; this IP signed in once before): counted
      // per instance, 12 attempts alternating between two would all have passed.
      const first = statuses.indexOf(429);
      expect(first).toBeGreaterThanOrEqual(8);
      expect(first).toBeLessThanOrEqual(10);
      expect(statuses.slice(first).every((s) => s === 429)).toBe(true);
      expect(statuses.slice(0, first).every((s) => s === 400 || s === 401)).toBe(true);
    }, 30_000);

    test('a file uploaded to a shared form through A is submitted through B and downloaded through A', async () => {
      await op(a, owner, 'columnAdd', { tn: 'task', column: { cn: 'photo', uidt: 'Attachment' } }, true);
      const form = await op(a, owner, 'xcVirtualTableCreate', { tn: 'task', title: 'Report', type: 'form', query_params: { form: { heading: 'Report', fields: [{ cn: 'title' }, { cn: 'photo' }] } } });
      const link = await op(a, owner, 'createSharedViewLink', { view_id: form.id });
      const body = new FormData();
      body.append('file', new File(['a picture'], 'pic.png', { type: 'image/png' }), 'pic.png');
      const up = await fetch(`${a.url}/api/v1/shared/${link.uuid}/attachments/photo`, { method: 'POST', body });
      const uploaded = (await up.json()) as any;
      expect(up.status, JSON.stringify(uploaded)).toBe(200);
      const made = await b.call('POST', `/api/v1/shared/${link.uuid}/rows`, { body: { title: 'with a picture', photo: uploaded.uploaded } });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const row = ((await tasks(a, auth(owner), '?where=(title,eq,with a picture)')).body as any[])[0];
      const file = await fetch(`${a.url}/nc/${projectId}/api/v1/Tasks/${row.Id}/attachments/photo/${uploaded.uploaded[0].id}`, { headers: auth(owner) });
      expect(await file.text()).toBe('a picture');
    });

    test('wrong passwords of a shared link are counted across both instances', async () => {
      const view = await op(a, owner, 'xcVirtualTableCreate', { tn: 'task', title: 'Guarded', type: 'grid', query_params: {} });
      const link = await op(a, owner, 'createSharedViewLink', { view_id: view.id, password: 'the right one' });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await (i % 2 ? b : a).call('GET', `/api/v1/shared/${link.uuid}/rows`, { headers: { 'xc-password': `guess ${i}` } })).status);
      // 10 per window and address: counted per instance, 12 guesses alternating between two would all be checked.
      expect(statuses).toEqual([...Array(10).fill(403), 429, 429]);
    }, 30_000);

    test('a store outage answers 503 {msg} on both; both recover by themselves', async () => {
      const tokens = (on: Instance) =>
        on.call('POST', '/dashboard?q=sqlOp_xcApiTokenList', { body: { api: 'xcApiTokenList', project_id: projectId }, headers: { 'xc-gui': 'true', ...auth(owner) } });
      expect((await tokens(a)).status).toBe(200);
      proxy.down();
      for (const on of [a, b]) {
        const res = await tokens(on);
        expect(res.status).toBe(503);
        expect(res.body.msg).toContain('metadata database is unreachable');
      }
      proxy.up();
      for (const on of [a, b]) expect(await tookUntil(10_000, async () => (await tokens(on)).status === 200)).not.toBeNull();
      // Invalidation works again after the outage.
      await op(a, owner, 'columnAdd', { tn: 'task', column: { cn: 'after', uidt: 'Number' } }, true);
      expect(await tookUntil(10_000, async () => (await tasks(b, auth(owner), "?fields=after")).status === 200)).not.toBeNull();
    }, 30_000);
  },
  ['pg'],
);
