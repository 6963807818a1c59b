/**
 * Row history and comments on three engines: every write path (REST create, update, delete, bulk,
 * GraphQL mutations) leaves who, when, which row and which columns with the previous and new value;
 * a reader never sees a hidden column in it, nor the history or comments of a row outside their
 * rule; commenters and above comment, viewers read; authors edit and delete their comments, owners
 * and creators delete anyone's; the Super Admin's audit log filters by project and table.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, type TestEngine } from '../helpers/engines';
import { chinookTable, loadChinook } from '../helpers/chinook';

const auth = (token: string) => ({ 'xc-auth': token });

describeEngines('row history and comments', (engine: TestEngine) => {
  const name = `tablo_t_rowactivity_${engine}`;
  let t: TestApp;
  let owner = '';
  let pid = '';
  const tokens: Record<string, string> = {};
  const join_ = async (email: string, roles: string) => {
    const invite = await t.request('POST', '/admin', { headers: auth(owner), body: { email, roles, project_id: pid } });
    const token = String(invite.body.invite_url).split('/signup/')[1]!;
    return (await t.request('POST', '/auth/signup', { body: { email, password: 'password123', token } })).body.token as string;
  };
  const op = (who: string, api: string, args?: unknown) => dashboardOp(t, tokens[who]!, api, { project_id: pid, args });
  const rest = (who: string, method: string, path: string, body?: unknown) => t.request(method, `/nc/${pid}/api/v1/${path}`, { headers: auth(tokens[who]!), body });
  const history = async (who: string, tn: string, pk: string) => (await op(who, 'rowHistory', { tn, pk })).body;

  beforeAll(async () => {
    t = await makeTestApp();
    owner = (await signupSuperAdmin(t, 'owner@example.com')).token;
    tokens.owner = owner;
    pid = await projectOver(t, owner, engine, `Activity ${engine}`, await loadChinook(engine, name, { fresh: true }));
    tokens.editor = await join_('editor@example.com', 'editor');
    tokens.commenter = await join_('commenter@example.com', 'commenter');
    tokens.creator = await join_('creator@example.com', 'creator');
    tokens.viewer = await join_('viewer@example.com', 'viewer');
    const cols = (await op('owner', 'tableMeta', { tn: 'Customer' })).body.columns as { cn: string; _cn: string }[];
    const sql = (alias: string) => cols.find((c) => c._cn === alias)!.cn;
    const readable = cols.filter((c) => c._cn !== 'Phone').map((c) => c.cn);
    const rule = { read: readable, create: false, update: false, delete: false, where: '(Country,eq,Brazil)' };
    expect((await op('owner', 'aclSave', { tn: chinookTable(engine, 'Customer'), role: 'viewer', rule })).status).toBe(200);
    void sql;
  });
  afterAll(async () => {
    await t.close();
    await dropDatabase(engine, name);
  });

  test('REST and GraphQL writes and bulk calls all leave history; a viewer never sees the hidden column', async () => {
    expect((await rest('editor', 'PUT', 'Customer/1', { Phone: '+55 000', City: 'Recife' })).status).toBe(200);
    const gql = await t.request('POST', `/nc/${pid}/v1/graphql`, { headers: auth(owner), body: { query: 'mutation { CustomerUpdate(id: "1", data: { Company: "Tablo Ltd" }) { CustomerId } }' } });
    expect(gql.body).toEqual({ data: { CustomerUpdate: { CustomerId: 1 } } });
    expect((await rest('editor', 'PUT', 'Customer/bulk', [{ CustomerId: 1, State: 'PE' }])).status).toBe(200);

    const full = (await history('owner', 'Customer', '1')).data.list as { op: string; column: string | null; value: string; prevValue: string; user: string }[];
    // Newest first: the bulk update, the GraphQL one, then the two columns of the REST update.
    expect(full.slice(0, 2).map((e) => [e.op, e.column, e.value])).toEqual([
      ['update', 'State', 'PE'],
      ['update', 'Company', 'Tablo Ltd'],
    ]);
    expect(full.slice(2).map((e) => [e.op, e.column, e.value]).sort()).toEqual([
      ['update', 'City', 'Recife'],
      ['update', 'Phone', '+55 000'],
    ]);
    expect(full.find((e) => e.column === 'City')).toMatchObject({ prevValue: 'São José dos Campos', user: 'editor@example.com' });

    // A value that reads as a JSON object is a column's value, not a row: kept whole.
    const note = '{"note":"ask for Ana","tags":["vip"]}';
    expect((await rest('editor', 'PUT', 'Customer/3', { Company: note })).status).toBe(200);
    expect((await history('owner', 'Customer', '3')).data.list[0]).toMatchObject({ column: 'Company', value: note });

    const seen = (await history('viewer', 'Customer', '1')).data.list as { column: string | null }[];
    expect(seen.map((e) => e.column)).not.toContain('Phone');
    expect(seen.length).toBe(full.length - 1);
  });

  test('an insert and a delete keep the row, without the hidden column for the viewer', async () => {
    const created = await rest('editor', 'POST', 'Customer', { CustomerId: 9001, FirstName: 'Ana', LastName: 'Lima', Email: 'ana@example.com', Phone: '+55 999', Country: 'Brazil' });
    expect(created.status).toBe(200);
    const forViewer = (await history('viewer', 'Customer', '9001')).data.list;
    expect(forViewer).toHaveLength(1);
    expect(forViewer[0].op).toBe('insert');
    expect(JSON.parse(forViewer[0].value)).toMatchObject({ FirstName: 'Ana', Country: 'Brazil' });
    expect(forViewer[0].value).not.toContain('+55 999');
    expect((await history('owner', 'Customer', '9001')).data.list[0].value).toContain('+55 999');
    expect((await rest('editor', 'DELETE', 'Customer/9001')).status).toBe(200);
    // The row is gone, so nobody reads its history through the row any more.
    expect((await op('owner', 'rowHistory', { tn: 'Customer', pk: '9001' })).status).toBe(404);
  });

  test('a bulk insert leaves one audit entry; each row\'s history shows its creation with its own values', async () => {
    const before = (await t.request('GET', `/admin/audit?op_type=DATA&project_id=${pid}&limit=500`, { headers: auth(owner) })).body.list.length as number;
    const made = await rest('editor', 'POST', 'Customer/bulk', [
      { CustomerId: 9101, FirstName: 'Bia', LastName: 'Souza', Email: 'bia@example.com', Phone: '+55 101', Country: 'Brazil' },
      { CustomerId: 9102, FirstName: 'Caio', LastName: 'Reis', Email: 'caio@example.com', Phone: '+55 102', Country: 'Brazil' },
    ]);
    expect(made.status).toBe(200);
    expect(made.body).toEqual(['9101', '9102']);
    const after = (await t.request('GET', `/admin/audit?op_type=DATA&project_id=${pid}&limit=500`, { headers: auth(owner) })).body.list.length as number;
    expect(after - before).toBe(1);
    const second = (await history('owner', 'Customer', '9102')).data.list;
    expect(second).toHaveLength(1);
    expect(second[0]).toMatchObject({ op: 'insert', user: 'editor@example.com' });
    expect(JSON.parse(second[0].value)).toMatchObject({ CustomerId: 9102, FirstName: 'Caio', Phone: '+55 102' });
    const forViewer = (await history('viewer', 'Customer', '9101')).data.list;
    expect(JSON.parse(forViewer[0].value)).toMatchObject({ FirstName: 'Bia' });
    expect(forViewer[0].value).not.toContain('+55 101');
    // A later change comes first; the creation stays at the end.
    expect((await rest('editor', 'PUT', 'Customer/9101', { City: 'Natal' })).status).toBe(200);
    expect((await history('owner', 'Customer', '9101')).data.list.map((e: { op: string; column: string | null }) => [e.op, e.column])).toEqual([['update', 'City'], ['insert', null]]);
    expect((await rest('editor', 'DELETE', 'Customer/bulk', ['9101', '9102'])).status).toBe(200);
  });

  test('rows that came in by an import show their creation (who, when, their values): one audit entry per batch', async () => {
    const upload = async (who: string, content: string, args: Record<string, unknown>) => {
      const form = new FormData();
      form.set('json', JSON.stringify({ api: 'importUpload', project_id: pid, dbAlias: 'db', args }));
      form.set('file', new Blob([content]), 'rows.csv');
      const res = await t.app.handle(new Request('http://localhost/dashboard?q=sqlOp_importUpload', { method: 'POST', headers: { 'xc-gui': 'true', ...auth(tokens[who]!) }, body: form }));
      expect(res.status).toBe(200);
      return ((await res.json()) as { uploadId: string }).uploadId;
    };
    const importRows = async (who: string, content: string, start: Record<string, unknown>) => {
      const s = await op(who, 'importStart', { uploadId: await upload(who, content, start.tn ? { tn: start.tn } : {}), ...start });
      expect(s.status).toBe(200);
      for (let i = 0; i < 2000; i++) {
        const job = (await op(who, 'importStatus', { jobId: s.body.id })).body;
        if (job.status !== 'running') return job;
        await Bun.sleep(20);
      }
      throw new Error('the import did not end');
    };
    const dataEntries = async () => (await t.request('GET', `/admin/audit?op_type=DATA&project_id=${pid}&limit=500`, { headers: auth(owner) })).body.list.length as number;
    const before = await dataEntries();
    // Keys given, into an existing table, two rows a batch: three entries for five rows.
    const csv = 'CustomerId,FirstName,LastName,Email,Phone,Country\n' + [9201, 9202, 9203, 9204, 9205].map((id) => `${id},Ana ${id},Lima,a${id}@example.com,+55 ${id},Brazil`).join('\n') + '\n';
    expect(await importRows('editor', csv, { tn: 'Customer', batchSize: 2 })).toMatchObject({ status: 'done', rowsImported: 5 });
    expect((await dataEntries()) - before).toBe(3);
    const third = (await history('owner', 'Customer', '9203')).data.list;
    expect(third).toHaveLength(1);
    expect(third[0]).toMatchObject({ op: 'insert', column: null, user: 'editor@example.com' });
    expect(typeof third[0].createdAt).toBe('string');
    expect(JSON.parse(third[0].value)).toMatchObject({ CustomerId: 9203, FirstName: 'Ana 9203', Phone: '+55 9203' });
    // The viewer's rule lets them read it; the hidden column stays hidden.
    const forViewer = (await history('viewer', 'Customer', '9205')).data.list;
    expect(JSON.parse(forViewer[0].value)).toMatchObject({ FirstName: 'Ana 9205' });
    expect(forViewer[0].value).not.toContain('+55 9205');
    // An auto-increment key the database chose, into a new table (a creator's): each row's own values.
    const made = await importRows('creator', 'Title,Qty\n' + Array.from({ length: 7 }, (_, i) => `item ${i + 1},${(i + 1) * 10}`).join('\n') + '\n', { create: { tn: 'act_imported' }, batchSize: 3 });
    expect(made).toMatchObject({ status: 'done', rowsImported: 7 });
    const rows = (await rest('owner', 'GET', 'act_imported?sort=Qty&limit=10')).body as Record<string, unknown>[];
    const fifth = rows[4]!;
    const key = Object.keys(fifth).find((k) => !['Title', 'Qty'].includes(k))!;
    const created = (await history('owner', 'act_imported', String(fifth[key]))).data.list;
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ op: 'insert', user: 'creator@example.com' });
    expect(JSON.parse(created[0].value)).toMatchObject({ Title: 'item 5', Qty: 50, [key]: fifth[key] });
    // A later change comes first; the creation stays at the end.
    expect((await rest('editor', 'PUT', `act_imported/${String(fifth[key])}`, { Qty: 55 })).status).toBe(200);
    expect((await history('owner', 'act_imported', String(fifth[key]))).data.list.map((e: { op: string; column: string | null }) => [e.op, e.column])).toEqual([['update', 'Qty'], ['insert', null]]);
    expect((await rest('editor', 'DELETE', 'Customer/bulk', ['9201', '9202', '9203', '9204', '9205'])).status).toBe(200);
    expect((await op('owner', 'tableDelete', { tn: 'act_imported' })).status).toBe(200);
  });

  test('a row outside the reader\'s rule: no history, no comments', async () => {
    expect((await op('viewer', 'rowHistory', { tn: 'Customer', pk: '2' })).status).toBe(404); // Germany
    expect((await op('viewer', 'commentList', { tn: 'Customer', pk: '2' })).status).toBe(404);
  });

  test('commenters and above comment; viewers read; counts per row', async () => {
    expect((await op('commenter', 'commentCreate', { tn: 'Customer', pk: '1', body: 'Called her today' })).status).toBe(200);
    expect((await op('editor', 'commentCreate', { tn: 'Customer', pk: '1', body: 'Thanks!' })).status).toBe(200);
    expect((await op('viewer', 'commentCreate', { tn: 'Customer', pk: '1', body: 'me too' })).status).toBe(403);
    expect(await op('commenter', 'commentCreate', { tn: 'Customer', pk: '1', body: '   ' })).toMatchObject({ status: 400, body: { msg: 'body: A comment cannot be empty' } });
    // Too long: said in words (and in the reader's language: web/src/i18n/messages/server), not as a schema check.
    expect(await op('commenter', 'commentCreate', { tn: 'Customer', pk: '1', body: 'x'.repeat(10_001) })).toMatchObject({ status: 400, body: { msg: 'body: A comment holds at most 10000 characters' } });
    const list = (await op('viewer', 'commentList', { tn: 'Customer', pk: '1' })).body.data.list;
    expect(list.map((c: { user: string; body: string }) => [c.user, c.body])).toEqual([
      ['commenter@example.com', 'Called her today'],
      ['editor@example.com', 'Thanks!'],
    ]);
    expect((await op('owner', 'commentCreate', { tn: 'Customer', pk: '2', body: 'Germany' })).status).toBe(200);
    expect((await op('owner', 'commentCounts', { tn: 'Customer', pks: ['1', '2', '3'] })).body.counts).toEqual({ '1': 2, '2': 1 });
    // The viewer's rule admits Brazil only: row 2 is not counted for them.
    expect((await op('viewer', 'commentCounts', { tn: 'Customer', pks: ['1', '2', '3'] })).body.counts).toEqual({ '1': 2 });
  });

  test('authors edit and delete their own comments; owners and creators delete anyone\'s; others 403', async () => {
    type Shown = { id: string; body: string; user: string; createdAt: string; updatedAt: string | null; canEdit: boolean; canDelete: boolean };
    const row = { tn: 'Customer', pk: '12' }; // in Brazil: the viewer reads it
    const add = async (who: string, body: string) => (await op(who, 'commentCreate', { ...row, body })).body as Shown;
    const list = async (who: string) => (await op(who, 'commentList', row)).body.data.list as Shown[];
    const mine = await add('commenter', 'First draft');
    expect(mine).toMatchObject({ updatedAt: null, canEdit: true, canDelete: true });
    const editors = await add('editor', 'Noted');

    // The author edits: the creation time stays, updatedAt is set, everyone reads the new text.
    const edited = await op('commenter', 'commentUpdate', { ...row, id: mine.id, body: '  Final text  ' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: mine.id, body: 'Final text', createdAt: mine.createdAt });
    expect(typeof edited.body.updatedAt).toBe('string');
    const seen = await list('viewer');
    expect(seen.map((c) => [c.body, c.createdAt, c.updatedAt !== null, c.canEdit, c.canDelete])).toEqual([
      ['Final text', mine.createdAt, true, false, false],
      ['Noted', editors.createdAt, false, false, false],
    ]);
    // What each caller may do, as the list tells the web app.
    expect((await list('commenter')).map((c) => [c.canEdit, c.canDelete])).toEqual([[true, true], [false, false]]);
    expect((await list('creator')).map((c) => [c.canEdit, c.canDelete])).toEqual([[false, true], [false, true]]);

    // Empty or too long text: 400 with the wording of the add.
    const empty = await op('commenter', 'commentUpdate', { ...row, id: mine.id, body: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe((await op('commenter', 'commentCreate', { ...row, body: '   ' })).body.msg);
    const long = 'x'.repeat(10_001);
    const tooLong = await op('commenter', 'commentUpdate', { ...row, id: mine.id, body: long });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.msg).toBe((await op('commenter', 'commentCreate', { ...row, body: long })).body.msg);

    // Someone else's comment: no edit for anyone but the author (not even owners), no delete for non-admins.
    for (const who of ['editor', 'viewer', 'creator', 'owner']) {
      const res = await op(who, 'commentUpdate', { ...row, id: mine.id, body: 'hijacked' });
      expect([who, res.status, typeof res.body.msg]).toEqual([who, 403, 'string']);
    }
    for (const who of ['editor', 'viewer']) expect((await op(who, 'commentDelete', { ...row, id: mine.id })).status).toBe(403);
    expect((await list('owner'))[0]!.body).toBe('Final text');

    // Unknown comment, or a comment asked for through another row: 404.
    expect((await op('commenter', 'commentUpdate', { ...row, id: 'cm_nope', body: 'x' })).status).toBe(404);
    expect((await op('commenter', 'commentDelete', { ...row, id: 'cm_nope' })).status).toBe(404);
    expect((await op('commenter', 'commentDelete', { tn: 'Customer', pk: '1', id: mine.id })).status).toBe(404);

    // The author deletes; the owner deletes another's; the grid's counts follow.
    expect((await op('owner', 'commentCounts', { tn: 'Customer', pks: ['12'] })).body.counts).toEqual({ '12': 2 });
    expect((await op('commenter', 'commentDelete', { ...row, id: mine.id })).status).toBe(200);
    expect((await op('commenter', 'commentDelete', { ...row, id: mine.id })).status).toBe(404);
    expect((await op('owner', 'commentCounts', { tn: 'Customer', pks: ['12'] })).body.counts).toEqual({ '12': 1 });
    expect((await op('owner', 'commentDelete', { ...row, id: editors.id })).status).toBe(200);
    expect(await list('viewer')).toEqual([]);
    expect((await op('owner', 'commentCounts', { tn: 'Customer', pks: ['12'] })).body.counts).toEqual({});
    // A creator deletes anyone's too.
    const another = await add('editor', 'One more');
    expect((await op('creator', 'commentDelete', { ...row, id: another.id })).status).toBe(200);
  });

  test('the Super Admin\'s audit log filters by project and table', async () => {
    const res = await t.request('GET', `/admin/audit?op_type=DATA&project_id=${pid}&tn=${chinookTable(engine, 'Customer')}&limit=500`, { headers: auth(owner) });
    expect(res.status).toBe(200);
    expect(res.body.list.length).toBeGreaterThan(3);
    expect(res.body.list.every((e: { projectId: string; tn: string }) => e.projectId === pid && e.tn === chinookTable(engine, 'Customer'))).toBe(true);
    const none = await t.request('GET', `/admin/audit?project_id=${pid}&tn=no_such_table`, { headers: auth(owner) });
    expect(none.body.list).toEqual([]);
  });

  test('a many-to-many link made and removed shows in the history of both rows, by the other row\'s name', async () => {
    expect((await rest('editor', 'POST', 'Playlist/2/mm/Track/1')).status).toBe(200);
    expect((await rest('editor', 'DELETE', 'Playlist/2/mm/Track/1')).status).toBe(200);
    const track = (await history('owner', chinookTable(engine, 'Track'), '1')).data.list as { op: string; value: string; user: string }[];
    expect(track.map((e) => [e.op, JSON.parse(e.value), e.user])).toEqual([
      ['unlink', { table: 'Playlist', id: '2', label: 'Movies' }, 'editor@example.com'],
      ['link', { table: 'Playlist', id: '2', label: 'Movies' }, 'editor@example.com'],
    ]);
    const playlist = (await history('owner', chinookTable(engine, 'Playlist'), '2')).data.list as { op: string; value: string }[];
    expect(playlist.map((e) => [e.op, JSON.parse(e.value)])).toEqual([
      ['unlink', { table: 'Track', id: '1', label: 'For Those About To Rock (We Salute You)' }],
      ['link', { table: 'Track', id: '1', label: 'For Those About To Rock (We Salute You)' }],
    ]);
    // A reader who may not read the other table does not see the link.
    const rule = { read: false, create: false, update: false, delete: false };
    expect((await op('owner', 'aclSave', { tn: chinookTable(engine, 'Playlist'), role: 'editor', rule })).status).toBe(200);
    expect((await history('editor', chinookTable(engine, 'Track'), '1')).data.list.filter((e: { op: string }) => e.op.endsWith('link'))).toEqual([]);
    expect((await op('owner', 'aclSave', { tn: chinookTable(engine, 'Playlist'), role: 'editor', rule: null })).status).toBe(200);
    // The other table renamed through Tablo: the links still show, under its new name.
    const renamed = `${chinookTable(engine, 'Playlist')}_lists`;
    expect((await dashboardOp(t, owner, 'tableRename', { project_id: pid, args: { tn: chinookTable(engine, 'Playlist'), newTn: renamed }, plus: true })).status).toBe(200);
    const after = (await history('owner', chinookTable(engine, 'Track'), '1')).data.list as { op: string; value: string }[];
    expect(after.filter((e) => e.op.endsWith('link')).map((e) => JSON.parse(e.value).label)).toEqual(['Movies', 'Movies']);
    expect((await dashboardOp(t, owner, 'tableRename', { project_id: pid, args: { tn: renamed, newTn: chinookTable(engine, 'Playlist') }, plus: true })).status).toBe(200);
  });

  test('a table and a column renamed through Tablo keep the rows\' comments and history', async () => {
    const tn = chinookTable(engine, 'Genre');
    const plus = (api: string, args: unknown) => dashboardOp(t, owner, api, { project_id: pid, args, plus: true });
    const nameCn = ((await op('owner', 'tableMeta', { tn })).body.columns as { cn: string; _cn: string }[]).find((c) => c._cn === 'Name')!.cn;
    expect((await rest('owner', 'PUT', 'Genre/2', { Name: 'Jazz standards' })).status).toBe(200);
    expect((await op('owner', 'commentCreate', { tn, pk: '2', body: 'Kept across renames' })).status).toBe(200);
    const renamed = `${tn}_kinds`;
    expect((await plus('tableRename', { tn, newTn: renamed })).status).toBe(200);
    expect((await plus('columnUpdate', { tn: renamed, cn: nameCn, column: { cn: 'title', _cn: 'Title' } })).status).toBe(200);
    const comments = (await op('owner', 'commentList', { tn: renamed, pk: '2' })).body.data.list;
    expect(comments.map((c: { body: string }) => c.body)).toEqual(['Kept across renames']);
    expect((await op('owner', 'commentCounts', { tn: renamed, pks: ['2'] })).body.counts).toEqual({ '2': 1 });
    const list = (await history('owner', renamed, '2')).data.list as { op: string; column: string | null; value: string; prevValue: string }[];
    expect(list.find((e) => e.op === 'update')).toMatchObject({ column: 'Title', value: 'Jazz standards', prevValue: 'Jazz' });
  });
});
