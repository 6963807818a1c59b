/**
 * Shared views: the link operations, every public route with and without a password, after a
 * password change and after deletion, the rate limit, and every way a hidden column or another
 * table could leak (where, sort, fields, search, CSV, form bodies with extra keys, nested
 * parameters, a creator who loses rights), on SQLite, PostgreSQL and MariaDB over Chinook.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { describeEngines, runScript, type TestEngine } from '../helpers/engines';
import { FIXTURE_TIMEOUT_MS, viewsFixture, type ViewsFixture } from '../helpers/views-fixture';
import { dashboardOp } from '../helpers/dashboard';

/** Tests that hash and verify passwords (argon2id, about half a second each on a busy machine) get longer. */
const ARGON_TIMEOUT_MS = 60_000;
/** The attachment size limit of this suite's app (a larger file answers 413). */
const UPLOAD_MAX_BYTES = 4096;
const CUSTOMER = ['CustomerId', 'FirstName', 'LastName', 'Company', 'Address', 'City', 'State', 'Country', 'PostalCode', 'Phone', 'Fax', 'Email', 'SupportRepId'];
/** A fields list showing `shown` (in that order) and hiding every other Customer column. */
const onlyFields = (...shown: string[]) => [...shown.map((cn) => ({ cn, show: true })), ...CUSTOMER.filter((c) => !shown.includes(c)).map((cn) => ({ cn, show: false }))];

