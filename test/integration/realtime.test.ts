/**
 * Realtime over a real server and real websockets: writes through REST, GraphQL, bulk calls and a
 * shared form reach every open client of the table at once, each with only the rows and columns
 * they may read (the frames of a viewer never hold a hidden column's value); a row that leaves a
 * viewer's rule arrives as removed; schema changes are announced; refused upgrades say why.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import { postJson, serveTestApp, type ServedApp } from '../helpers/terminal';
import { loadChinook } from '../helpers/chinook';
import { dropDatabase } from '../helpers/engines';
import { LiveClient } from '../helpers/live-client';

setDefaultTimeout(30_000);

async function upgrade(base: string, query: string, headers: Record<string, string>) {
  const res = await fetch(`${base}/api/v1/realtime${query}`, { headers: { Upgrade: 'websocket', Connection: 'Upgrade', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13', ...headers } });
  return { status: res.status, body: await res.json().catch(() => null) };
}

let t: ServedApp;
let owner = '';
let viewer = '';
let outsider = '';
let pid = '';
const clients: LiveClient[] = [];
const api = (path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${t.base}${path}`, { ...init, headers: { 'content-type': 'application/json', 'xc-auth': init.token ?? owner, ...(init.headers as Record<string, string>) } }).then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) }));
const op = (api_: string, args: unknown, token = owner) => api(`/dashboard?q=sqlOp_${api_}`, { method: 'POST', token, body: JSON.stringify({ api: api_, project_id: pid, args }) });

beforeAll(async () => {
  t = await serveTestApp({ host: '127.0.0.1', allowSignup: true });
  owner = (await postJson(t.base, '/auth/signup', { email: 'owner@example.com', password: 'password123' })).token;
  const cfg = await loadChinook('sqlite', 'tablo_t_realtime', { fresh: true });
  await Bun.write(join(t.dataDir, 'live.sqlite'), Bun.file(cfg.connection.filename!));
  pid = (await op('projectCreateByWeb', { title: 'Live', db: { client: 'sqlite', connection: { filename: 'live.sqlite' } } })).body.id;
  const invite = await api('/admin', { method: 'POST', body: JSON.stringify({ email: 'viewer@example.com', roles: 'viewer', project_id: pid }) });
  viewer = (await postJson(t.base, '/auth/signup', { email: 'viewer@example.com', password: 'password123', token: String(invite.body.invite_url).split('/signup/')[1] })).token;
  outsider = (await postJson(t.base, '/auth/signup', { email: 'outsider@example.com', password: 'password123' })).token;
  const cols = (await op('tableMeta', { tn: 'Customer' })).body.columns as { cn: string; _cn: string }[];
  const rule = { read: cols.filter((c) => c._cn !== 'Phone').map((c) => c.cn), create: false, update: false, delete: false, where: '(Country,eq,Brazil)' };
  expect((await op('aclSave', { tn: 'Customer', role: 'viewer', rule })).status).toBe(200);
});
afterAll(async () => {
  for (const c of clients) c.ws.close();
  await t.close();
  await dropDatabase('sqlite', 'tablo_t_realtime');
});

const live = async (token: string) => {
  const c = new LiveClient(t.base, pid, { token });
  clients.push(c);
  await c.opened;
  await c.next((m) => m.type === 'hello');
  c.send({ type: 'subscribe', table: 'Customer' });
  await c.next((m) => m.type === 'ok');
  return c;
};

describe('realtime', () => {
  test('upgrades without a session, from a foreign origin or by a non-member are refused with a reason', async () => {
    expect(await upgrade(t.base, `?project_id=${pid}`, {})).toEqual({ status: 401, body: { msg: 'Not signed in' } });
    expect(await upgrade(t.base, `?project_id=${pid}`, { 'Sec-WebSocket-Protocol': `tablo.jwt.${owner}`, Origin: 'https://evil.example' })).toEqual({ status: 403, body: { msg: 'This origin may not open the realtime socket' } });
    expect(await upgrade(t.base, `?project_id=${pid}`, { 'Sec-WebSocket-Protocol': `tablo.jwt.${outsider}` })).toEqual({ status: 403, body: { msg: 'Not a member of this project' } });
    expect((await upgrade(t.base, '', { 'Sec-WebSocket-Protocol': `tablo.jwt.${owner}` })).status).toBe(400);
  });

  test('REST, GraphQL and bulk writes reach each reader within a second, with only what they may see', async () => {
    const o = await live(owner);
    const v = await live(viewer);
    let from = [o.messages.length, v.messages.length];

    // A Brazilian customer (in the viewer's rule) changed through REST.
    expect((await api(`/nc/${pid}/api/v1/Customer/1`, { method: 'PUT', body: JSON.stringify({ Phone: '+55 111 secret', City: 'Recife' }) })).status).toBe(200);
    const seenByOwner = await o.next((m) => m.type === 'rows' && m.op === 'update', from[0]);
    expect(seenByOwner.rows[0]).toMatchObject({ CustomerId: 1, City: 'Recife', Phone: '+55 111 secret' });
    const seenByViewer = await v.next((m) => m.type === 'rows' && m.op === 'update', from[1]);
    expect(seenByViewer.rows[0]).toMatchObject({ CustomerId: 1, City: 'Recife' });
    expect('Phone' in seenByViewer.rows[0]).toBe(false);

    // A German customer through GraphQL: the owner sees it, the viewer gets nothing.
    from = [o.messages.length, v.messages.length];
    const gql = await api(`/nc/${pid}/v1/graphql`, { method: 'POST', body: JSON.stringify({ query: 'mutation { CustomerUpdate(id: "2", data: { City: "Berlin" }) { CustomerId } }' }) });
    expect(gql.body.errors).toBeUndefined();
    await o.next((m) => m.type === 'rows' && m.rows[0]?.CustomerId === 2, from[0]);
    // A bulk insert of two rows, one Brazilian.
    const bulk = await api(`/nc/${pid}/api/v1/Customer/bulk`, { method: 'POST', body: JSON.stringify([
      { CustomerId: 9001, FirstName: 'Ana', LastName: 'Lima', Email: 'ana@example.com', Phone: '+55 999 secret', Country: 'Brazil' },
      { CustomerId: 9002, FirstName: 'Jan', LastName: 'Berg', Email: 'jan@example.com', Phone: '+49 999 secret', Country: 'Germany' },
    ]) });
    expect(bulk.status).toBe(200);
    const inserted = await o.next((m) => m.type === 'rows' && m.op === 'insert', from[0]);
    expect(inserted.rows.map((r: { CustomerId: number }) => r.CustomerId).sort()).toEqual([9001, 9002]);
    const viewerInsert = await v.next((m) => m.type === 'rows' && m.op === 'insert', from[1]);
    expect(viewerInsert.rows.map((r: { CustomerId: number }) => r.CustomerId)).toEqual([9001]);

    // Moving Ana out of Brazil takes her away from the viewer; deleting Jan tells only the owner.
    from = [o.messages.length, v.messages.length];
    await api(`/nc/${pid}/api/v1/Customer/9001`, { method: 'PUT', body: JSON.stringify({ Country: 'Chile' }) });
    expect(await v.next((m) => m.type === 'rows', from[1])).toMatchObject({ op: 'update', rows: [], removed: ['9001'] });
    await api(`/nc/${pid}/api/v1/Customer/9002`, { method: 'DELETE' });
    expect(await o.next((m) => m.type === 'rows' && m.op === 'delete', from[0])).toMatchObject({ removed: ['9002'] });

    // No frame the viewer got holds a hidden value or a row outside the rule.
    const viewerText = v.frames.join('\n');
    for (const secret of ['+55 111 secret', '+55 999 secret', '+49 999 secret', 'Berlin', 'Jan']) expect(viewerText.includes(secret)).toBe(false);
  });

  test('a shared form submission reaches open grids too', async () => {
    const o = await live(owner);
    const view = await op('xcVirtualTableCreate', { tn: 'Genre', title: 'Suggest a genre', type: 'form', query_params: { form: { heading: 'Genres', fields: [{ cn: 'GenreId' }, { cn: 'Name', required: true }] } } });
    expect(view.status).toBe(200);
    const link = await op('createSharedViewLink', { view_id: view.body.id });
    o.send({ type: 'subscribe', table: 'Genre' });
    await o.next((m) => m.type === 'ok' && m.tables.includes('Genre'));
    const from = o.messages.length;
    const submitted = await fetch(`${t.base}/api/v1/shared/${link.body.uuid}/rows`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ GenreId: 777, Name: 'Polka' }) });
    expect(submitted.status).toBe(200);
    expect((await o.next((m) => m.type === 'rows' && m.table === 'Genre', from)).rows[0]).toMatchObject({ GenreId: 777, Name: 'Polka' });
  });

  test('schema changes are announced to the project\'s clients', async () => {
    const o = await live(owner);
    const from = o.messages.length;
    expect((await op('metaSync', {})).status).toBe(200);
    await o.next((m) => m.type === 'schema', from);
  });

  test('a change of a table\'s saved views is announced to the clients that show the table, and only to them', async () => {
    const o = await live(owner);
    const v = await live(viewer);
    v.send({ type: 'unsubscribe', table: 'Customer' });
    await v.next((m) => m.type === 'ok' && !m.tables.includes('Customer'));
    const from = [o.messages.length, v.messages.length];
    const views = (await op('xcVirtualTableList', { tn: 'Customer' })).body.data.list as { id: string; query_params: object }[];
    expect((await op('xcVirtualTableUpdate', { id: views[0]!.id, query_params: { ...views[0]!.query_params, sort: '-City' } })).status).toBe(200);
    expect(await o.next((m) => m.type === 'views', from[0])).toEqual({ type: 'views', table: 'Customer' });
    const made = await op('xcVirtualTableCreate', { tn: 'Customer', title: 'By country', type: 'grid' });
    expect(made.status).toBe(200);
    expect((await op('xcVirtualTableDelete', { id: made.body.id })).status).toBe(200);
    await Bun.sleep(100);
    expect(o.messages.slice(from[0]).filter((m) => m.type === 'views')).toHaveLength(3);
    expect(v.messages.slice(from[1]).some((m) => m.type === 'views')).toBe(false);
  });

  test('a member taken out of the project has their socket ended (4403) at once, before any row is sent', async () => {
    const invite = await api('/admin', { method: 'POST', body: JSON.stringify({ email: 'leaver@example.com', roles: 'editor', project_id: pid }) });
    expect(invite.status).toBe(200);
    const leaver = (await postJson(t.base, '/auth/signup', { email: 'leaver@example.com', password: 'password123', token: String(invite.body.invite_url).split('/signup/')[1] })).token;
    const l = await live(leaver);
    const members = (await api(`/admin?project_id=${pid}`)).body.list as { id: string; email: string }[];
    const id = members.find((m) => m.email === 'leaver@example.com')!.id;
    expect((await api(`/admin/${id}?project_id=${pid}`, { method: 'DELETE' })).status).toBe(200);
    const from = l.messages.length;
    for (let i = 0; i < 200 && !l.closed; i++) await Bun.sleep(10);
    expect(l.closed).toEqual({ code: 4403, reason: 'Not a member of this project' });
    expect((await api(`/nc/${pid}/api/v1/Customer/1`, { method: 'PUT', body: JSON.stringify({ City: 'Campinas' }) })).status).toBe(200);
    expect(l.messages.slice(from).some((m) => m.type === 'rows')).toBe(false);
    // The other members' sockets stay open.
    const o = await live(owner);
    expect((await api('/admin', { method: 'POST', body: JSON.stringify({ email: 'newcomer@example.com', roles: 'viewer', project_id: pid }) })).status).toBe(200);
    const at = o.messages.length;
    expect((await api(`/nc/${pid}/api/v1/Customer/1`, { method: 'PUT', body: JSON.stringify({ City: 'São José dos Campos' }) })).status).toBe(200);
    await o.next((m) => m.type === 'rows', at);
    expect(o.closed).toBeNull();
  });

  test('a member whose account the Super Admin disables has their socket ended (4401) at once', async () => {
    const invite = await api('/admin', { method: 'POST', body: JSON.stringify({ email: 'disabled@example.com', roles: 'viewer', project_id: pid }) });
    const token = (await postJson(t.base, '/auth/signup', { email: 'disabled@example.com', password: 'password123', token: String(invite.body.invite_url).split('/signup/')[1] })).token;
    const d = await live(token);
    const o = await live(owner);
    const users = (await api('/admin/users?search=disabled%40example.com')).body.list as { id: string }[];
    expect((await api(`/admin/users/${users[0]!.id}`, { method: 'PUT', body: JSON.stringify({ disabled: true }) })).status).toBe(200);
    for (let i = 0; i < 200 && !d.closed; i++) await Bun.sleep(10);
    expect(d.closed?.code).toBe(4401);
    expect(o.closed).toBeNull();
  });

  test('a member whose role changes is told to read their rights again; the others are not', async () => {
    const invite = await api('/admin', { method: 'POST', body: JSON.stringify({ email: 'demoted@example.com', roles: 'editor', project_id: pid }) });
    const token = (await postJson(t.base, '/auth/signup', { email: 'demoted@example.com', password: 'password123', token: String(invite.body.invite_url).split('/signup/')[1] })).token;
    const d = await live(token);
    const o = await live(owner);
    const from = [d.messages.length, o.messages.length];
    const members = (await api(`/admin?project_id=${pid}`)).body.list as { id: string; email: string }[];
    const id = members.find((m) => m.email === 'demoted@example.com')!.id;
    expect((await api(`/admin/${id}`, { method: 'PUT', body: JSON.stringify({ roles: 'viewer', project_id: pid }) })).status).toBe(200);
    expect(await d.next((m) => m.type === 'schema', from[0])).toEqual({ type: 'schema' });
    expect(d.closed).toBeNull();
    // The owner's socket, whose roles did not change, hears of the next write and of no schema change.
    expect((await api(`/nc/${pid}/api/v1/Customer/1`, { method: 'PUT', body: JSON.stringify({ City: 'Campinas' }) })).status).toBe(200);
    await o.next((m) => m.type === 'rows', from[1]);
    expect(o.messages.slice(from[1]).some((m) => m.type === 'schema')).toBe(false);
  });
});

describe('realtime of imports', () => {
  test('rows imported into a table open elsewhere reach its readers as inserts, named by who imported them', async () => {
    const c = new LiveClient(t.base, pid, { token: viewer });
    clients.push(c);
    await c.opened;
    await c.ask({ type: 'subscribe', table: 'Genre' });
    const from = c.messages.length;
    const form = new FormData();
    form.set('json', JSON.stringify({ api: 'importUpload', project_id: pid, dbAlias: 'db', args: { tn: 'Genre' } }));
    form.set('file', new Blob(['Name\nSea shanty\nPolka\n']), 'genres.csv');
    const up = await fetch(`${t.base}/dashboard?q=sqlOp_importUpload`, { method: 'POST', headers: { 'xc-gui': 'true', 'xc-auth': owner }, body: form }).then((r) => r.json() as Promise<any>);
    const started = await op('importStart', { uploadId: up.uploadId, tn: 'Genre' });
    expect(started.status).toBe(200);
    const m = await c.next((x) => x.type === 'rows' && x.table === 'Genre', from, 5000);
    expect(m).toMatchObject({ op: 'insert', by: 'owner@example.com' });
    expect(m.rows.map((r: any) => r.Name).sort()).toEqual(['Polka', 'Sea shanty']);

    // All or nothing: the rows are told once the whole import committed; one that rolled back tells nothing.
    const importAll = async (csv: string) => {
      const form = new FormData();
      form.set('json', JSON.stringify({ api: 'importUpload', project_id: pid, dbAlias: 'db', args: { tn: 'Genre' } }));
      form.set('file', new Blob([csv]), 'genres.csv');
      const up = await fetch(`${t.base}/dashboard?q=sqlOp_importUpload`, { method: 'POST', headers: { 'xc-gui': 'true', 'xc-auth': owner }, body: form }).then((r) => r.json() as Promise<any>);
      const started = await op('importStart', { uploadId: up.uploadId, tn: 'Genre', allOrNothing: true, onError: 'stop' });
      expect(started.status).toBe(200);
      for (let i = 0; i < 500; i++) {
        const s = await op('importStatus', { jobId: started.body.id });
        if (s.body.status !== 'running') return s.body;
        await Bun.sleep(10);
      }
      throw new Error('the import did not end');
    };
    const before = c.messages.length;
    expect((await importAll(`GenreId,Name\n9001,Lost one\n1,Taken key\n`)).rolledBack).toBe(true);
    const after = c.messages.length;
    expect((await importAll('Name\nZydeco\n')).status).toBe('done');
    const told = await c.next((x) => x.type === 'rows' && x.table === 'Genre', after, 5000);
    expect(told.rows.map((r: any) => r.Name)).toEqual(['Zydeco']);
    expect(c.messages.slice(before).filter((x) => x.type === 'rows').flatMap((x) => x.rows.map((r: any) => r.Name))).toEqual(['Zydeco']);
  });
});
