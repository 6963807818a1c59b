/**
 * A DateTime column set to the time of each change (type option `touch`) on SQLite, PostgreSQL and
 * MariaDB: a table created from the dashboard has updated_at so; every update of a row through the
 * data core moves it forward (REST one row, bulk), created_at stays, a value the update gives itself
 * is kept, the answer and the write event carry the new value, the row history has no entry for it, and a
 * caller who may update other columns only moves it all the same.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, type TestEngine } from '../helpers/engines';
import type { WriteEvent } from '../../src/data/write-events';

setDefaultTimeout(30_000);

type Row = { id: number; title: string | null; created_at: string; updated_at: string };

describeEngines('updated_at set on each change', (engine: TestEngine) => {
  const name = `tablo_t_touch_${engine}`;
  let t: TestApp;
  let token: string;
  let projectId: string;
  const events: WriteEvent[] = [];
  let unsubscribe = () => {};

  const op = async (api: string, args: unknown) => {
    const res = await dashboardOp(t, token, api, { project_id: projectId, args, plus: true });
    if (res.status !== 200) throw new Error(`${api}: expected 200, got ${res.status} ${res.text.slice(0, 400)}`);
    return res.body;
  };
  const rest = async (method: string, path: string, body?: unknown) => {
    const res = await t.request(method, `/nc/${projectId}/api/v1/${path}`, { body, headers: { 'xc-auth': token } });
    if (res.status !== 200) throw new Error(`${method} ${path}: expected 200, got ${res.status} ${res.text.slice(0, 400)}`);
    return res.body;
  };
  const history = async (pk: number) => (await op('rowHistory', { tn: 'note', pk: String(pk) })).data.list as { op: string; column: string | null }[];

  beforeAll(async () => {
    t = await makeTestApp();
    token = (await signupSuperAdmin(t)).token;
    const cfg = await freshDatabase(engine, name);
    let connection = cfg.connection as Record<string, unknown>;
    if (engine === 'sqlite') {
      await Bun.write(join(t.dataDir, `${name}.sqlite`), Bun.file(cfg.connection.filename!));
      connection = { filename: `${name}.sqlite` };
    }
    const res = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: `Touch ${engine}`, inflectionColumn: 'none', db: { client: engine, connection } } });
    if (res.status !== 200) throw new Error(res.text);
    projectId = res.body.id;
    // The default columns: id, title, created_at, updated_at.
    await op('tableCreate', { tn: 'note', _tn: 'Notes' });
    unsubscribe = t.app.ctx.writeEvents.subscribe((e) => void events.push(e));
  });
  afterAll(async () => {
    unsubscribe();
    await t.close();
    await dropDatabase(engine, name);
  });

  test('tableCreate: updated_at has the option on, created_at off', async () => {
    const cols = Object.fromEntries(((await op('tableMeta', { tn: 'note' })).columns as { cn: string; meta: unknown }[]).map((c) => [c.cn, c.meta]));
    expect(cols.updated_at).toEqual({ touch: true });
    expect(cols.created_at).toEqual({ touch: false });
  });

  test('updates move updated_at forward (one row, bulk), keep a value given, and leave no history entry for it', async () => {
    const made: Row[] = [];
    for (const title of ['a', 'b', 'c', 'd']) made.push((await rest('POST', 'note', { title })) as Row);
    for (const r of made) expect(r.updated_at).toBe(r.created_at);
    // The engines here keep seconds (SQLite, MariaDB): a second later the time differs.
    await Bun.sleep(1100);
    const [a, b, c, d] = made as [Row, Row, Row, Row];

    // One row through REST: the answer carries the new time; created_at stays.
    events.length = 0;
    const answer = (await rest('PUT', `note/${a.id}`, { title: 'a2' })) as Row;
    expect(answer.title).toBe('a2');
    expect(answer.updated_at > a.updated_at).toBe(true);
    expect(answer.updated_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(Math.abs(Date.parse(`${answer.updated_at.replace(' ', 'T')}Z`) - Date.now())).toBeLessThan(60_000);
    expect(answer.created_at).toBe(a.created_at);
    const read = (await rest('GET', `note/${a.id}`)) as Row;
    expect(read.updated_at).toBe(answer.updated_at);
    expect(read.created_at).toBe(a.created_at);
    // The write event (realtime, webhooks) carries it too.
    await Bun.sleep(20);
    const written = events.filter((e) => e.tn === 'note' && e.op === 'update').flatMap((e) => e.rows);
    expect(written.map((w) => w.data.updated_at)).toEqual([answer.updated_at]);
    // A filter on the value found it (the format of a user-written time).
    const found = (await rest('GET', `note?where=${encodeURIComponent(`(updated_at,eq,${answer.updated_at})`)}`)) as Row[];
    expect(found.map((r) => r.id)).toContain(a.id);

    // A value the update gives itself is kept.
    const given = (await rest('PUT', `note/${b.id}`, { title: 'b2', updated_at: '2001-02-03 04:05:06' })) as Row;
    expect(given.updated_at).toBe('2001-02-03 04:05:06');
    expect(((await rest('GET', `note/${b.id}`)) as Row).updated_at).toBe('2001-02-03 04:05:06');

    // A bulk update moves it for every row.
    await rest('PUT', 'note/bulk', [{ id: c.id, title: 'c2' }, { id: d.id, title: 'd2' }]);
    for (const r of [c, d]) {
      const now = (await rest('GET', `note/${r.id}`)) as Row;
      expect(now.updated_at > r.updated_at).toBe(true);
      expect(now.created_at).toBe(r.created_at);
    }

    // The history names the columns the caller changed, never the time set by itself.
    expect((await history(a.id)).filter((h) => h.op === 'update').map((h) => h.column)).toEqual(['title']);
    expect((await history(c.id)).filter((h) => h.op === 'update').map((h) => h.column)).toEqual(['title']);
    expect((await history(b.id)).filter((h) => h.op === 'update').map((h) => h.column).sort()).toEqual(['title', 'updated_at']);
  });

  test('an editor who may update only title still moves updated_at (no right of its own needed)', async () => {
    await op('aclSave', { tn: 'note', role: 'editor', rule: { read: true, create: true, update: ['title'], delete: false, where: null } });
    const r = (await rest('POST', 'note', { title: 'f' })) as Row;
    await Bun.sleep(1100);
    const asEditor = (body: unknown) => t.request('PUT', `/nc/${projectId}/api/v1/note/${r.id}`, { body, headers: { 'xc-auth': token, 'xc-preview': 'editor' } });
    const res = await asEditor({ title: 'f2' });
    expect(res.status).toBe(200);
    expect((res.body as Row).updated_at > r.updated_at).toBe(true);
    // Setting it by hand is still a write of that column, which the editor may not do.
    expect((await asEditor({ updated_at: '2001-02-03 04:05:06' })).status).toBe(403);
    await op('aclSave', { tn: 'note', role: 'editor', rule: null });
  });

  test('the option switched off: updates leave updated_at as it is', async () => {
    await op('columnUpdate', { tn: 'note', cn: 'updated_at', column: { meta: { touch: false } } });
    const r = (await rest('POST', 'note', { title: 'e' })) as Row;
    await Bun.sleep(1100);
    expect(((await rest('PUT', `note/${r.id}`, { title: 'e2' })) as Row).updated_at).toBe(r.updated_at);
  });
});
