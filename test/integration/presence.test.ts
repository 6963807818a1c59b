/**
 * Presence over a real server and real websockets: a member who subscribes a table is seen by the
 * others there and they by them; several sockets of one user count once; leaving (unsubscribe or a
 * closed socket) is told; a member who may not read the table neither sees nor is seen; an API token
 * has no presence. Row changes name the member who wrote them (an open editor says who changed its cell).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import { postJson, serveTestApp, type ServedApp } from '../helpers/terminal';
import { loadChinook } from '../helpers/chinook';
import { dropDatabase } from '../helpers/engines';
import { LiveClient } from '../helpers/live-client';

setDefaultTimeout(30_000);

let t: ServedApp;
let owner = '';
let editor = '';
let viewer = '';
let apiToken = '';
let pid = '';
const clients: LiveClient[] = [];
const api = (path: string, body: unknown) =>
  fetch(`${t.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'xc-auth': owner }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) }));
const op = (name: string, args: unknown) => api(`/dashboard?q=sqlOp_${name}`, { api: name, project_id: pid, args });
const member = async (email: string, roles: string) => {
  const invite = await api('/admin', { email, roles, project_id: pid });
  return (await postJson(t.base, '/auth/signup', { email, password: 'password123', token: String(invite.body.invite_url).split('/signup/')[1] })).token as string;
};

beforeAll(async () => {
  t = await serveTestApp({ host: '127.0.0.1', allowSignup: true });
  owner = (await postJson(t.base, '/auth/signup', { email: 'owner@example.com', password: 'password123' })).token;
  const cfg = await loadChinook('sqlite', 'tablo_t_presence', { fresh: true });
  await Bun.write(join(t.dataDir, 'here.sqlite'), Bun.file(cfg.connection.filename!));
  pid = (await op('projectCreateByWeb', { title: 'Here', db: { client: 'sqlite', connection: { filename: 'here.sqlite' } } })).body.id;
  editor = await member('editor@example.com', 'editor');
  viewer = await member('viewer@example.com', 'viewer');
  expect((await op('aclSave', { tn: 'Album', role: 'viewer', rule: { read: false, create: false, update: false, delete: false } })).status).toBe(200);
  apiToken = (await api('/dashboard?q=sqlOp_xcApiTokenCreate', { api: 'xcApiTokenCreate', project_id: pid, args: { description: 'script', role: 'editor' } })).body.token;
});
afterAll(async () => {
  for (const c of clients) c.ws.close();
  await t.close();
  await dropDatabase('sqlite', 'tablo_t_presence');
});

const live = async (auth: { token?: string; apiToken?: string }, table: string) => {
  const c = new LiveClient(t.base, pid, auth);
  clients.push(c);
  await c.opened;
  await c.next((m) => m.type === 'hello');
  await c.ask({ type: 'subscribe', table });
  return c;
};

describe('presence', () => {
  test('members on one table see each other arrive and leave; two sockets of one user count once', async () => {
    const o = await live({ token: owner }, 'Customer');
    expect(o.presence('Customer')).toEqual([{ type: 'presence', table: 'Customer', users: [] }]);

    const e1 = await live({ token: editor }, 'Customer');
    expect(e1.others('Customer')).toEqual(['owner@example.com']);
    const seen = await o.next((m) => m.type === 'presence' && m.users.length === 1);
    expect(seen.users[0]).toMatchObject({ email: 'editor@example.com', color: expect.stringMatching(/^#[0-9a-f]{6}$/) });
    expect(typeof seen.users[0].id).toBe('string');

    // A second tab of the editor: it sees the owner; the owner is told nothing new.
    let from = o.messages.length;
    const e2 = await live({ token: editor }, 'Customer');
    expect(e2.others('Customer')).toEqual(['owner@example.com']);
    await o.ask({ type: 'ping', table: 'Customer' });
    expect(o.presence('Customer', from)).toEqual([]);

    // One tab closed: the editor is still there.
    e1.ws.close();
    await o.ask({ type: 'ping', table: 'Customer' });
    expect(o.others('Customer')).toEqual(['editor@example.com']);

    // The other tab shows another table: the editor has left Customer, and is alone on Invoice.
    from = o.messages.length;
    await e2.ask({ type: 'unsubscribe', table: 'Customer' });
    await o.next((m) => m.type === 'presence' && m.users.length === 0, from);
    await e2.ask({ type: 'subscribe', table: 'Invoice' });
    expect(e2.others('Invoice')).toEqual([]);

    // Back on Customer, then the socket closes: the owner sees the editor come and go.
    from = o.messages.length;
    await e2.ask({ type: 'subscribe', table: 'Customer' });
    await o.next((m) => m.type === 'presence' && m.users.length === 1, from);
    from = o.messages.length;
    e2.ws.close();
    await o.next((m) => m.type === 'presence' && m.users.length === 0, from);
    o.ws.close();
  });

  test('a member who may not read the table neither sees nor is seen there; an API token has no presence', async () => {
    const o = await live({ token: owner }, 'Album');
    const v = await live({ token: viewer }, 'Album');
    expect(v.presence('Album')).toEqual([]);
    await o.ask({ type: 'ping', table: 'Album' });
    expect(o.others('Album')).toEqual([]);

    // On a table the viewer may read, both see each other.
    const from = o.messages.length;
    await o.ask({ type: 'subscribe', table: 'Artist' });
    await v.ask({ type: 'subscribe', table: 'Artist' });
    expect(v.others('Artist')).toEqual(['owner@example.com']);
    await o.next((m) => m.type === 'presence' && m.table === 'Artist' && m.users.length === 1, from);
    expect(o.others('Artist')).toEqual(['viewer@example.com']);

    const script = await live({ apiToken }, 'Artist');
    expect(script.presence('Artist')).toEqual([]);
    await o.ask({ type: 'ping', table: 'Artist' });
    expect(o.others('Artist')).toEqual(['viewer@example.com']);
    expect(t.app.realtime.presence(pid, 'Artist').map((u) => u.email).sort()).toEqual(['owner@example.com', 'viewer@example.com']);
  });

  test('a member whose new role may read the table joins those there; one whose role may not leaves them', async () => {
    const o = await live({ token: owner }, 'Album');
    const v = await live({ token: viewer }, 'Album');
    const members = (await fetch(`${t.base}/admin?project_id=${pid}`, { headers: { 'xc-auth': owner } }).then((r) => r.json()) as any).list as { id: string; email: string }[];
    const id = members.find((m) => m.email === 'viewer@example.com')!.id;
    const role = (roles: string) => fetch(`${t.base}/admin/${id}`, { method: 'PUT', headers: { 'content-type': 'application/json', 'xc-auth': owner }, body: JSON.stringify({ roles, project_id: pid }) });
    let from = o.messages.length;
    expect((await role('editor')).status).toBe(200);
    await o.next((m) => m.type === 'presence' && m.table === 'Album' && m.users.some((u: any) => u.email === 'viewer@example.com'), from);
    expect(v.others('Album')).toEqual(['owner@example.com']);
    from = o.messages.length;
    expect((await role('viewer')).status).toBe(200);
    await o.next((m) => m.type === 'presence' && m.table === 'Album' && !m.users.some((u: any) => u.email === 'viewer@example.com'), from);
  });

  test('a row change names the signed-in member who wrote it; a script with an API token is not named', async () => {
    const v = await live({ token: viewer }, 'Genre');
    let from = v.messages.length;
    const put = (auth: Record<string, string>, name: string) => fetch(`${t.base}/nc/${pid}/api/v1/Genre/1`, { method: 'PUT', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ Name: name }) });
    expect((await put({ 'xc-auth': editor }, 'Rock and Roll')).status).toBe(200);
    expect(await v.next((m) => m.type === 'rows' && m.rows[0]?.Name === 'Rock and Roll', from)).toMatchObject({ op: 'update', by: 'editor@example.com' });
    from = v.messages.length;
    expect((await put({ 'xc-token': apiToken }, 'Rock')).status).toBe(200);
    const scripted = await v.next((m) => m.type === 'rows' && m.rows[0]?.Name === 'Rock', from);
    expect('by' in scripted).toBe(false);
  });
});
