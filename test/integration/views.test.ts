/**
 * Saved views: the xcVirtualTable operations (default Grid view, copy, rename, order, delete, who
 * may change), query_params checked against the table (unknown columns and wrong kinds refused,
 * nothing stored), and `view=` on the REST reads with rights still on top, on SQLite, PostgreSQL
 * and MariaDB over Chinook.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { describeEngines, runScript, type TestEngine } from '../helpers/engines';
import { dashboardOp } from '../helpers/dashboard';
import { FIXTURE_TIMEOUT_MS, viewsFixture, type ViewsFixture } from '../helpers/views-fixture';

describeEngines('saved views', (engine: TestEngine) => {
  const dbName = `tablo_t_views_${engine}`;
  let f: ViewsFixture;
  /** SQL name of a Chinook column on this engine (PostgreSQL spells them snake_case). */
  const sqlName = (alias: string) => (engine === 'pg' ? alias.replace(/(?<=[a-z])(?=[A-Z])/g, '_').toLowerCase() : alias);
  const list = async (who: string, tn: string) => {
    const res = await f.op(who, 'xcVirtualTableList', { tn });
    expect(res.status).toBe(200);
    return res.body.data.list as any[];
  };
  const create = async (args: Record<string, unknown>, who = 'owner') => {
    const res = await f.op(who, 'xcVirtualTableCreate', args);
    expect(res.status).toBe(200);
    return res.body.id as string;
  };

  beforeAll(async () => {
    f = await viewsFixture(engine, dbName, `Views ${engine}`);
  }, FIXTURE_TIMEOUT_MS);
  afterAll(async () => {
    await f?.t.close();
  });

  test('every table and SQL view starts with one default Grid view that cannot be deleted', async () => {
    const first = await list('viewer', 'Customer');
    expect(first).toEqual([{ id: expect.any(String), title: 'Grid view', type: 'grid', tn: engine === 'pg' ? 'customer' : 'Customer', order: 0, query_params: {}, is_default: true }]);
    expect(await list('owner', 'Customer')).toEqual(first);
    // A SQL view has its views too, and view= reads through them.
    expect((await list('viewer', 'BrazilCustomers')).map((v) => [v.title, v.type, v.is_default])).toEqual([['Grid view', 'grid', true]]);
    const byCity = await create({ tn: 'BrazilCustomers', title: 'By city', type: 'grid', query_params: { sort: '-City', fields: [{ cn: 'City', show: true }, { cn: 'CustomerId', show: false }] } });
    const rows = (await f.get('viewer', `BrazilCustomers?view=${byCity}`)).body;
    expect(rows.map((r: any) => Object.keys(r))).toEqual(Array(5).fill(['City', 'FirstName']));
    expect(rows[0].City).toBe('São Paulo');
    expect((await f.op('owner', 'xcVirtualTableDelete', { id: byCity })).body).toEqual({ ok: true });
    const del = await f.op('owner', 'xcVirtualTableDelete', { id: first[0].id });
    expect(del.status).toBe(400);
    expect(del.body.msg).toContain('default view');
    expect((await f.op('owner', 'xcVirtualTableList', { tn: 'NoSuchTable' })).status).toBe(404);
  });

  test('lists racing on a table with no view yet make one default view', async () => {
    const lists = await Promise.all(Array.from({ length: 5 }, (_, i) => list(i % 2 ? 'viewer' : 'owner', 'Genre')));
    for (const l of lists) expect(l.map((v) => v.title)).toEqual(['Grid view']);
    expect(new Set(lists.map((l) => l[0].id)).size).toBe(1);
    const creates = await Promise.all(Array.from({ length: 4 }, () => f.op('editor', 'xcVirtualTableCreate', { tn: 'Genre', title: 'Race', type: 'grid' })));
    expect(creates.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect((await list('owner', 'Genre')).map((v) => v.title)).toEqual(['Grid view', 'Race']);
  });

  test('create stores columns by SQL name, copy keeps everything, update renames, reorders and replaces, delete removes', async () => {
    const id = await create({
      tn: 'Customer',
      title: 'Brazil',
      type: 'grid',
      query_params: { where: '(Country,eq,Brazil)', sort: '-FirstName', fields: [{ cn: 'FirstName', show: true, width: 180 }, { cn: 'Phone', show: false }], rowHeight: 'tall', groupBy: 'City' },
    });
    const views = await list('owner', 'Customer');
    const v = views.find((x) => x.id === id)!;
    expect(v).toMatchObject({ title: 'Brazil', type: 'grid', order: 1, is_default: false });
    expect(v.query_params).toEqual({
      where: `(${sqlName('Country')},eq,Brazil)`,
      sort: `-${sqlName('FirstName')}`,
      fields: [{ cn: sqlName('FirstName'), show: true, width: 180 }, { cn: sqlName('Phone'), show: false }],
      rowHeight: 'tall',
      groupBy: sqlName('City'),
    });
    const copy = await f.op('editor', 'xcVirtualTableCreate', { tn: 'Customer', title: 'Brazil copy', copy_from_id: id });
    expect(copy.body).toEqual({ id: expect.any(String), title: 'Brazil copy', type: 'grid' });
    const copied = (await list('owner', 'Customer')).find((x) => x.id === copy.body.id)!;
    expect(copied.query_params).toEqual(v.query_params);
    expect(copied.order).toBe(2);

    expect((await f.op('editor', 'xcVirtualTableUpdate', { id: copy.body.id, title: 'Renamed', order: 0.5, query_params: { sort: 'LastName' } })).body).toEqual({ ok: true });
    const after = await list('owner', 'Customer');
    expect(after.map((x) => x.title)).toEqual(['Grid view', 'Renamed', 'Brazil']);
    expect(after[1].query_params).toEqual({ sort: sqlName('LastName') });

    const dup = await f.op('owner', 'xcVirtualTableCreate', { tn: 'Customer', title: 'brazil', type: 'gallery' });
    expect(dup.status).toBe(409);
    expect(dup.body.msg).toContain("'Brazil'");
    expect((await f.op('owner', 'xcVirtualTableUpdate', { id: copy.body.id, title: 'Brazil' })).status).toBe(409);
    // A view of another table cannot be copied here.
    const other = (await list('owner', 'Album'))[0].id;
    expect((await f.op('owner', 'xcVirtualTableCreate', { tn: 'Customer', title: 'x', copy_from_id: other })).status).toBe(400);

    expect((await f.op('editor', 'xcVirtualTableDelete', { id: copy.body.id })).body).toEqual({ ok: true });
    expect((await list('owner', 'Customer')).map((x) => x.title)).toEqual(['Grid view', 'Brazil']);
    expect((await f.op('owner', 'xcVirtualTableDelete', { id: copy.body.id })).status).toBe(404);
    expect((await f.op('owner', 'xcVirtualTableUpdate', { id: 'vw_nothing', title: 'x' })).status).toBe(404);
  });

  test('viewers and commenters list and use views but may not change them', async () => {
    expect((await list('commenter', 'Customer')).length).toBe(2);
    for (const who of ['viewer', 'commenter']) {
      const res = await f.op(who, 'xcVirtualTableCreate', { tn: 'Customer', title: `by ${who}`, type: 'grid' });
      expect(res.status).toBe(403);
      const id = (await list(who, 'Customer'))[1].id;
      expect((await f.op(who, 'xcVirtualTableUpdate', { id, title: 'x' })).status).toBe(403);
      expect((await f.op(who, 'xcVirtualTableDelete', { id })).status).toBe(403);
    }
    expect((await list('owner', 'Customer')).length).toBe(2);
    // Without a project, in an unknown project, or without signing in.
    expect((await dashboardOp(f.t, f.tokens.viewer!, 'xcVirtualTableList', { args: { tn: 'Artist' } })).status).toBe(400);
    expect((await dashboardOp(f.t, f.tokens.viewer!, 'xcVirtualTableList', { project_id: 'nope_1234', args: { tn: 'Artist' } })).status).toBe(404);
    expect((await dashboardOp(f.t, null, 'xcVirtualTableList', { project_id: f.projectId, args: { tn: 'Artist' } })).status).toBe(401);
  });

  test('API tokens use views with their role; a preview acts as the previewed role; only users share links', async () => {
    const editorToken = (await f.op('owner', 'xcApiTokenCreate', { description: 'editor bot', role: 'editor' })).body.token as string;
    const viewerToken = (await f.op('owner', 'xcApiTokenCreate', { description: 'viewer bot', role: 'viewer' })).body.token as string;
    const byToken = (token: string, api: string, args: unknown) => dashboardOp(f.t, null, api, { project_id: f.projectId, args, headers: { 'xc-token': token } });
    const made = await byToken(editorToken, 'xcVirtualTableCreate', { tn: 'Album', title: 'Bot view', type: 'gallery' });
    expect(made.status).toBe(200);
    expect((await byToken(viewerToken, 'xcVirtualTableList', { tn: 'Album' })).body.data.list.map((v: any) => v.title)).toEqual(['Grid view', 'Bot view']);
    expect((await byToken(viewerToken, 'xcVirtualTableUpdate', { id: made.body.id, title: 'x' })).status).toBe(403);
    const link = await byToken(editorToken, 'createSharedViewLink', { view_id: made.body.id });
    expect(link.status).toBe(403);
    expect(link.body.msg).toContain('signed-in users');
    const preview = await dashboardOp(f.t, f.tokens.owner!, 'xcVirtualTableCreate', { project_id: f.projectId, args: { tn: 'Album', title: 'Previewed', type: 'grid' }, headers: { 'xc-preview': 'viewer' } });
    expect(preview.status).toBe(403);
    expect((await dashboardOp(f.t, f.tokens.owner!, 'xcVirtualTableList', { project_id: f.projectId, args: { tn: 'Album' }, headers: { 'xc-preview': 'viewer' } })).status).toBe(200);
    expect((await f.op('owner', 'xcVirtualTableDelete', { id: made.body.id })).body).toEqual({ ok: true });
  });

  test('query_params naming an unknown column or a column of the wrong kind answer 400 naming it; nothing is stored', async () => {
    const before = await list('owner', 'task');
    const refused = async (type: string, query_params: unknown, id?: string) => {
      const res = id ? await f.op('owner', 'xcVirtualTableUpdate', { id, query_params }) : await f.op('owner', 'xcVirtualTableCreate', { tn: 'task', title: `bad ${type}`, type, query_params });
      expect(res.status).toBe(400);
      return res.body.msg as string;
    };
    expect(await refused('grid', { where: '(nope,eq,1)' })).toContain("Column 'nope' not found");
    expect(await refused('grid', { where: '(title,eq' })).toContain('query_params.where');
    expect(await refused('grid', { sort: '-ghost' })).toContain("Column 'ghost' not found");
    expect(await refused('grid', { fields: [{ cn: 'title', show: true }, { cn: 'phantom', show: false }] })).toContain("Column 'phantom' not found");
    expect(await refused('grid', { fields: [{ cn: 'title', show: true }, { cn: 'Title', show: false }] })).toContain('listed twice');
    expect(await refused('grid', { groupBy: 'missing' })).toContain("Column 'missing' not found");
    expect(await refused('grid', { rowHeight: 'huge' })).toContain('rowHeight');
    expect(await refused('kanban', { groupBy: 'title' })).toContain("Column 'Title' is not a SingleSelect column");
    expect(await refused('calendar', { dateColumn: 'title' })).toContain("Column 'Title' is not a Date or DateTime column");
    expect(await refused('calendar', { dateColumn: 'due', endDateColumn: 'status' })).toContain("'Status' is not a Date or DateTime column");
    expect(await refused('gallery', { coverColumn: 'due' })).toContain("Column 'Due' is not an Attachment column");
    expect(await refused('form', { form: { heading: 'Hi', fields: [{ cn: 'title' }, { cn: 'secret' }] } })).toContain("Column 'secret' not found");
    expect(await refused('form', { form: { heading: 'Hi', redirectUrl: 'javascript:alert(1)' } })).toContain('http');
    expect(await list('owner', 'task')).toEqual(before);

    // The right kinds are taken, by alias or SQL name; a grid groups by any column.
    await create({ tn: 'task', title: 'Board', type: 'kanban', query_params: { groupBy: 'Status', fields: [{ cn: 'Title', show: true }] } });
    await create({ tn: 'task', title: 'Agenda', type: 'calendar', query_params: { dateColumn: 'due', endDateColumn: 'Due' } });
    await create({ tn: 'task', title: 'Cards', type: 'gallery', query_params: { coverColumn: 'photo' } });
    const formId = await create({ tn: 'task', title: 'Ask', type: 'form', query_params: { form: { heading: 'New task', subheading: 'Tell us', submitMessage: 'Thanks!', redirectUrl: 'https://example.com/done', fields: [{ cn: 'Title', label: 'What', required: true }, { cn: 'due', help: 'When' }] } } });
    await create({ tn: 'task', title: 'By title', type: 'grid', query_params: { groupBy: 'title', rowHeight: '', coverColumn: null, fields: [{ cn: 'title', width: 120.6 }] } });
    const stored = await list('owner', 'task');
    expect(stored.find((v) => v.title === 'Board')!.query_params).toEqual({ groupBy: 'status', fields: [{ cn: 'title', show: true }] });
    // Empty strings and nulls clear settings; widths from a drag are rounded.
    expect(stored.find((v) => v.title === 'By title')!.query_params).toEqual({ groupBy: 'title', fields: [{ cn: 'title', show: true, width: 121 }] });
    expect(stored.find((v) => v.id === formId)!.query_params.form.fields).toEqual([{ cn: 'title', label: 'What', required: true }, { cn: 'due', help: 'When' }]);
    // An update refused keeps the stored query_params.
    const board = stored.find((v) => v.title === 'Board')!;
    expect(await refused('kanban', { groupBy: 'due' }, board.id)).toContain("'Due' is not a SingleSelect");
    expect((await list('owner', 'task')).find((v) => v.id === board.id)!.query_params.groupBy).toBe('status');
  });

  test('view= on list, findOne, count, groupby, aggregate and one-row reads: where ANDed, sort unless sent, shown fields only', async () => {
    const id = await create({
      tn: 'Customer',
      title: 'Americas',
      type: 'grid',
      query_params: { where: '(Country,in,Brazil,USA,Canada)', sort: '-CustomerId', fields: [{ cn: 'LastName', show: true }, { cn: 'CustomerId', show: true }, { cn: 'Country', show: true }, ...['FirstName', 'Company', 'Address', 'City', 'State', 'PostalCode', 'Phone', 'Fax', 'Email', 'SupportRepId'].map((cn) => ({ cn, show: false }))] },
    });
    const rows = (await f.get('owner', `Customer?view=${id}&limit=100`)).body;
    expect(rows.length).toBe(5 + 13 + 8);
    expect(Object.keys(rows[0])).toEqual(['LastName', 'CustomerId', 'Country']);
    expect(rows.map((r: any) => r.CustomerId)).toEqual([...rows.map((r: any) => r.CustomerId)].sort((a, b) => b - a));
    // By title (case-insensitive), with the caller's where ANDed and the caller's sort winning.
    const mine = (await f.get('owner', 'Customer?view=americas&where=(Country,eq,Canada)&sort=LastName&limit=100')).body;
    expect(mine.length).toBe(8);
    expect(mine.map((r: any) => r.LastName)).toEqual([...mine.map((r: any) => r.LastName)].sort());
    // A caller's fields narrow the view's; a hidden one is dropped.
    expect(Object.keys((await f.get('owner', `Customer?view=${id}&fields=Country,Phone&limit=1`)).body[0])).toEqual(['Country']);
    expect((await f.get('owner', `Customer/findOne?view=${id}`)).body).toEqual({ LastName: 'Sullivan', CustomerId: 33, Country: 'Canada' });
    expect((await f.get('owner', `Customer/count?view=${id}`)).body).toEqual({ count: 26 });
    expect((await f.get('owner', `Customer/count?view=Americas&where=(Country,eq,Brazil)`)).body).toEqual({ count: 5 });
    expect((await f.get('owner', `Customer/groupby?view=${id}&fields=Country`)).body).toEqual([{ Country: 'USA', count: 13 }, { Country: 'Canada', count: 8 }, { Country: 'Brazil', count: 5 }]);
    expect((await f.get('owner', `Customer/groupby/Country?view=${id}`)).body.length).toBe(3);
    expect((await f.get('owner', `Customer/distinct?view=${id}&cn=Country`)).body.map((r: any) => r.Country).sort()).toEqual(['Brazil', 'Canada', 'USA']);
    expect((await f.get('owner', `Customer/aggregate?view=${id}&column_name=CustomerId&func=count,max`)).body).toEqual([{ count: 26, max: 33 }]);
    expect((await f.get('owner', `Customer/1?view=${id}`)).body).toEqual({ LastName: 'Gonçalves', CustomerId: 1, Country: 'Brazil' });
    const missing = await f.get('owner', 'Customer?view=Nope');
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toContain("View 'Nope' not found");
    // A view of another table is not found here.
    const albumView = (await list('owner', 'Album'))[0].id;
    expect((await f.get('owner', `Customer?view=${albumView}`)).status).toBe(404);
    // The default view by its title, before and after a change of its query_params.
    expect(Object.keys((await f.get('owner', 'Customer?view=Grid%20view&limit=1')).body[0]).length).toBe(13);
    const grid = (await list('owner', 'Customer'))[0];
    await f.op('owner', 'xcVirtualTableUpdate', { id: grid.id, query_params: { where: '(Country,eq,France)' } });
    expect((await f.get('owner', `Customer?view=${grid.id}&limit=100`)).body.length).toBe(5);
    await f.op('owner', 'xcVirtualTableUpdate', { id: grid.id, query_params: {} });
    expect((await f.get('owner', `Customer?view=${grid.id}&limit=100`)).body.length).toBe(59);
  });

  test('a view where may name the reader with $user.email and $user.id; a reader without them sees no row', async () => {
    for (const title of ['owner@example.com', 'editor@example.com', 'someone else']) expect((await f.t.request('POST', `${f.base}/task`, { headers: { 'xc-auth': f.tokens.owner! }, body: { title } })).status).toBe(200);
    const mine = await create({ tn: 'task', title: 'Mine', type: 'grid', query_params: { where: '(title,eq,$user.email)~or(title,eq,$user.id)' } });
    expect((await f.get('owner', `task?view=${mine}`)).body.map((r: any) => r.Title)).toEqual(['owner@example.com']);
    expect((await f.get('editor', `task?view=Mine`)).body.map((r: any) => r.Title)).toEqual(['editor@example.com']);
    expect((await f.get('viewer', `task/count?view=Mine`)).body).toEqual({ count: 0 });
    const token = (await f.op('owner', 'xcApiTokenCreate', { description: 'reader', role: 'viewer' })).body.token as string;
    const byToken = await f.t.request('GET', `${f.base}/task?view=${mine}`, { headers: { 'xc-token': token } });
    expect(byToken.status).toBe(200);
    expect(byToken.body).toEqual([]);
    expect((await f.get('owner', 'task/count')).body).toEqual({ count: 3 });
    for (const id of [1, 2, 3]) await f.t.request('DELETE', `${f.base}/task/${id}`, { headers: { 'xc-auth': f.tokens.owner! } });
  });

  test('the REST fast path hands view= to the routes: the same plain URL answers the view', async () => {
    const id = (await list('owner', 'Customer')).find((v) => v.title === 'Americas')!.id;
    const plain = (await f.get('owner', 'Customer?limit=5')).body;
    expect(Object.keys(plain[0]).length).toBe(13);
    for (let i = 0; i < 3; i++) {
      const viewed = (await f.get('owner', `Customer?view=${id}&limit=5`)).body;
      expect(Object.keys(viewed[0])).toEqual(['LastName', 'CustomerId', 'Country']);
      expect(viewed[0].CustomerId).toBe(33);
    }
  });

  test('rights stay on top of a view: hidden columns and the row rule of the caller apply', async () => {
    const save = await f.op('owner', 'aclSave', { tn: 'Customer', role: 'viewer', rule: { read: ['CustomerId', 'FirstName', 'LastName', 'Country'], create: false, update: false, delete: false, where: '(Country,eq,Brazil)' } });
    expect(save.status).toBe(200);
    const id = await create({ tn: 'Customer', title: 'Contact', type: 'grid', query_params: { where: '(Country,in,Brazil,Canada)', fields: [{ cn: 'FirstName', show: true }, { cn: 'Phone', show: true }, ...['CustomerId', 'LastName', 'Company', 'Address', 'City', 'State', 'Country', 'PostalCode', 'Fax', 'Email', 'SupportRepId'].map((cn) => ({ cn, show: false }))] } });
    const rows = (await f.get('viewer', `Customer?view=${id}&limit=100`)).body;
    expect(rows.length).toBe(5);
    expect(Object.keys(rows[0])).toEqual(['FirstName']);
    expect((await f.get('viewer', `Customer/count?view=${id}`)).body).toEqual({ count: 5 });
    expect((await f.get('owner', `Customer/count?view=${id}`)).body).toEqual({ count: 13 });
    // The caller's own filter still may not name a hidden column.
    expect((await f.get('viewer', `Customer?view=${id}&where=(Phone,like,%25)`)).status).toBe(400);
    // A view showing only hidden columns shows the viewer nothing rather than other columns.
    const phoneOnly = await create({ tn: 'Customer', title: 'Phones', type: 'grid', query_params: { fields: [{ cn: 'Phone', show: true }, ...['CustomerId', 'FirstName', 'LastName', 'Company', 'Address', 'City', 'State', 'Country', 'PostalCode', 'Fax', 'Email', 'SupportRepId'].map((cn) => ({ cn, show: false }))] } });
    const none = await f.get('viewer', `Customer?view=${phoneOnly}`);
    expect(none.status).toBe(403);
    // A view whose where names a column hidden from the viewer is refused for the viewer, not widened.
    const byPhone = await create({ tn: 'Customer', title: 'By phone', type: 'grid', query_params: { where: '(Phone,like,+55%)' } });
    expect((await f.get('viewer', `Customer?view=${byPhone}`)).status).toBe(400);
    expect((await f.get('owner', `Customer/count?view=${byPhone}`)).body).toEqual({ count: 5 });
    // An editor whose rule hides a column cannot save a view naming it.
    await f.op('owner', 'aclSave', { tn: 'Customer', role: 'editor', rule: { read: ['CustomerId', 'FirstName'], create: true, update: true, delete: true } });
    const hidden = await f.op('editor', 'xcVirtualTableCreate', { tn: 'Customer', title: 'Sneaky', type: 'grid', query_params: { sort: 'Phone' } });
    expect(hidden.status).toBe(400);
    expect(hidden.body.msg).toContain("Column 'Phone' not found");
    // Reordering the columns they see keeps the owner's settings of the columns they do not.
    expect((await f.op('editor', 'xcVirtualTableUpdate', { id, query_params: { fields: [{ cn: 'CustomerId', show: true }, { cn: 'FirstName', show: true, width: 90 }] } })).body).toEqual({ ok: true });
    const kept = (await list('owner', 'Customer')).find((v) => v.id === id)!.query_params.fields;
    expect(kept.slice(0, 2)).toEqual([{ cn: sqlName('CustomerId'), show: true }, { cn: sqlName('FirstName'), show: true, width: 90 }]);
    expect(kept.find((x: any) => x.cn === sqlName('Phone'))).toEqual({ cn: sqlName('Phone'), show: true });
    expect(kept.find((x: any) => x.cn === sqlName('Email'))).toEqual({ cn: sqlName('Email'), show: false });
    expect(kept.length).toBe(13);
    // A table the role may not read: its views are not listed.
    await f.op('owner', 'aclSave', { tn: 'Invoice', role: 'viewer', rule: { read: false, create: false, update: false, delete: false } });
    expect((await f.op('viewer', 'xcVirtualTableList', { tn: 'Invoice' })).status).toBe(403);
    for (const [tn, role] of [['Customer', 'viewer'], ['Customer', 'editor'], ['Invoice', 'viewer']]) await f.op('owner', 'aclSave', { tn, role, rule: null });
  });

  test('a dashboard form uploads files before its row exists; the create that names them attaches them, for that user only', async () => {
    const upload = (who: string, column: string) => {
      const form = new FormData();
      form.append('file', new File(['form file'], 'note.txt', { type: 'text/plain' }), 'note.txt');
      return f.t.app.handle(new Request(`http://localhost${f.base}/task/attachments/${column}`, { method: 'POST', headers: { 'xc-auth': f.tokens[who]! }, body: form }));
    };
    expect((await upload('viewer', 'photo')).status).toBe(403);
    expect((await upload('editor', 'title')).status).toBe(400);
    const res = await upload('editor', 'photo');
    expect(res.status).toBe(200);
    const entry = ((await res.json()) as any).uploaded[0];
    expect(entry).toEqual({ id: expect.any(String), title: 'note.txt', mimetype: 'text/plain', size: 9 });
    // Another user naming the file creates a row that does not hold it.
    const other = await f.t.request('POST', `${f.base}/task`, { headers: { 'xc-auth': f.tokens.owner! }, body: { title: 'Not mine', photo: [{ ...entry, path: 'x' }] } });
    expect(other.status).toBe(200);
    const made = await f.t.request('POST', `${f.base}/task`, { headers: { 'xc-auth': f.tokens.editor! }, body: { title: 'With a note', photo: [entry] } });
    expect(made.status).toBe(200);
    const file = await f.t.app.handle(new Request(`http://localhost${f.base}/task/${made.body.Id}/attachments/photo/${entry.id}`, { headers: { 'xc-auth': f.tokens.viewer! } }));
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('form file');
    const stolen = await f.t.app.handle(new Request(`http://localhost${f.base}/task/${other.body.Id}/attachments/photo/${entry.id}`, { headers: { 'xc-auth': f.tokens.owner! } }));
    expect(stolen.status).toBe(404);
    for (const id of [made.body.Id, other.body.Id]) await f.t.request('DELETE', `${f.base}/task/${id}`, { headers: { 'xc-auth': f.tokens.owner! } });
  });

  test('views follow columns and tables renamed or dropped through Tablo', async () => {
    const plus = (api: string, args: unknown) => dashboardOp(f.t, f.tokens.owner!, api, { project_id: f.projectId, args, plus: true });
    if (engine !== 'sqlite') await runScript(engine, dbName, 'DROP TABLE IF EXISTS note_renamed; DROP TABLE IF EXISTS note');
    expect((await plus('tableCreate', { tn: 'note', columns: [{ cn: 'id', uidt: 'ID', pk: true, ai: true }, { cn: 'body', uidt: 'SingleLineText' }, { cn: 'kind', uidt: 'SingleSelect', options: ['a', 'b'] }, { cn: 'due', uidt: 'Date' }] })).status).toBe(200);
    const id = await create({ tn: 'note', title: 'Plan', type: 'calendar', query_params: { where: '(body,like,%x%)~and(due,isnot,null)', sort: '-due,body', fields: [{ cn: 'due', show: true }, { cn: 'body', show: false }], dateColumn: 'due', form: { fields: [{ cn: 'due' }, { cn: 'body' }] } } });
    const qp = async (tn: string) => (await list('owner', tn)).find((v) => v.id === id)!.query_params;
    expect((await plus('columnUpdate', { tn: 'note', cn: 'due', column: { cn: 'due_on' } })).status).toBe(200);
    expect(await qp('note')).toEqual({ where: '(body,like,%x%)~and(due_on,isnot,null)', sort: '-due_on,body', fields: [{ cn: 'due_on', show: true }, { cn: 'body', show: false }], dateColumn: 'due_on', form: { fields: [{ cn: 'due_on' }, { cn: 'body' }] } });
    expect((await f.get('owner', `note?view=${id}`)).status).toBe(200);
    expect((await plus('columnDelete', { tn: 'note', cn: 'due_on' })).status).toBe(200);
    // The where naming the dropped column is kept: reads through the view answer 400 rather than more rows.
    expect(await qp('note')).toEqual({ where: '(body,like,%x%)~and(due_on,isnot,null)', sort: 'body', fields: [{ cn: 'body', show: false }], form: { fields: [{ cn: 'body' }] } });
    expect((await f.get('owner', `note?view=${id}`)).status).toBe(400);
    expect((await plus('tableRename', { tn: 'note', newTn: 'note_renamed' })).status).toBe(200);
    expect((await list('owner', 'note_renamed')).map((v) => v.title)).toEqual(['Grid view', 'Plan']);
    const link = (await f.op('owner', 'createSharedViewLink', { view_id: id })).body.uuid;
    expect((await plus('tableDelete', { tn: 'note_renamed' })).status).toBe(200);
    expect((await f.t.request('GET', `/api/v1/shared/${link}`)).status).toBe(404);
    expect((await f.op('owner', 'xcVirtualTableUpdate', { id, title: 'gone' })).status).toBe(404);
  });

  test('a form view needs a table rows can be added to: not a SQL view, not a table without a primary key', async () => {
    const plus = (api: string, args: unknown) => dashboardOp(f.t, f.tokens.owner!, api, { project_id: f.projectId, args, plus: true });
    // Made through the SQL client, on the project's own database (SQLite: the project's copy of the file).
    expect((await plus('rawSql', { sql: 'DROP TABLE IF EXISTS nokey' })).status).toBe(200);
    expect((await plus('rawSql', { sql: 'CREATE TABLE nokey (label varchar(20), qty int)' })).status).toBe(200);
    expect((await plus('metaSync', {})).status).toBe(200);
    const refused: [string, string][] = [
      ['BrazilCustomers', 'A form adds rows, so it needs a table (not a SQL view)'],
      ['nokey', "A form adds rows, so it needs a table with a primary key: 'Nokey' has none"],
    ];
    for (const [tn, msg] of refused) {
      const res = await f.op('owner', 'xcVirtualTableCreate', { tn, title: 'Suggest', type: 'form' });
      expect([res.status, res.body.msg]).toEqual([400, msg]);
      // A grid of it is fine; a copy of that grid as a form is not.
      const grid = await create({ tn, title: 'Plain', type: 'grid' });
      expect((await f.op('owner', 'xcVirtualTableCreate', { tn, title: 'Copied', type: 'form', copy_from_id: grid })).status).toBe(400);
      expect((await list('owner', tn)).map((v) => v.type)).toEqual(['grid', 'grid']);
    }
  });
});
