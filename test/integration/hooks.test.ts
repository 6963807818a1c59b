/**
 * Webhooks against a real HTTP receiver on 127.0.0.1: every write path fires (REST, the grid,
 * bulk calls, GraphQL, child rows) after the commit, conditions filter, the signature verifies,
 * 5xx answers are retried then marked error, a slow receiver does not hold writes, bad input
 * answers 400, and (once) pending deliveries survive a restart. SQLite, PostgreSQL and MariaDB.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHmac } from 'node:crypto';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, runScript, type TestEngine } from '../helpers/engines';
import { startReceiver, waitFor } from '../helpers/receiver';

const DDL: Record<string, string> = {
  sqlite: `CREATE TABLE hook_items (id INTEGER PRIMARY KEY AUTOINCREMENT, name VARCHAR(100) NOT NULL, qty INTEGER, status VARCHAR(20));
    CREATE TABLE hook_tags (id INTEGER PRIMARY KEY AUTOINCREMENT, label VARCHAR(50));
    CREATE TABLE hook_item_tags (item_id INTEGER NOT NULL REFERENCES hook_items(id), tag_id INTEGER NOT NULL REFERENCES hook_tags(id), PRIMARY KEY (item_id, tag_id));`,
  pg: `CREATE TABLE hook_items (id SERIAL PRIMARY KEY, name VARCHAR(100) NOT NULL, qty INTEGER, status VARCHAR(20));
    CREATE TABLE hook_tags (id SERIAL PRIMARY KEY, label VARCHAR(50));
    CREATE TABLE hook_item_tags (item_id INTEGER NOT NULL REFERENCES hook_items(id), tag_id INTEGER NOT NULL REFERENCES hook_tags(id), PRIMARY KEY (item_id, tag_id));`,
  mysql: `CREATE TABLE hook_items (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL, qty INT, status VARCHAR(20));
    CREATE TABLE hook_tags (id INT AUTO_INCREMENT PRIMARY KEY, label VARCHAR(50));
    CREATE TABLE hook_item_tags (item_id INT NOT NULL, tag_id INT NOT NULL, PRIMARY KEY (item_id, tag_id), FOREIGN KEY (item_id) REFERENCES hook_items(id), FOREIGN KEY (tag_id) REFERENCES hook_tags(id));`,
};

describeEngines('webhooks', (engine: TestEngine) => {
  const db = `tablo_t_hooks_${engine}`;
  const rx = startReceiver();
  let t: TestApp;
  let token = '';
  let projectId = '';
  let base = '';
  const op = (api: string, args?: unknown) => dashboardOp(t, token, api, { project_id: projectId, args });
  const rest = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    t.request(method, `${base}/${path}`, { body, headers: { 'xc-auth': token, ...headers } });
  const gql = async (query: string) => (await t.request('POST', `/nc/${projectId}/v1/graphql`, { headers: { 'xc-auth': token }, body: { query } })).body;
  const hook = async (title: string, event: string, path: string, extra: Record<string, unknown> = {}) => {
    const res = await op('xcHookCreate', { tn: 'hook_items', title, event, notification: { type: 'url', url: rx.url(path) }, ...extra });
    expect(res.status).toBe(200);
    return res.body as { id: string; secret: string };
  };
  const names = (path: string) => rx.at(path).map((r) => r.json.data.Name).sort();

  beforeAll(async () => {
    t = await makeTestApp({ hookRetryBaseMs: 20, hookPollMs: 20, apiClientAllowPrivate: true });
    token = (await signupSuperAdmin(t, 'owner@example.com')).token;
    const cfg = await freshDatabase(engine, db);
    await runScript(engine, db, DDL[engine]!);
    projectId = await projectOver(t, token, engine, `Hooks ${engine}`, cfg);
    base = `/nc/${projectId}/api/v1`;
  });
  afterAll(async () => {
    await t.close();
    rx.stop();
    await dropDatabase(engine, db);
  });

  test('every write path fires once per committed row, with data and previous', async () => {
    const ins = await hook('inserts', 'after.insert', '/w/insert');
    await hook('updates', 'after.update', '/w/update');
    await hook('deletes', 'after.delete', '/w/delete');
    const a = (await rest('POST', 'hook_items', { Name: 'rest', Qty: 1 })).body;
    expect((await rest('POST', 'hook_items', { Name: 'grid', Qty: 2 }, { 'xc-gui': 'true' })).status).toBe(200);
    expect((await rest('POST', 'hook_items/bulk', [{ Name: 'bulk1' }, { Name: 'bulk2' }])).status).toBe(200);
    const g = await gql('mutation { HookItemsCreate(data: { Name: "gql", Qty: 3 }) { Id } }');
    expect(g.errors).toBeUndefined();
    // Writes that do not commit announce nothing: a bad value, and a bulk call rolled back by its second row.
    expect((await rest('POST', 'hook_items', { Qty: 1 })).status).toBe(400);
    expect((await rest('POST', 'hook_items/bulk', [{ Name: 'rolled back' }, { Qty: 'x' }])).status).toBe(400);
    await waitFor('5 insert deliveries', () => rx.at('/w/insert').length >= 5);
    expect(names('/w/insert')).toEqual(['bulk1', 'bulk2', 'gql', 'grid', 'rest']);
    const first = rx.at('/w/insert').find((r) => r.json.data.Name === 'rest')!;
    expect(first.json).toMatchObject({ event: 'after.insert', table: 'HookItems', data: { Id: a.Id, Name: 'rest', Qty: 1 }, hook: { id: ins.id, title: 'inserts' } });
    expect(first.json.previous).toBeUndefined();
    expect(Date.parse(first.json.at)).toBeGreaterThan(0);

    const ids = (await rest('GET', 'hook_items?sort=Id')).body.map((r: any) => r.Id);
    expect((await rest('PUT', `hook_items/${ids[0]}`, { Qty: 10 })).status).toBe(200);
    expect((await rest('PUT', 'hook_items/bulk', [{ Id: ids[1], Qty: 20 }])).status).toBe(200);
    expect((await gql(`mutation { HookItemsUpdate(id: "${ids[2]}", data: { Qty: 30 }) { Id } }`)).errors).toBeUndefined();
    await waitFor('3 update deliveries', () => rx.at('/w/update').length >= 3);
    const upd = rx.at('/w/update').find((r) => r.json.data.Id === ids[0])!;
    expect(upd.json).toMatchObject({ event: 'after.update', data: { Qty: 10, Name: 'rest' }, previous: { Qty: 1, Name: 'rest' } });

    expect((await rest('DELETE', `hook_items/${ids[0]}`)).status).toBe(200);
    expect((await rest('DELETE', 'hook_items/bulk', [String(ids[1])])).status).toBe(200);
    expect((await gql(`mutation { HookItemsDelete(id: "${ids[2]}") }`)).errors).toBeUndefined();
    await waitFor('3 delete deliveries', () => rx.at('/w/delete').length >= 3);
    expect(rx.at('/w/delete').map((r) => r.json.data.Id).sort()).toEqual([ids[0], ids[1], ids[2]].sort());
    await Bun.sleep(100);
    expect(rx.at('/w/insert')).toHaveLength(5);
    const logs = await waitFor('5 logged attempts', async () => {
      const list = (await op('xcHookLogs', { id: ins.id })).body.data.list;
      return list.filter((l: any) => l.attempt > 0).length === 5 && list;
    });
    expect(logs).toHaveLength(5);
    expect(logs.every((l: any) => l.status === 'success' && l.attempt === 1 && l.response_status === 200)).toBe(true);
    for (const h of (await op('xcHookList', { tn: 'HookItems' })).body.data.list) await op('xcHookDelete', { id: h.id });
  });

  test('a condition in the where language filters rows; the signature verifies; body templates render', async () => {
    const h = await hook('open big', 'after.insert', '/cond', { condition: '(Status,eq,open)~and(Qty,gt,2)' });
    const tpl = await op('xcHookCreate', {
      tn: 'HookItems', title: 'template', event: 'after.insert',
      notification: { type: 'url', url: rx.url('/tpl'), method: 'PUT', headers: { 'x-item': '{{ data.Name }}' }, body: '{"name": "{{ data.Name }}", "qty": {{ data.Qty }}}' },
    });
    expect(tpl.status).toBe(200);
    for (const [Name, Status, Qty] of [['yes', 'open', 5], ['low', 'open', 1], ['closed', 'closed', 9], ['say "hi"', 'OPEN', 3]] as const) {
      expect((await rest('POST', 'hook_items', { Name, Status, Qty })).status).toBe(200);
    }
    await waitFor('4 template deliveries', () => rx.at('/tpl').length >= 4);
    await waitFor('2 condition deliveries', () => rx.at('/cond').length >= 2);
    await Bun.sleep(100);
    expect(names('/cond')).toEqual(['say "hi"', 'yes']);
    const got = rx.at('/cond')[0]!;
    const expected = `sha256=${createHmac('sha256', h.secret).update(got.body).digest('hex')}`;
    expect(got.headers.get('x-tablo-signature')).toBe(expected);
    expect(got.headers.get('x-tablo-signature')).not.toBe(`sha256=${createHmac('sha256', 'other').update(got.body).digest('hex')}`);
    const quoted = rx.at('/tpl').find((r) => r.headers.get('x-item') === 'say "hi"')!;
    expect(quoted.method).toBe('PUT');
    expect(quoted.json).toEqual({ name: 'say "hi"', qty: 3 });
    // Lists mask the secret; an update can rotate it.
    const listed = (await op('xcHookList', { tn: 'hook_items' })).body.data.list.find((x: any) => x.id === h.id);
    expect(listed.secret).not.toContain(h.secret.slice(12));
    expect(listed.condition).toBe('(Status,eq,open)~and(Qty,gt,2)');
    const rotated = (await op('xcHookUpdate', { id: h.id, rotateSecret: true })).body;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(h.secret);
    await op('xcHookDelete', { id: h.id });
    await op('xcHookDelete', { id: tpl.body.id });
  });

  test('the URL is a template too: each delivery goes to the row\'s address, values percent-encoded', async () => {
    const res = await op('xcHookCreate', {
      tn: 'hook_items', title: 'per row', event: 'after.update',
      notification: { type: 'url', method: 'PUT', url: `${rx.url('/items')}/{{ data.Id }}?name={{ data.Name }}` },
    });
    expect(res.status).toBe(200);
    const row = (await rest('POST', 'hook_items', { Name: 'a/b & c?', Qty: 1 })).body;
    expect((await rest('PUT', `hook_items/${row.Id}`, { Qty: 2 })).status).toBe(200);
    const got = await waitFor('the delivery to the row address', () => rx.at(`/items/${row.Id}`)[0]);
    expect(got.method).toBe('PUT');
    expect(new URLSearchParams(got.search).get('name')).toBe('a/b & c?');
    expect(got.json).toMatchObject({ event: 'after.update', data: { Id: row.Id, Qty: 2 } });
    await waitFor('the delivery logged as a success', async () => (await op('xcHookLogs', { id: res.body.id })).body.data.list.some((l: any) => l.status === 'success'));
    // Test sends to the address of the table's first row as well.
    const tested = (await op('xcHookTest', { id: res.body.id })).body;
    expect(tested.status).toBe('success');
    expect(rx.got.filter((r) => /^\/items\/\d+$/.test(r.path))).toHaveLength(2);
    await op('xcHookDelete', { id: res.body.id });
  });

  test('a header template that a row fills with a line break is a final error naming the header, not an unreachable receiver tried 5 times', async () => {
    const res = await op('xcHookCreate', { tn: 'hook_items', title: 'header', event: 'after.insert', notification: { type: 'url', url: rx.url('/header'), headers: { 'X-Name': '{{ data.Name }}' } } });
    expect(res.status).toBe(200);
    expect((await rest('POST', 'hook_items', { Name: 'two\nlines' })).status).toBe(200);
    const failed = await waitFor('the failed delivery', async () => (await op('xcHookLogs', { id: res.body.id })).body.data.list.find((l: any) => l.status === 'error'));
    expect(failed).toMatchObject({ attempt: 1, error: expect.stringContaining("The header 'X-Name' became a value no request can carry") });
    await Bun.sleep(200);
    expect((await op('xcHookLogs', { id: res.body.id })).body.data.list.filter((l: any) => l.attempt > 0)).toHaveLength(1);
    expect(rx.at('/header')).toEqual([]);
    await op('xcHookDelete', { id: res.body.id });
  });

  test('5xx answers are retried with back-off up to 5 attempts, then marked error; other hooks still deliver', async () => {
    rx.answer('/fail', () => new Response('down', { status: 503 }));
    const bad = await hook('failing', 'after.insert', '/fail');
    const good = await hook('fine', 'after.insert', '/fine');
    expect((await rest('POST', 'hook_items', { Name: 'retry me' })).status).toBe(200);
    await waitFor('the final error', async () => (await op('xcHookLogs', { id: bad.id })).body.data.list.some((l: any) => l.status === 'error'));
    const logs = (await op('xcHookLogs', { id: bad.id })).body.data.list;
    expect(logs.map((l: any) => [l.attempt, l.status])).toEqual([[5, 'error'], [4, 'pending'], [3, 'pending'], [2, 'pending'], [1, 'pending']]);
    expect(logs[0]).toMatchObject({ response_status: 503, error: expect.stringContaining('503') });
    expect(rx.at('/fail')).toHaveLength(5);
    expect(rx.at('/fine')).toHaveLength(1);
    await op('xcHookDelete', { id: bad.id });
    // A 4xx other than 429 is final: one attempt, marked error.
    rx.answer('/gone', () => new Response('no such hook', { status: 410 }));
    const gone = await hook('gone', 'after.insert', '/gone');
    // A paused hook does not fire.
    expect((await op('xcHookUpdate', { id: good.id, active: false })).status).toBe(200);
    expect((await rest('POST', 'hook_items', { Name: 'once' })).status).toBe(200);
    await waitFor('the final 410', async () => (await op('xcHookLogs', { id: gone.id })).body.data.list.some((l: any) => l.status === 'error'));
    expect((await op('xcHookLogs', { id: gone.id })).body.data.list.map((l: any) => [l.attempt, l.status, l.response_status])).toEqual([[1, 'error', 410]]);
    await Bun.sleep(100);
    expect(rx.at('/fine')).toHaveLength(1);
    await op('xcHookDelete', { id: gone.id });
    await op('xcHookDelete', { id: good.id });
  });

  test('a receiver that does not answer holds no write', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    rx.answer('/hold', async () => (await held, new Response('late')));
    const h = await hook('slow', 'after.insert', '/hold');
    // Ten writes finish while every delivery is still waiting for the receiver.
    for (let i = 0; i < 10; i++) expect((await rest('POST', 'hook_items', { Name: `held ${i}` })).status).toBe(200);
    await waitFor('held deliveries', () => rx.at('/hold').length >= 1);
    expect((await op('xcHookLogs', { id: h.id })).body.data.list.some((l: any) => l.status === 'success')).toBe(false);
    release();
    await waitFor('10 deliveries', async () => (await op('xcHookLogs', { id: h.id })).body.data.list.filter((l: any) => l.status === 'success').length === 10);
    await op('xcHookDelete', { id: h.id });
  });

  test('many-to-many link and unlink fire the hooks of the junction table', async () => {
    const linked = await op('xcHookCreate', { tn: 'hook_item_tags', title: 'linked', event: 'after.insert', notification: { type: 'url', url: rx.url('/linked') } });
    const unlinked = await op('xcHookCreate', { tn: 'hook_item_tags', title: 'unlinked', event: 'after.delete', notification: { type: 'url', url: rx.url('/unlinked') } });
    expect(linked.status).toBe(200);
    const item = (await rest('POST', 'hook_items', { Name: 'tagged' })).body;
    const tag = (await rest('POST', 'hook_tags', { Label: 'red' })).body;
    const link = await rest('POST', `hook_items/${item.Id}/mm/hook_tags/${tag.Id}`);
    expect(link.status).toBe(200);
    await waitFor('the link delivery', () => rx.at('/linked').length === 1);
    expect(rx.at('/linked')[0]!.json.data).toEqual({ ItemId: item.Id, TagId: tag.Id });
    expect((await rest('DELETE', `hook_items/${item.Id}/mm/hook_tags/${tag.Id}`)).status).toBe(200);
    await waitFor('the unlink delivery', () => rx.at('/unlinked').length === 1);
    expect(rx.at('/unlinked')[0]!.json).toMatchObject({ event: 'after.delete', data: { ItemId: item.Id, TagId: tag.Id } });
    await op('xcHookDelete', { id: linked.body.id });
    await op('xcHookDelete', { id: unlinked.body.id });
  });

  test('renaming the table and a column through Tablo keeps its hooks and their condition; dropping the table removes them', async () => {
    const plus = async (api: string, args: unknown) => {
      const res = await dashboardOp(t, token, api, { project_id: projectId, args, plus: true });
      if (res.status !== 200) throw new Error(`${api}: ${res.text}`);
    };
    await plus('tableCreate', { tn: 'hook_moves', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'qty', uidt: 'Number' }] });
    const made = await op('xcHookCreate', { tn: 'hook_moves', title: 'big', event: 'after.insert', condition: '(qty,gt,5)', notification: { type: 'url', url: rx.url('/moves') } });
    expect(made.status).toBe(200);
    await plus('tableRename', { tn: 'hook_moves', newTn: 'hook_moved' });
    await plus('columnUpdate', { tn: 'hook_moved', cn: 'qty', column: { cn: 'amount' } });
    const listed = (await op('xcHookList', { tn: 'hook_moved' })).body.data.list;
    expect(listed.map((h: any) => [h.id, h.tn, h.condition])).toEqual([[made.body.id, 'hook_moved', '(amount,gt,5)']]);
    const moved = await dashboardOp(t, token, 'tableList', { project_id: projectId });
    const alias = moved.body.data.list.find((x: any) => x.tn === 'hook_moved')._tn;
    for (const amount of [1, 9]) expect((await t.request('POST', `${base}/${alias}`, { body: { amount }, headers: { 'xc-auth': token } })).status).toBe(200);
    const got = await waitFor('the delivery of the moved hook', () => rx.at('/moves')[0]);
    expect(Object.values(got.json.data)).toContain(9);
    await Bun.sleep(100);
    expect(rx.at('/moves')).toHaveLength(1);
    await plus('tableDelete', { tn: 'hook_moved' });
    expect((await op('xcHookList', {})).body.data.list.filter((h: any) => h.id === made.body.id)).toEqual([]);
  });

  test('a column renamed through Tablo by its display name is renamed in the hooks\' conditions and templates', async () => {
    const plus = async (api: string, args: unknown) => {
      const res = await dashboardOp(t, token, api, { project_id: projectId, args, plus: true });
      if (res.status !== 200) throw new Error(`${api}: ${res.text}`);
    };
    await plus('tableCreate', { tn: 'hook_shown', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'qty', uidt: 'Number' }] });
    const made = await op('xcHookCreate', {
      tn: 'hook_shown',
      title: 'shown',
      event: 'after.insert',
      condition: '(Qty,gt,5)',
      notification: { type: 'url', url: rx.url('/shown'), method: 'POST', headers: { 'x-qty': '{{data.Qty}}' }, body: '{"qty": {{ data.Qty }}, "id": {{ data.Id }}}' },
    });
    expect(made.status).toBe(200);
    await plus('columnUpdate', { tn: 'hook_shown', cn: 'qty', column: { _cn: 'Quantity' } });
    const [listed] = (await op('xcHookList', { tn: 'hook_shown' })).body.data.list;
    expect(listed.condition).toBe('(Quantity,gt,5)');
    expect(listed.notification.body).toBe('{"qty": {{ data.Quantity }}, "id": {{ data.Id }}}');
    // Header values are masked in lists; the stored template was renamed too.
    expect(listed.notification.headers).toEqual({ 'x-qty': '••••ty}}' });
    expect((await op('xcHookHeaders', { id: made.body.id })).body.headers).toEqual({ 'x-qty': '{{data.Quantity}}' });
    const alias = (await dashboardOp(t, token, 'tableList', { project_id: projectId })).body.data.list.find((x: any) => x.tn === 'hook_shown')._tn;
    for (const Quantity of [1, 9]) expect((await t.request('POST', `${base}/${alias}`, { body: { Quantity }, headers: { 'xc-auth': token } })).status).toBe(200);
    const got = await waitFor('the delivery of the hook after the rename', () => rx.at('/shown')[0]);
    expect(got.json.qty).toBe(9);
    expect(got.headers.get('x-qty')).toBe('9');
    await Bun.sleep(100);
    expect(rx.at('/shown')).toHaveLength(1);
    await plus('tableDelete', { tn: 'hook_shown' });
  });

  test('bad input: unknown table, bad condition, template syntax, bad URL, bad headers; Test reports an unreachable receiver', async () => {
    const create = (args: Record<string, unknown>) => op('xcHookCreate', { tn: 'hook_items', title: 'x', event: 'after.insert', notification: { type: 'url', url: rx.url('/x') }, ...args });
    expect((await create({ tn: 'nope' })).status).toBe(404);
    const badCond = await create({ condition: '(Nope,eq,1)' });
    expect(badCond.status).toBe(400);
    expect(badCond.body.msg).toContain('Nope');
    const badTpl = await create({ notification: { type: 'url', url: rx.url('/x'), body: '{"a": "{{ data.Name"}' } });
    expect(badTpl.status).toBe(400);
    expect(badTpl.body.msg).toContain('Template error in the body');
    expect((await create({ notification: { type: 'url', url: 'ftp://x' } })).status).toBe(400);
    expect((await create({ event: 'before.insert' })).status).toBe(400);
    // A header no request can carry is refused on save, not saved to fail every delivery as 'Could not reach'.
    const badName = await create({ notification: { type: 'url', url: rx.url('/x'), headers: { 'X-Ok': '1', 'bad name': '1' } } });
    expect(badName.status).toBe(400);
    expect(badName.body.msg).toContain("'bad name' is not a valid header name");
    const badValue = await create({ notification: { type: 'url', url: rx.url('/x'), headers: { 'X-Two': 'one\ntwo' } } });
    expect(badValue.status).toBe(400);
    expect(badValue.body.msg).toContain("The value of header 'X-Two' cannot be sent");
    expect((await op('xcHookList', { tn: 'hook_items' })).body.data.list.filter((h: any) => h.title === 'x')).toEqual([]);
    const dead = await create({ notification: { type: 'url', url: 'http://127.0.0.1:1/hook' } });
    const tested = await op('xcHookTest', { id: dead.body.id });
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ status: 'error', event: 'test' });
    expect(tested.body.error).toContain('Could not reach http://127.0.0.1:1/hook');
    const ok = await create({ notification: { type: 'slack', webhook_url: rx.url('/slack') } });
    const sent = await op('xcHookTest', { id: ok.body.id });
    expect(sent.body).toMatchObject({ status: 'success', response_status: 200 });
    expect(typeof rx.at('/slack')[0]!.json.text).toBe('string');
    const mail = await create({ notification: { type: 'email', to: 'ops@example.com', subject: 'New {{ data.Name }}', body: 'Row {{ data.Id }}' } });
    expect((await op('xcHookTest', { id: mail.body.id })).body.error).toContain('No mail plugin is configured');
    for (const id of [dead.body.id, ok.body.id, mail.body.id]) await op('xcHookDelete', { id });
  });

  test('header values are masked in the list; left masked they keep their value, retyped they change; the owner may read them in full', async () => {
    const token = 'Bearer sk_live_abcdef123456';
    const made = await op('xcHookCreate', { tn: 'hook_items', title: 'auth', event: 'after.insert', notification: { type: 'url', url: rx.url('/auth'), headers: { Authorization: token, 'X-Short': 'abc' } } });
    expect(made.status).toBe(200);
    const listed = async () => ((await op('xcHookList', { tn: 'hook_items' })).body.data.list as any[]).find((h) => h.id === made.body.id);
    const first = await listed();
    expect(first.notification.headers).toEqual({ Authorization: '••••3456', 'X-Short': '••••' });
    expect(JSON.stringify((await op('xcHookList', { tn: 'hook_items' })).body)).not.toContain('sk_live');
    // Saved again as the list showed it (another title): the stored values stay, and deliveries carry them.
    expect((await op('xcHookUpdate', { id: made.body.id, title: 'auth 2', notification: first.notification })).status).toBe(200);
    expect((await op('xcHookHeaders', { id: made.body.id })).body.headers).toEqual({ Authorization: token, 'X-Short': 'abc' });
    expect((await op('xcHookTest', { id: made.body.id })).body.status).toBe('success');
    expect(rx.at('/auth').at(-1)!.headers.get('authorization')).toBe(token);
    // One value retyped, the other left masked.
    const retyped = { ...first.notification, headers: { Authorization: 'Bearer rotated_9999', 'X-Short': '••••' } };
    expect((await op('xcHookUpdate', { id: made.body.id, notification: retyped })).status).toBe(200);
    expect((await op('xcHookHeaders', { id: made.body.id })).body.headers).toEqual({ Authorization: 'Bearer rotated_9999', 'X-Short': 'abc' });
    expect((await listed()).notification.headers).toEqual({ Authorization: '••••9999', 'X-Short': '••••' });
    // A masked value that stands for no stored one (a renamed header, a new hook) is refused, naming the header.
    const renamed = await op('xcHookUpdate', { id: made.body.id, notification: { ...first.notification, headers: { 'X-Other': '••••' } } });
    expect(renamed.status).toBe(400);
    expect(renamed.body.msg).toBe("The value of the header 'X-Other' is hidden: type it again");
    const copied = await op('xcHookCreate', { tn: 'hook_items', title: 'copy', event: 'after.insert', notification: first.notification });
    expect(copied.status).toBe(400);
    expect(copied.body.msg).toBe("The value of the header 'Authorization' is hidden: type it again");
    expect((await op('xcHookHeaders', { id: 'hk_nope' })).status).toBe(404);
    await op('xcHookDelete', { id: made.body.id });
  });
  test("a chat hook's webhook URL (it carries a token) is masked in the list and kept when saved back unchanged", async () => {
    const url = rx.url('/chat/T000/B000/tok_secret_wxyz');
    const made = await op('xcHookCreate', { tn: 'hook_items', title: 'chat', event: 'after.insert', notification: { type: 'slack', webhook_url: url } });
    expect(made.status).toBe(200);
    const listed = async () => ((await op('xcHookList', { tn: 'hook_items' })).body.data.list as any[]).find((h) => h.id === made.body.id);
    const first = await listed();
    expect(first.notification.webhook_url).toBe(`${new URL(url).origin}/••••wxyz`);
    expect(JSON.stringify((await op('xcHookList', { tn: 'hook_items' })).body)).not.toContain('tok_secret');
    // Read in full on purpose (Show values), as a url hook's header values are.
    expect((await op('xcHookHeaders', { id: made.body.id })).body).toEqual({ headers: {}, webhook_url: url });
    // Saved back as listed (another service, the same URL): the stored URL stays, and deliveries go to it.
    expect((await op('xcHookUpdate', { id: made.body.id, notification: { ...first.notification, type: 'mattermost' } })).status).toBe(200);
    expect((await op('xcHookTest', { id: made.body.id })).body.status).toBe('success');
    expect(rx.at('/chat/T000/B000/tok_secret_wxyz')).toHaveLength(1);
    const retyped = rx.url('/chat/other_1234');
    expect((await op('xcHookUpdate', { id: made.body.id, notification: { type: 'slack', webhook_url: retyped } })).status).toBe(200);
    expect((await listed()).notification.webhook_url).toBe(`${new URL(url).origin}/••••1234`);
    expect((await op('xcHookHeaders', { id: made.body.id })).body).toEqual({ headers: {}, webhook_url: retyped });
    // A chat hook posting to the chat plugin's channel has no URL of its own to show.
    const viaPlugin = await op('xcHookCreate', { tn: 'hook_items', title: 'via plugin', event: 'after.insert', notification: { type: 'discord' } });
    expect((await op('xcHookHeaders', { id: viaPlugin.body.id })).body).toEqual({ headers: {} });
    await op('xcHookDelete', { id: viaPlugin.body.id });
    const copied = await op('xcHookCreate', { tn: 'hook_items', title: 'copy', event: 'after.insert', notification: first.notification });
    expect(copied.status).toBe(400);
    expect(copied.body.msg).toBe('The webhook URL is hidden: type it again');
    await op('xcHookDelete', { id: made.body.id });
  });
});

describe('webhooks with two instances on one metadata store', () => {
  test('each delivery is sent once though both workers look for due deliveries', async () => {
    const { createApp } = await import('../../src/app');
    const { memoryLogger } = await import('../../src/lib/log');
    const rx = startReceiver();
    const t = await makeTestApp({ hookPollMs: 10, apiClientAllowPrivate: true });
    const second = createApp(t.config, { meta: t.app.ctx.meta, secrets: t.app.ctx.secrets, dataDir: t.dataDir, log: memoryLogger() });
    try {
      const token = (await signupSuperAdmin(t, 'owner@example.com')).token;
      const op = (api: string, project_id: string, args: unknown) => dashboardOp(t, token, api, { project_id, args });
      const projectId = (await op('projectCreateByWeb', '', { title: 'Two' })).body.id;
      expect((await op('tableCreate', projectId, { tn: 'notes', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'title', uidt: 'SingleLineText' }] })).status).toBe(200);
      for (const path of ['/a', '/b']) expect((await op('xcHookCreate', projectId, { tn: 'notes', title: path, event: 'after.insert', notification: { type: 'url', url: rx.url(path) } })).status).toBe(200);
      const rows = Array.from({ length: 40 }, (_, i) => ({ Title: `n${i}` }));
      expect((await t.request('POST', `/nc/${projectId}/api/v1/notes/bulk`, { headers: { 'xc-auth': token }, body: rows })).status).toBe(200);
      await waitFor('80 deliveries', () => rx.got.length >= 80);
      await Bun.sleep(300);
      const ids = rx.got.map((r) => r.headers.get('x-tablo-delivery'));
      expect(ids).toHaveLength(80);
      expect(new Set(ids).size).toBe(80);
      expect(rx.at('/a').map((r) => r.json.data.Title).sort()).toEqual(rows.map((r) => r.Title).sort());
    } finally {
      await second.close();
      await t.close();
      rx.stop();
    }
  });
});

describe('webhooks across a restart', () => {
  test('pending deliveries of a closed app are delivered by the next one on the same data', async () => {
    const { boot } = await import('../../src/boot/boot');
    const { createApp } = await import('../../src/app');
    const { testConfig } = await import('../../src/config/config');
    const { memoryLogger } = await import('../../src/lib/log');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const rx = startReceiver();
    let down = true;
    rx.answer('/restart', () => new Response(down ? 'down' : 'ok', { status: down ? 503 : 200 }));
    const dataDir = mkdtempSync(join(tmpdir(), 'tablo-hooks-'));
    const start = async () => {
      const config = testConfig({ dataDir, jwtSecret: 'test-secret-test-secret-0123456789', hookRetryBaseMs: 400, hookPollMs: 50, apiClientAllowPrivate: true });
      const booted = await boot(config);
      const app = createApp(config, { ...booted, log: memoryLogger() });
      const request = async (path: string, body: unknown, token?: string) => {
        const res = await app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'xc-gui': 'true', ...(token ? { 'xc-auth': token } : {}) }, body: JSON.stringify(body) }));
        return { status: res.status, body: (await res.json()) as any };
      };
      return { app, booted, request, stop: async () => (await app.close(), await booted.meta.close()) };
    };
    try {
      const a = await start();
      const token = (await a.request('/auth/signup', { email: 'owner@example.com', password: 'password123' })).body.token;
      const op = (api: string, project_id: string, args: unknown, app = a) => app.request(`/dashboard?q=sqlOp_${api}`, { api, project_id, args }, token);
      const projectId = (await op('projectCreateByWeb', '', { title: 'Restart' })).body.id;
      expect((await op('tableCreate', projectId, { tn: 'notes', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'title', uidt: 'SingleLineText' }] })).status).toBe(200);
      const h = (await op('xcHookCreate', projectId, { tn: 'notes', title: 'r', event: 'after.insert', notification: { type: 'url', url: rx.url('/restart') } })).body;
      expect((await a.request(`/nc/${projectId}/api/v1/notes`, { Title: 'kept' }, token)).status).toBe(200);
      await waitFor('the first failed attempt', async () => (await op('xcHookLogs', projectId, { id: h.id })).body.data.list.some((l: any) => l.attempt === 1));
      await a.stop();
      const seen = rx.at('/restart').length;
      down = false;
      const b = await start();
      try {
        await waitFor('the delivery after the restart', async () => (await op('xcHookLogs', projectId, { id: h.id }, b)).body.data.list.some((l: any) => l.status === 'success'));
        expect(rx.at('/restart').length).toBe(seen + 1);
        expect(rx.at('/restart').at(-1)!.json.data.Title).toBe('kept');
      } finally {
        await b.stop();
      }
    } finally {
      rx.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('webhooks and cron jobs by default', () => {
  test('they may not call loopback or private addresses from the server (as the API client may not): nothing is sent, the log says why', async () => {
    const rx = startReceiver();
    const t = await makeTestApp({ hookRetryBaseMs: 20, hookPollMs: 20 });
    try {
      const token = (await signupSuperAdmin(t, 'owner@example.com')).token;
      const op = (api: string, project_id: string, args: unknown) => dashboardOp(t, token, api, { project_id, args });
      const projectId = (await op('projectCreateByWeb', '', { title: 'Inside' })).body.id;
      expect((await op('tableCreate', projectId, { tn: 'notes', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'title', uidt: 'SingleLineText' }] })).status).toBe(200);
      const hook = (await op('xcHookCreate', projectId, { tn: 'notes', title: 'in', event: 'after.insert', notification: { type: 'url', url: rx.url('/hook') } })).body;
      const chat = (await op('xcHookCreate', projectId, { tn: 'notes', title: 'chat', event: 'after.insert', notification: { type: 'slack', webhook_url: 'http://169.254.169.254/latest/meta-data/' } })).body;
      expect((await t.request('POST', `/nc/${projectId}/api/v1/notes`, { headers: { 'xc-auth': token }, body: { Title: 'x' } })).status).toBe(200);
      const logged = async (id: string) => waitFor(`the refused delivery of ${id}`, async () => (await op('xcHookLogs', projectId, { id })).body.data.list.find((l: any) => l.status === 'error'));
      expect(await logged(hook.id)).toMatchObject({ attempt: 1, error: expect.stringContaining("'127.0.0.1' is a loopback address") });
      expect(await logged(chat.id)).toMatchObject({ attempt: 1, error: expect.stringContaining('a link-local address') });
      expect((await op('xcHookTest', projectId, { id: hook.id })).body).toMatchObject({ status: 'error', error: expect.stringContaining('NC_API_CLIENT_ALLOW_PRIVATE') });
      // A cron job's answer is kept in its log: it may not read the server's own network either.
      const job = (await op('xcCronCreate', projectId, { title: 'peek', pattern: '0 3 * * *', action: { type: 'url', method: 'GET', url: rx.url('/cron') } })).body;
      expect((await op('xcCronRun', projectId, { id: job.id })).body).toMatchObject({ status: 'error', error: expect.stringContaining("'127.0.0.1' is a loopback address") });
      expect(rx.got).toEqual([]);
    } finally {
      await t.close();
      rx.stop();
    }
  });
});