describeEngines('shared views', (engine: TestEngine) => {
  const dbName = `tablo_t_shared_views_${engine}`;
  let f: ViewsFixture;
  let viewId = '';
  let formId = '';
  const pub = (method: string, path: string, opts: { password?: string; body?: unknown } = {}) =>
    f.t.request(method, `/api/v1/shared/${path}`, { headers: opts.password !== undefined ? { 'xc-password': opts.password } : {}, body: opts.body });
  const share = async (args: Record<string, unknown>, who = 'owner') => {
    const res = await f.op(who, 'createSharedViewLink', args);
    expect(res.status).toBe(200);
    return res.body as { uuid: string; url: string };
  };
  const createView = async (args: Record<string, unknown>, who = 'owner') => {
    const res = await f.op(who, 'xcVirtualTableCreate', args);
    expect(res.status).toBe(200);
    return res.body.id as string;
  };

  beforeAll(async () => {
    // Chinook on PostgreSQL and MariaDB is kept between runs: a table an earlier run left goes first (none on a first run).
    if (engine !== 'sqlite') await runScript(engine, dbName, 'DROP TABLE IF EXISTS consent').catch(() => {});
    f = await viewsFixture(engine, dbName, `Shared ${engine}`, { attachmentMaxBytes: UPLOAD_MAX_BYTES });
    viewId = await createView({ tn: 'Customer', title: 'Brazil', type: 'grid', query_params: { where: '(Country,eq,Brazil)', sort: '-CustomerId', fields: onlyFields('FirstName', 'LastName', 'City', 'Country') } });
    formId = await createView({ tn: 'task', title: 'Ask', type: 'form', query_params: { form: { heading: 'New task', submitMessage: 'Got it!', fields: [{ cn: 'title', label: 'What', required: true }, { cn: 'due' }] } } });
  }, FIXTURE_TIMEOUT_MS);
  afterAll(async () => {
    const errors = (f?.t.log.lines ?? []).filter((l) => l.startsWith('ERROR'));
    if (errors.length) console.log(errors.join('\n'));
    await f?.t.close();
  }, ARGON_TIMEOUT_MS);

  test('link operations: editors share, the url points at the web page, lists never carry the password', async () => {
    expect((await f.op('viewer', 'createSharedViewLink', { view_id: viewId })).status).toBe(403);
    expect((await f.op('commenter', 'listSharedViewLinks', {})).status).toBe(403);
    const a = await share({ view_id: viewId }, 'editor');
    expect(a.url).toBe(`http://localhost/#/nc/view/${a.uuid}`);
    const b = await share({ view_id: viewId, password: 'open sesame', allowCsvDownload: true });
    const list = (await f.op('owner', 'listSharedViewLinks', { tn: 'Customer' })).body.data.list as any[];
    expect(list.map((l) => l.uuid).sort()).toEqual([a.uuid, b.uuid].sort());
    // A link reads with its creator's rights: an editor lists and changes the links they made only.
    expect((await f.op('editor', 'listSharedViewLinks', { tn: 'Customer' })).body.data.list.map((l: any) => l.uuid)).toEqual([a.uuid]);
    expect((await f.op('editor', 'updateSharedViewLinkPassword', { uuid: b.uuid, password: null })).status).toBe(404);
    const lb = list.find((l) => l.uuid === b.uuid);
    expect(lb).toEqual({ uuid: b.uuid, view_id: viewId, title: 'Brazil', type: 'grid', tn: engine === 'pg' ? 'customer' : 'Customer', url: b.url, hasPassword: true, allowCsvDownload: true });
    expect(JSON.stringify(list)).not.toContain('open sesame');
    expect(JSON.stringify(list)).not.toContain('argon2');
    expect(list.find((l) => l.uuid === a.uuid).hasPassword).toBe(false);
    expect((await f.op('owner', 'listSharedViewLinks', { tn: 'task' })).body.data.list).toEqual([]);
    expect((await f.op('owner', 'createSharedViewLink', { view_id: 'vw_missing' })).status).toBe(404);
    expect((await f.op('owner', 'deleteSharedViewLink', { uuid: '00000000-0000-0000-0000-000000000000' })).status).toBe(404);
  }, ARGON_TIMEOUT_MS);

  test('a link without password: the view, its shown columns and rows, paging, filters and search over shown columns', async () => {
    const { uuid } = await share({ view_id: viewId });
    const meta = await pub('GET', uuid);
    expect(meta.status).toBe(200);
    expect(meta.body).toMatchObject({ title: 'Brazil', type: 'grid', allowCsvDownload: false });
    expect(meta.body.columns.map((c: any) => c._cn)).toEqual(['FirstName', 'LastName', 'City', 'Country']);
    expect(meta.body.query_params.where).toBeUndefined();
    expect(JSON.stringify(meta.body)).not.toMatch(/Phone|phone/);
    const page = await pub('GET', `${uuid}/rows?limit=2&offset=1`);
    expect(page.body.pageInfo).toEqual({ totalRows: 5, limit: 2, offset: 1 });
    expect(page.body.list.length).toBe(2);
    expect(Object.keys(page.body.list[0])).toEqual(['FirstName', 'LastName', 'City', 'Country']);
    const all = (await pub('GET', `${uuid}/rows?limit=100`)).body.list;
    expect(all.map((r: any) => r.Country)).toEqual(Array(5).fill('Brazil'));
    // The caller's where is ANDed with the view's: it never widens it.
    expect((await pub('GET', `${uuid}/rows?where=(Country,eq,USA)`)).body.pageInfo.totalRows).toBe(0);
    expect((await pub('GET', `${uuid}/rows?where=(City,eq,S%C3%A3o%20Paulo)`)).body.pageInfo.totalRows).toBe(2);
    expect((await pub('GET', `${uuid}/rows?where=(Country,eq,Brazil)~or(Country,eq,USA)`)).body.pageInfo.totalRows).toBe(5);
    const sorted = (await pub('GET', `${uuid}/rows?sort=FirstName`)).body.list.map((r: any) => r.FirstName);
    expect(sorted).toEqual([...sorted].sort());
    expect(Object.keys((await pub('GET', `${uuid}/rows?fields=City`)).body.list[0])).toEqual(['City']);
    const found = (await pub('GET', `${uuid}/rows?search=rio`)).body;
    expect(found.list.map((r: any) => r.City)).toEqual(['Rio de Janeiro']);
    expect(found.pageInfo.totalRows).toBe(1);
  }, ARGON_TIMEOUT_MS);

  test('a grid grouped by a shown column lists its groups with counts within the view, the search and the visitor\'s where', async () => {
    const grouped = await createView({ tn: 'Customer', title: 'Brazil by city', type: 'grid', query_params: { where: '(Country,eq,Brazil)', groupBy: 'City', fields: onlyFields('FirstName', 'City') } });
    const { uuid } = await share({ view_id: grouped });
    expect((await pub('GET', uuid)).body.query_params.groupBy).toMatch(/^city$/i);
    const all = await pub('GET', `${uuid}/groups`);
    expect(all.status).toBe(200);
    // The view's where holds: Brazil's five customers only, in the column's order.
    expect(all.body).toEqual({ column: 'City', groups: [{ value: 'Brasília', count: 1 }, { value: 'Rio de Janeiro', count: 1 }, { value: 'São José dos Campos', count: 1 }, { value: 'São Paulo', count: 2 }] });
    expect((await pub('GET', `${uuid}/groups?search=paulo`)).body.groups).toEqual([{ value: 'São Paulo', count: 2 }]);
    expect((await pub('GET', `${uuid}/groups?where=(FirstName,like,L%25)`)).body.groups.map((g: any) => g.count).reduce((a: number, b: number) => a + b, 0)).toBeGreaterThan(0);
    // A group's rows are read through the rows route with the group's value.
    expect((await pub('GET', `${uuid}/rows?where=(City,eq,S%C3%A3o%20Paulo)`)).body.pageInfo.totalRows).toBe(2);
    // Hidden columns stay out of reach; a grid that is not grouped, or a group-by column the link hides, has no groups.
    expect((await pub('GET', `${uuid}/groups?where=(Phone,like,%25)`)).status).toBe(400);
    expect((await pub('GET', `${uuid}/groups?fields=Phone`)).status).toBe(400);
    expect((await pub('GET', `${(await share({ view_id: viewId })).uuid}/groups`)).body).toEqual({ msg: 'This shared view is not grouped' });
    const hiddenGroup = await createView({ tn: 'Customer', title: 'By phone', type: 'grid', query_params: { groupBy: 'Phone', fields: onlyFields('FirstName') } });
    const hidden = await pub('GET', `${(await share({ view_id: hiddenGroup })).uuid}/groups`);
    expect(hidden.status).toBe(400);
    expect(JSON.stringify(hidden.body)).not.toMatch(/Phone/);
  }, ARGON_TIMEOUT_MS);

  test('hidden columns and other tables are out of reach: where, sort, fields, nested and other parameters, other routes', async () => {
    const { uuid } = await share({ view_id: viewId });
    const refused = async (query: string) => {
      const res = await pub('GET', `${uuid}/rows?${query}`);
      expect(res.status).toBe(400);
      return res.body.msg as string;
    };
    expect(await refused('where=(Phone,like,%25)')).toBe("Column 'Phone' not found");
    expect(await refused('where=(City,eq,x)~or(Email,like,%25)')).toBe("Column 'Email' not found");
    expect(await refused('sort=-Phone')).toBe("Column 'Phone' not found");
    expect(await refused('fields=FirstName,Email')).toBe("Column 'Email' not found");
    expect(await refused('hm=InvoiceList')).toContain("'hm'");
    expect(await refused('bt=Employee')).toContain("'bt'");
    expect(await refused('condition=%7B%22Phone%22%3A%7B%22like%22%3A%22%25%22%7D%7D')).toContain("'condition'");
    expect(await refused('conditionGraph=%7B%7D')).toContain("'conditionGraph'");
    expect(await refused('w=(Phone,like,%25)')).toContain("'w'");
    expect(await refused('limit=1&limit=2')).toContain('twice');
    // Search looks only into shown columns: a hidden e-mail does not match.
    expect((await pub('GET', `${uuid}/rows?search=embraer`)).body.pageInfo.totalRows).toBe(0);
    for (const path of [`${uuid}/rows/1`, `${uuid}/Invoice`, `${uuid}/rows/count`]) expect((await pub('GET', path)).status).toBe(404);
    expect((await pub('GET', 'not-a-uuid')).status).toBe(404);
    expect((await pub('GET', `${crypto.randomUUID()}/rows`)).status).toBe(404);
    // The link is not a way into the generated API either.
    expect((await f.t.request('GET', `${f.base}/Customer?limit=1`, { headers: { 'xc-password': 'x' } })).status).toBe(401);
    // POST to a grid link creates nothing.
    const post = await pub('POST', `${uuid}/rows`, { body: { FirstName: 'X' } });
    expect(post.status).toBe(403);
  }, ARGON_TIMEOUT_MS);

  test('a link describes the view\'s layout settings only: lane values go with a hidden lane column, other stored keys never pass', async () => {
    const qp = { groupBy: 'status', laneOrder: ['secret lane', 'todo'], collapsedLanes: ['secret lane'], rowHeight: 'tall', notes: 'internal: Phone numbers are fake' };
    const hiddenLanes = await createView({ tn: 'task', title: 'Hidden lanes', type: 'kanban', query_params: { ...qp, fields: [{ cn: 'title', show: true }, { cn: 'status', show: false }] } });
    const described = (await pub('GET', (await share({ view_id: hiddenLanes })).uuid)).body;
    expect(described.columns.map((c: any) => c._cn)).not.toContain('Status');
    expect(described.query_params).toEqual({ rowHeight: 'tall', fields: [{ cn: 'title', show: true }] });
    expect(JSON.stringify(described)).not.toContain('secret lane');
    const shownLanes = await createView({ tn: 'task', title: 'Shown lanes', type: 'kanban', query_params: qp });
    expect((await pub('GET', (await share({ view_id: shownLanes })).uuid)).body.query_params).toEqual({ groupBy: 'status', laneOrder: ['secret lane', 'todo'], collapsedLanes: ['secret lane'], rowHeight: 'tall' });
  }, ARGON_TIMEOUT_MS);

  test('a link names the column that titles its cards, as the dashboard does, only while it shows it', async () => {
    // LastName comes first in this gallery, yet FirstName titles Customer's cards in the dashboard.
    const reordered = await createView({ tn: 'Customer', title: 'Cards', type: 'gallery', query_params: { fields: onlyFields('LastName', 'FirstName', 'City') } });
    const dashboard = (await f.op('owner', 'tableMeta', { tn: 'Customer' })).body.displayColumn;
    expect(dashboard).toBe('FirstName');
    expect((await pub('GET', (await share({ view_id: reordered })).uuid)).body.displayColumn).toBe('FirstName');
    const hidden = await createView({ tn: 'Customer', title: 'No names', type: 'gallery', query_params: { fields: onlyFields('LastName', 'City') } });
    expect((await pub('GET', (await share({ view_id: hidden })).uuid)).body.displayColumn).toBeNull();
  }, ARGON_TIMEOUT_MS);

  test('a password: missing or wrong 403, right 200, changed at once, removed, and the link 404 after deletion', async () => {
    const { uuid } = await share({ view_id: viewId, password: 'first pass' }, 'editor');
    for (const path of [uuid, `${uuid}/rows`]) {
      const missing = await pub('GET', path);
      expect(missing.status).toBe(403);
      expect(missing.body).toEqual({ msg: 'Invalid password', code: 'INVALID_PASSWORD' });
      expect((await pub('GET', path, { password: 'wrong' })).body).toEqual({ msg: 'Invalid password', code: 'INVALID_PASSWORD' });
      expect((await pub('GET', path, { password: 'first pass' })).status).toBe(200);
    }
    expect((await pub('GET', `${uuid}/rows.csv`)).status).toBe(403);
    expect((await f.op('editor', 'updateSharedViewLinkPassword', { uuid, password: 'second pass' })).body).toEqual({ ok: true });
    expect((await pub('GET', `${uuid}/rows`, { password: 'first pass' })).status).toBe(403);
    expect((await pub('GET', `${uuid}/rows`, { password: 'second pass' })).status).toBe(200);
    expect((await f.op('owner', 'listSharedViewLinks', {})).body.data.list.find((l: any) => l.uuid === uuid).hasPassword).toBe(true);
    expect((await f.op('viewer', 'updateSharedViewLinkPassword', { uuid, password: null })).status).toBe(403);
    expect((await f.op('owner', 'updateSharedViewLinkPassword', { uuid, password: '' })).status).toBe(400);
    expect((await f.op('owner', 'updateSharedViewLinkPassword', { uuid, password: null })).body).toEqual({ ok: true });
    expect((await pub('GET', `${uuid}/rows`)).status).toBe(200);
    expect((await f.op('owner', 'listSharedViewLinks', {})).body.data.list.find((l: any) => l.uuid === uuid).hasPassword).toBe(false);
    expect((await f.op('viewer', 'deleteSharedViewLink', { uuid })).status).toBe(403);
    expect((await f.op('editor', 'deleteSharedViewLink', { uuid })).body).toEqual({ ok: true });
    for (const path of [uuid, `${uuid}/rows`, `${uuid}/rows.csv`]) expect((await pub('GET', path)).status).toBe(404);
    expect((await pub('POST', `${uuid}/rows`, { body: { FirstName: 'x' } })).status).toBe(404);
    expect((await f.op('owner', 'listSharedViewLinks', {})).body.data.list.some((l: any) => l.uuid === uuid)).toBe(false);
    // Deleting a view takes its links with it.
    const temp = await createView({ tn: 'Customer', title: 'Temp', type: 'grid' });
    const link = await share({ view_id: temp });
    expect((await pub('GET', link.uuid)).status).toBe(200);
    await f.op('owner', 'xcVirtualTableDelete', { id: temp });
    expect((await pub('GET', link.uuid)).status).toBe(404);
  }, ARGON_TIMEOUT_MS);

  test('a password beyond ASCII opens the link percent-encoded (as browsers must send it) or as UTF-8 bytes; one holding % works as typed', async () => {
    const { uuid } = await share({ view_id: viewId, password: '密码 señal' });
    expect((await pub('GET', uuid, { password: encodeURIComponent('密码 señal') })).status).toBe(200);
    // A client sending the UTF-8 bytes as they are: the server reads a header as Latin-1.
    expect((await pub('GET', `${uuid}/rows?limit=1`, { password: Buffer.from('密码 señal', 'utf8').toString('latin1') })).status).toBe(200);
    expect((await pub('GET', uuid, { password: encodeURIComponent('密码 senal') })).body).toEqual({ msg: 'Invalid password', code: 'INVALID_PASSWORD' });
    const percent = await share({ view_id: viewId, password: '100%41' });
    expect((await pub('GET', percent.uuid, { password: '100%41' })).status).toBe(200);
    expect((await pub('GET', percent.uuid, { password: encodeURIComponent('100%41') })).status).toBe(200);
  }, ARGON_TIMEOUT_MS);

  test('password attempts are rate limited: past the limit a password not verified before answers 429', async () => {
    const { uuid } = await share({ view_id: viewId, password: 'secret word' });
    expect((await pub('GET', `${uuid}/rows`, { password: 'secret word' })).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await pub('GET', `${uuid}/rows`, { password: `guess ${i}` })).status).toBe(403);
    const limited = await pub('GET', `${uuid}/rows`, { password: 'guess 10' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
    expect(limited.body.msg).toContain('Too many');
    // Someone who opened the link before keeps it; a new password (never verified) waits like a guess.
    expect((await pub('GET', `${uuid}/rows`, { password: 'secret word' })).status).toBe(200);
    await f.op('owner', 'updateSharedViewLinkPassword', { uuid, password: 'new word' });
    expect((await pub('GET', `${uuid}/rows`, { password: 'secret word' })).status).toBe(429);
    expect((await pub('GET', `${uuid}/rows`, { password: 'new word' })).status).toBe(429);
    // Another link is not affected.
    const other = await share({ view_id: viewId, password: 'secret word' });
    expect((await pub('GET', `${other.uuid}/rows`, { password: 'secret word' })).status).toBe(200);
  }, ARGON_TIMEOUT_MS);

  test('CSV only when allowed, streamed with the shown columns and the view rows; hidden columns refused', async () => {
    const closed = await share({ view_id: viewId });
    const no = await pub('GET', `${closed.uuid}/rows.csv`);
    expect(no.status).toBe(403);
    // The setting changes on the same link (its address stays).
    expect((await f.op('owner', 'updateSharedViewLink', { uuid: closed.uuid, allowCsvDownload: true })).status).toBe(200);
    expect((await pub('GET', `${closed.uuid}/rows.csv`)).status).toBe(200);
    expect((await f.op('owner', 'updateSharedViewLink', { uuid: closed.uuid, allowCsvDownload: false })).status).toBe(200);
    expect((await pub('GET', `${closed.uuid}/rows.csv`)).status).toBe(403);
    const { uuid } = await share({ view_id: viewId, allowCsvDownload: true, password: 'csv pass' });
    expect((await pub('GET', `${uuid}/rows.csv`)).status).toBe(403);
    const csv = await pub('GET', `${uuid}/rows.csv`, { password: 'csv pass' });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('FirstName,LastName,City,Country');
    expect(lines.length).toBe(6);
    expect(lines.slice(1).every((l) => l.endsWith(',Brazil'))).toBe(true);
    expect(csv.text).not.toContain('@');
    const filtered = await pub('GET', `${uuid}/rows.csv?where=(City,eq,Rio%20de%20Janeiro)`, { password: 'csv pass' });
    expect(filtered.text.trim().split('\r\n').length).toBe(2);
    expect((await pub('GET', `${uuid}/rows.csv?where=(Email,like,%25)`, { password: 'csv pass' })).status).toBe(400);
    expect((await pub('GET', `${uuid}/rows.csv?sort=Phone`, { password: 'csv pass' })).status).toBe(400);
  }, ARGON_TIMEOUT_MS);

  test('a CSV of more rows than one page streams every row once, in the view order; pages past the end are empty', async () => {
    const lines = await createView({ tn: 'InvoiceLine', title: 'Lines', type: 'grid', query_params: { sort: '-InvoiceLineId', fields: [{ cn: 'InvoiceLineId', show: true }, { cn: 'Quantity', show: true }, { cn: 'UnitPrice', show: false }, { cn: 'InvoiceId', show: false }, { cn: 'TrackId', show: false }] } });
    const { uuid } = await share({ view_id: lines, allowCsvDownload: true });
    const csv = await pub('GET', `${uuid}/rows.csv`);
    expect(csv.status).toBe(200);
    const body = csv.text.trim().split('\r\n');
    expect(body[0]).toBe('InvoiceLineId,Quantity');
    expect(body.length).toBe(2240 + 1);
    const ids = body.slice(1).map((l) => Number(l.split(',')[0]));
    expect(new Set(ids).size).toBe(2240);
    expect(ids[0]).toBe(2240);
    expect(ids.at(-1)).toBe(1);
    const last = (await pub('GET', `${uuid}/rows?limit=100&offset=2200`)).body;
    expect(last.list.length).toBe(40);
    expect(last.pageInfo).toEqual({ totalRows: 2240, limit: 100, offset: 2200 });
    expect((await pub('GET', `${uuid}/rows?offset=5000`)).body.list).toEqual([]);
  }, ARGON_TIMEOUT_MS);

  test('a shared form creates one row from its fields only, checks required ones, and is audited as "shared form"', async () => {
    const { uuid } = await share({ view_id: formId, password: 'form pass' });
    const meta = await pub('GET', uuid, { password: 'form pass' });
    expect(meta.body.type).toBe('form');
    expect(meta.body.columns.map((c: any) => c._cn)).toEqual(['Title', 'Due']);
    expect(meta.body.query_params.form).toMatchObject({ heading: 'New task', submitMessage: 'Got it!' });
    expect((await pub('POST', `${uuid}/rows`, { body: { Title: 'No password' } })).status).toBe(403);
    const extra = await pub('POST', `${uuid}/rows`, { password: 'form pass', body: { Title: 'x', status: 'done', photo: '[]' } });
    expect(extra.status).toBe(400);
    expect(extra.body.msg).toBe("Columns 'status', 'photo' not found");
    const one = await pub('POST', `${uuid}/rows`, { password: 'form pass', body: { Title: 'x', id: 999 } });
    expect(one.body.msg).toBe("Column 'id' not found");
    const missing = await pub('POST', `${uuid}/rows`, { password: 'form pass', body: { due: '2026-02-01' } });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe("'What' is required");
    const nested = await pub('POST', `${uuid}/rows`, { password: 'form pass', body: [{ Title: 'a' }] });
    expect(nested.status).toBe(400);
    expect((await f.get('owner', 'task/count')).body).toEqual({ count: 0 });
    const ok = await pub('POST', `${uuid}/rows`, { password: 'form pass', body: { Title: 'Call the plumber', due: '2026-03-04' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true, message: 'Got it!' });
    const rows = (await f.get('owner', 'task')).body;
    expect(rows).toEqual([expect.objectContaining({ Title: 'Call the plumber', Status: null })]);
    expect(String(rows[0].Due)).toContain('2026-03-04');
    const audit = await f.t.app.ctx.meta.all<{ user_email: string; tn: string; description: string }>("SELECT user_email, tn, description FROM nc_audit WHERE op_type = 'DATA' AND tn = 'task'");
    expect(audit).toEqual([{ user_email: 'shared form', tn: 'task', description: 'insert' }]);
    // Submissions are rate limited per link and address.
    const spam = await share({ view_id: formId });
    for (let i = 0; i < 30; i++) expect((await pub('POST', `${spam.uuid}/rows`, { body: { due: '2026-01-01' } })).status).toBe(400);
    expect((await pub('POST', `${spam.uuid}/rows`, { body: { Title: 'spam' } })).status).toBe(429);
    expect((await f.get('owner', 'task/count')).body).toEqual({ count: 1 });
    // The form's rows (other people's answers) cannot be read back through the link.
    expect((await pub('GET', `${uuid}/rows`, { password: 'form pass' })).status).toBe(403);
    const csvForm = await share({ view_id: formId, allowCsvDownload: true });
    expect((await pub('GET', `${csvForm.uuid}/rows.csv`)).status).toBe(403);
    expect((await pub('GET', `${csvForm.uuid}/rows`)).body.msg).toBe('A shared form does not show its rows');
  }, ARGON_TIMEOUT_MS);

  test('a shared form leaving out a column its table cannot do without says it cannot be sent, without naming the hidden column', async () => {
    // Customer's LastName and Email are NOT NULL without a default; the form asks for neither.
    const partial = await createView({ tn: 'Customer', title: 'Sign up', type: 'form', query_params: { form: { fields: [{ cn: 'FirstName', required: true }, { cn: 'Company' }] } } });
    const { uuid } = await share({ view_id: partial });
    const before = (await f.get('owner', 'Customer/count')).body.count;
    const sent = await pub('POST', `${uuid}/rows`, { body: { FirstName: 'Ana', Company: 'Acme' } });
    expect(sent.status).toBe(409);
    expect(sent.body.msg).toBe("This form cannot be sent: its table needs a value the form does not ask for. Please tell the form's owner.");
    expect(sent.body.msg).not.toMatch(/LastName|Email/);
    expect((await f.get('owner', 'Customer/count')).body.count).toBe(before);
    // A field it does not have is still refused as unknown.
    expect((await pub('POST', `${uuid}/rows`, { body: { FirstName: 'Ana', LastName: 'X' } })).body.msg).toBe("Column 'LastName' not found");
  }, ARGON_TIMEOUT_MS);

  test('a value a shared form refuses is named by its field\'s label, as the form shows it', async () => {
    const form = await createView({ tn: 'task', title: 'Labelled', type: 'form', query_params: { form: { fields: [{ cn: 'title', label: 'What happened?' }, { cn: 'due', label: 'When is it due?' }, { cn: 'status' }] } } });
    const { uuid } = await share({ view_id: form });
    const refused = async (body: Record<string, unknown>) => {
      const res = await pub('POST', `${uuid}/rows`, { body });
      expect(res.status).toBe(400);
      return res.body.msg as string;
    };
    expect(await refused({ title: 'x', due: 'soon' })).toBe(`'When is it due?': "soon" is not a date (YYYY-MM-DD)`);
    expect(await refused({ title: { nested: true } })).toStartWith(`'What happened?': `);
    // A field without a label keeps the column's name, as the form shows it.
    expect(await refused({ title: 'x', status: 'bogus' })).toBe(`Column 'Status': "bogus" is not one of 'todo', 'doing', 'done'`);
  }, ARGON_TIMEOUT_MS);

  test('a required checkbox of a shared form is answered only when ticked', async () => {
    const made = await dashboardOp(f.t, f.tokens.owner!, 'tableCreate', { project_id: f.projectId, plus: true, args: { tn: 'consent', columns: [{ cn: 'id', uidt: 'ID', pk: true, ai: true }, { cn: 'name', uidt: 'SingleLineText' }, { cn: 'agreed', uidt: 'Checkbox' }] } });
    expect(made.status).toBe(200);
    const form = await createView({ tn: 'consent', title: 'Terms', type: 'form', query_params: { form: { fields: [{ cn: 'name' }, { cn: 'agreed', label: 'I accept the terms', required: true }] } } });
    const { uuid } = await share({ view_id: form });
    for (const agreed of [false, 0, 'false', null, undefined]) {
      const sent = await pub('POST', `${uuid}/rows`, { body: { name: 'Ana', agreed } });
      expect([sent.status, sent.body.msg]).toEqual([400, "'I accept the terms' is required"]);
    }
    expect((await f.get('owner', 'consent/count')).body.count).toBe(0);
    expect((await pub('POST', `${uuid}/rows`, { body: { name: 'Ana', agreed: true } })).status).toBe(200);
    expect((await f.get('owner', 'consent?fields=Name,Agreed')).body.map((r: any) => [r.Name, !!r.Agreed])).toEqual([['Ana', true]]);
    expect((await dashboardOp(f.t, f.tokens.owner!, 'tableDelete', { project_id: f.projectId, plus: true, args: { tn: 'consent' } })).status).toBe(200);
  }, ARGON_TIMEOUT_MS);

  test('a shared form submitted with no field filled in is refused: blank text, no files and nulls make no row', async () => {
    const form = await createView({ tn: 'task', title: 'Anything', type: 'form', query_params: { form: { fields: [{ cn: 'title', label: 'What' }, { cn: 'due' }, { cn: 'status' }, { cn: 'photo' }] } } });
    const { uuid } = await share({ view_id: form });
    const before = (await f.get('owner', 'task/count')).body.count;
    for (const body of [{}, { title: '   ', due: null, status: '' }, { title: '', photo: [] }]) {
      const sent = await pub('POST', `${uuid}/rows`, { body });
      expect([sent.status, sent.body]).toEqual([400, { msg: 'Fill in at least one field' }]);
    }
    expect((await f.get('owner', 'task/count')).body.count).toBe(before);
    // One field filled in is enough.
    const one = await pub('POST', `${uuid}/rows`, { body: { title: '', due: '2026-05-01' } });
    expect([one.status, one.body.ok]).toEqual([200, true]);
    expect((await f.get('owner', 'task/count')).body.count).toBe(before + 1);
  }, ARGON_TIMEOUT_MS);

  test('a shared form takes files for its Attachment fields: upload with the link (and its password), submit, download from the row', async () => {
    const withPhoto = await createView({ tn: 'task', title: 'Report', type: 'form', query_params: { form: { heading: 'Report', fields: [{ cn: 'title', required: true }, { cn: 'photo', required: true }] } } });
    const { uuid } = await share({ view_id: withPhoto, password: 'pics' });
    const upload = (link: string, column: string, files: File[], password?: string) => {
      const form = new FormData();
      for (const file of files) form.append('file', file, file.name);
      return f.t.app.handle(new Request(`http://localhost/api/v1/shared/${link}/attachments/${column}`, { method: 'POST', headers: password === undefined ? {} : { 'xc-password': password }, body: form }));
    };
    const answer = async (res: Response) => {
      const body = (await res.json()) as any;
      return { status: res.status, msg: body.msg as string | undefined, body };
    };
    const png = new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3])], 'crack.png', { type: 'image/png' });

    // Refused: wrong or missing password, a column the form does not show, a view that is not a form, too large a file.
    expect(await answer(await upload(uuid, 'photo', [png], 'nope'))).toMatchObject({ status: 403, msg: 'Invalid password' });
    expect((await upload(uuid, 'photo', [png])).status).toBe(403);
    expect(await answer(await upload(uuid, 'status', [png], 'pics'))).toMatchObject({ status: 404, msg: "Column 'status' is not a field of this form" });
    const noPhoto = await share({ view_id: formId });
    expect(await answer(await upload(noPhoto.uuid, 'photo', [png]))).toMatchObject({ status: 404, msg: "Column 'photo' is not a field of this form" });
    const grid = await share({ view_id: viewId });
    expect(await answer(await upload(grid.uuid, 'photo', [png]))).toMatchObject({ status: 403, msg: 'Only a shared form accepts uploads' });
    const big = await answer(await upload(uuid, 'photo', [new File([new Uint8Array(UPLOAD_MAX_BYTES + 1)], 'big.bin')], 'pics'));
    expect(big).toMatchObject({ status: 413, msg: `'big.bin' is larger than the limit of ${UPLOAD_MAX_BYTES} bytes` });
    expect(await answer(await upload(uuid, 'Title', [png], 'pics'))).toMatchObject({ status: 400, msg: "Column 'Title' is not an Attachment column" });

    // Allowed: the entries name the pending files; nobody reads them before a row holds them.
    const ok = await answer(await upload(uuid, 'photo', [png], 'pics'));
    expect(ok.status).toBe(200);
    expect(ok.body.uploaded).toEqual([{ id: expect.any(String), title: 'crack.png', mimetype: 'image/png', size: 11 }]);
    const entry = ok.body.uploaded[0];
    const pending = await f.t.app.ctx.meta.get<{ state: string }>('SELECT state FROM nc_files WHERE id = ?', [entry.id]);
    expect(pending?.state).toBe('pending');
    // Another link of the same table cannot claim it, nor can an entry the link did not upload pass.
    const other = await share({ view_id: withPhoto });
    const stolen = await pub('POST', `${other.uuid}/rows`, { body: { title: 'Theirs', photo: [entry] } });
    expect(stolen.status).toBe(400);
    expect(stolen.body.msg).toContain("is not a file uploaded to this form");
    expect((await pub('POST', `${uuid}/rows`, { password: 'pics', body: { title: 'Fake', photo: [{ url: 'https://example.com/x.png' }] } })).status).toBe(400);
    expect((await pub('POST', `${uuid}/rows`, { password: 'pics', body: { title: 'Empty', photo: [] } })).body.msg).toBe("'Photo' is required");

    // The submitted row holds the file, which its readers download.
    const sent = await pub('POST', `${uuid}/rows`, { password: 'pics', body: { title: 'Cracked tile', photo: [{ ...entry, title: 'renamed.exe', mimetype: 'text/html' }] } });
    expect(sent.status).toBe(200);
    const rows = (await f.get('owner', 'task?where=(title,eq,Cracked%20tile)')).body as any[];
    expect(rows.length).toBe(1);
    const cell = typeof rows[0].Photo === 'string' ? JSON.parse(rows[0].Photo) : rows[0].Photo;
    expect(cell).toEqual([{ id: entry.id, title: 'crack.png', mimetype: 'image/png', size: 11, path: expect.stringContaining(entry.id) }]);
    const file = await f.t.app.handle(new Request(`http://localhost${f.base}/task/${rows[0].Id}/attachments/photo/${entry.id}`, { headers: { 'xc-auth': f.tokens.owner! } }));
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]));
    // Claimed once: the same entry cannot go into a second row.
    expect((await pub('POST', `${uuid}/rows`, { password: 'pics', body: { title: 'Again', photo: [entry] } })).status).toBe(400);
  }, ARGON_TIMEOUT_MS);

  test('the uploaded files of shown Attachment cells carry a short-lived link that opens them; other rows\' files and hidden columns do not', async () => {
    const auth = { 'xc-auth': f.tokens.owner! };
    const made = async (title: string, status: string) => (await f.t.request('POST', `${f.base}/task`, { headers: auth, body: { title, status } })).body.Id as number;
    const upload = async (id: number, name: string, bytes: number[]) => {
      const form = new FormData();
      form.append('file', new File([new Uint8Array(bytes)], name, { type: 'image/png' }), name);
      const res = await f.t.app.handle(new Request(`http://localhost${f.base}/task/${id}/attachments/photo`, { method: 'POST', headers: auth, body: form }));
      expect(res.status).toBe(200);
      return ((await res.json()) as any).uploaded[0].id as string;
    };
    const shown = await made('Shown tile', 'doing');
    const filtered = await made('Filtered tile', 'todo');
    const shownFile = await upload(shown, 'shown.png', [1, 2, 3]);
    const filteredFile = await upload(filtered, 'filtered.png', [4, 5, 6]);
    const gallery = await createView({ tn: 'task', title: 'Tiles', type: 'gallery', query_params: { where: '(status,eq,doing)', coverColumn: 'photo', fields: [{ cn: 'title', show: true }, { cn: 'photo', show: true }, { cn: 'id', show: false }, { cn: 'status', show: false }, { cn: 'due', show: false }] } });
    const { uuid } = await share({ view_id: gallery, password: 'tiles' });
    const rowsOf = async (link: string) => (await pub('GET', `${link}/rows?where=(Title,like,%25tile)`, { password: 'tiles' })).body.list as any[];
    const cellOf = (row: any) => (typeof row.Photo === 'string' ? JSON.parse(row.Photo) : row.Photo) as any[];

    const [row] = await rowsOf(uuid);
    // The key column the link reads to match files stays out of the answer.
    expect(Object.keys(row)).toEqual(['Title', 'Photo']);
    const [entry] = cellOf(row);
    expect([entry.id, entry.title]).toEqual([shownFile, 'shown.png']);
    expect(entry.signedUrl).toStartWith('/api/files/');
    // The link opens the file without a session or the link's password.
    const file = await f.t.app.handle(new Request(`http://localhost${entry.signedUrl}`));
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));

    // A cell naming the file of a row the view filters out gets no link to that file: written by someone
    // who may read it, the cell holds a copy of its own (src/attachments/copied-files.ts), which opens.
    const put = await f.t.request('PUT', `${f.base}/task/${shown}`, { headers: auth, body: { photo: [{ id: entry.id, title: entry.title, mimetype: entry.mimetype, size: entry.size, path: entry.path }, { id: filteredFile, title: 'filtered.png', mimetype: 'image/png', path: 'elsewhere/filtered.png' }] } });
    expect(put.status).toBe(200);
    const both = cellOf((await rowsOf(uuid))[0]);
    expect(both.map((e) => e.title)).toEqual(['shown.png', 'filtered.png']);
    expect(both[0].id).toBe(shownFile);
    expect(both[1].id).not.toBe(filteredFile);
    expect(JSON.stringify(both)).not.toContain(filteredFile);
    const copy = await f.t.app.handle(new Request(`http://localhost${both[1].signedUrl}`));
    expect(new Uint8Array(await copy.arrayBuffer())).toEqual(new Uint8Array([4, 5, 6]));

    // A view that hides the Attachment column answers neither the cell nor a link.
    const hidden = await createView({ tn: 'task', title: 'No photos', type: 'grid', query_params: { where: '(status,eq,doing)', fields: [{ cn: 'title', show: true }, { cn: 'photo', show: false }] } });
    const plain = await share({ view_id: hidden });
    const list = (await pub('GET', `${plain.uuid}/rows`)).body.list as any[];
    expect(list.length).toBeGreaterThan(0);
    expect(JSON.stringify(list)).not.toContain('api/files');
  }, ARGON_TIMEOUT_MS);

  test('a link describes its columns as the dashboard does: the value kind its inputs and cells follow, the type options', async () => {
    const kanban = await createView({ tn: 'task', title: 'Board', type: 'kanban', query_params: { groupBy: 'status' } });
    const { uuid } = await share({ view_id: kanban });
    const shared = (await pub('GET', uuid)).body.columns as any[];
    const dashboard = (await f.op('owner', 'tableMeta', { tn: 'task' })).body.columns as any[];
    const pick = (cols: any[]) => cols.map((c) => ({ _cn: c._cn, uidt: c.uidt, kind: c.kind, meta: c.meta }));
    expect(pick(shared)).toEqual(pick(dashboard));
    // A Date column is a date picker and a SingleSelect's chips have their colours on the public page too.
    expect(shared.find((c) => c._cn === 'Due').kind).toBe('date');
    expect(shared.find((c) => c._cn === 'Status').meta.options.map((o: any) => o.title)).toEqual(['todo', 'doing', 'done']);
  });

  test('a form link whose creator may no longer add rows is gone for the visitor, without the table\'s name', async () => {
    const form = await createView({ tn: 'Customer', title: 'Editor form', type: 'form' }, 'editor');
    const { uuid } = await share({ view_id: form }, 'editor');
    expect((await pub('GET', uuid)).status).toBe(200);
    const rule = (create: boolean | null) => f.op('owner', 'aclSave', { tn: 'Customer', role: 'editor', rule: create === null ? null : { read: true, create, update: true, delete: true } });
    expect((await rule(false)).status).toBe(200);
    try {
      for (const res of [await pub('GET', uuid), await pub('POST', `${uuid}/rows`, { body: { FirstName: 'Ana', LastName: 'Lima', Email: 'ana@example.com' } })]) {
        expect(res.status).toBe(403);
        expect(res.body.msg).toBe('This shared view is no longer available');
      }
    } finally {
      await rule(null);
    }
    expect((await pub('GET', uuid)).status).toBe(200);
  }, ARGON_TIMEOUT_MS);

  test('a form link asks only for the fields its creator may set on a new row; the dashboard model lists them too', async () => {
    const form = await createView({ tn: 'task', title: 'Settable form', type: 'form', query_params: { form: { fields: [{ cn: 'title' }, { cn: 'status' }, { cn: 'due' }] } } }, 'editor');
    const { uuid } = await share({ view_id: form }, 'editor');
    const signUp = await createView({ tn: 'Customer', title: 'Settable sign-up', type: 'form', query_params: { form: { fields: [{ cn: 'FirstName' }, { cn: 'LastName' }, { cn: 'Email' }] } } }, 'editor');
    const customer = (await share({ view_id: signUp }, 'editor')).uuid;
    const rule = (tn: string, create: unknown) => f.op('owner', 'aclSave', { tn, role: 'editor', rule: create === null ? null : { read: true, create, update: true, delete: true } });
    expect((await rule('task', ['Title', 'Due'])).status).toBe(200);
    expect((await rule('Customer', ['FirstName', 'Email'])).status).toBe(200);
    try {
      expect((await f.op('editor', 'tableMeta', { tn: 'task' })).body.canCreateColumns).toEqual(['Title', 'Due']);
      // Status is not offered: the public form does not list it, and a body naming it is refused up front as unknown.
      expect((await pub('GET', uuid)).body.columns.map((c: any) => c._cn)).toEqual(['Title', 'Due']);
      const before = (await f.get('owner', 'task/count')).body.count;
      const refused = await pub('POST', `${uuid}/rows`, { body: { Title: 'Call back', Status: 'todo' } });
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 400, body: { msg: "Column 'Status' not found" } });
      expect((await pub('POST', `${uuid}/rows`, { body: { Title: 'Call back', Due: '2026-02-01' } })).status).toBe(200);
      expect((await f.get('owner', 'task/count')).body.count).toBe(before + 1);
      // LastName (NOT NULL, no default) may not be set: no submission can succeed, and that is said before any write is tried.
      expect((await pub('GET', customer)).body).toMatchObject({ columns: [{ _cn: 'FirstName' }, { _cn: 'Email' }], formMissesRequired: true });
      expect((await pub('GET', uuid)).body.formMissesRequired).toBeUndefined();
      const blocked = await pub('POST', `${customer}/rows`, { body: { FirstName: 'Ana', Email: 'ana@example.com' } });
      expect({ status: blocked.status, body: blocked.body }).toEqual({ status: 409, body: { msg: "This form cannot be sent: its table needs a value the form does not ask for. Please tell the form's owner." } });
    } finally {
      await rule('task', null);
      await rule('Customer', null);
    }
    expect((await pub('GET', uuid)).body.columns.map((c: any) => c._cn)).toEqual(['Title', 'Status', 'Due']);
  }, ARGON_TIMEOUT_MS);

  test('a link reads with its creator\'s current rights: lost columns vanish, a lost table or membership closes it', async () => {
    const byEditor = await createView({ tn: 'Customer', title: 'Editor view', type: 'grid', query_params: { fields: onlyFields('FirstName', 'Phone', 'Country') } }, 'editor');
    const { uuid } = await share({ view_id: byEditor }, 'editor');
    expect((await pub('GET', uuid)).body.columns.map((c: any) => c._cn)).toEqual(['FirstName', 'Phone', 'Country']);
    const rule = (read: unknown) => f.op('owner', 'aclSave', { tn: 'Customer', role: 'editor', rule: read === null ? null : { read, create: true, update: true, delete: true } });
    await rule(['CustomerId', 'FirstName', 'Country']);
    expect((await pub('GET', uuid)).body.columns.map((c: any) => c._cn)).toEqual(['FirstName', 'Country']);
    expect(Object.keys((await pub('GET', `${uuid}/rows?limit=1`)).body.list[0])).toEqual(['FirstName', 'Country']);
    expect((await pub('GET', `${uuid}/rows?where=(Phone,like,%25)`)).status).toBe(400);
    await rule(['CustomerId']);
    const none = await pub('GET', `${uuid}/rows`);
    expect(none.status).toBe(403);
    await rule(false);
    const lost = await pub('GET', `${uuid}/rows`);
    // The visitor is told the link is gone, not which table its creator lost.
    expect(lost.status).toBe(403);
    expect(lost.body.msg).toBe('This shared view is no longer available');
    expect(none.body.msg).toBe('This shared view is no longer available');
    expect((await pub('GET', `${uuid}/rows.csv`)).status).toBe(403);
    await rule(null);
    expect((await pub('GET', `${uuid}/rows`)).status).toBe(200);
    // A row rule of the creator applies to the link too.
    await f.op('owner', 'aclSave', { tn: 'Customer', role: 'editor', rule: { read: true, create: true, update: true, delete: true, where: '(Country,eq,Canada)' } });
    const canada = (await pub('GET', `${uuid}/rows?limit=100`)).body;
    expect(canada.pageInfo.totalRows).toBe(8);
    await rule(null);
    // The creator leaves the project: the link stops answering rows.
    const members = (await f.t.request('GET', `/admin?project_id=${f.projectId}`, { headers: { 'xc-auth': f.tokens.owner! } })).body;
    const editor = (members.list ?? members).find((m: any) => m.email === 'editor@example.com');
    expect((await f.t.request('DELETE', `/admin/${editor.id}?project_id=${f.projectId}`, { headers: { 'xc-auth': f.tokens.owner! } })).status).toBe(200);
    expect((await pub('GET', `${uuid}/rows`)).status).toBe(403);
  }, ARGON_TIMEOUT_MS);

  test('deleting the project takes its views and links', async () => {
    const { uuid } = await share({ view_id: viewId });
    expect((await pub('GET', uuid)).status).toBe(200);
    expect((await f.op('owner', 'projectDelete', {})).status).toBe(200);
    expect((await pub('GET', uuid)).status).toBe(404);
    const left = await f.t.app.ctx.meta.all('SELECT id FROM nc_views WHERE project_id = ?', [f.projectId]);
    expect(left).toEqual([]);
    expect(await f.t.app.ctx.meta.all('SELECT uuid FROM nc_shared_views WHERE project_id = ?', [f.projectId])).toEqual([]);
  }, ARGON_TIMEOUT_MS);
});
