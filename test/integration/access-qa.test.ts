/**
 * Authorization holes found in a quality pass, one row per call: who calls (a member by role, a
 * signed-in user of another project, with or without `xc-preview`), which route or dashboard
 * operation, and the status it must answer. Rows that passed before their fix are the regression
 * guard; the set-up is one SQLite project (and a second one for the stranger).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { joinProject, libraryProject } from '../helpers/security';

let t: TestApp;
let owner = '';
let projectId = '';
let otherProject = '';
const tokens: Record<string, string> = {};
/** Ids made during set-up that the rows below name. */
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await makeTestApp();
  owner = (await signupSuperAdmin(t, 'owner@example.com')).token;
  projectId = await libraryProject(t, owner, 'sqlite', 'tablo_t_access_qa_a', 'Access QA');
  otherProject = await libraryProject(t, owner, 'sqlite', 'tablo_t_access_qa_b', 'Access QA other');
  for (const role of ['creator', 'editor', 'commenter', 'viewer']) tokens[role] = await joinProject(t, owner, projectId, `${role}@example.com`, role);
  // A user of another project only: an owner there, nothing here.
  tokens.stranger = await joinProject(t, owner, otherProject, 'stranger@example.com', 'owner');
  const saved = await dashboardOp(t, owner, 'apiClientItemSave', { project_id: projectId, args: { kind: 'request', name: 'with a token', data: { headers: { 'xc-auth': 'owner-secret' } } } });
  expect(saved.status).toBe(200);
  ids.apiItem = saved.body.id;
  // Viewers read notes without their secret, and no authors.
  const rules = [
    { tn: 'note', role: 'viewer', rule: { read: ['id', 'title'], create: false, update: false, delete: false } },
    { tn: 'author', role: 'viewer', rule: { read: false, create: false, update: false, delete: false } },
  ];
  for (const args of rules) expect((await dashboardOp(t, owner, 'aclSave', { project_id: projectId, args })).status).toBe(200);
  // One of each thing a project keeps by id, for the rows that reach them from another project.
  const made = async (op: string, args: unknown) => {
    const res = await dashboardOp(t, owner, op, { project_id: projectId, args });
    expect(res.status).toBe(200);
    return res.body;
  };
  ids.hook = (await made('xcHookCreate', { tn: 'note', title: 'h', event: 'after.insert', active: false, notification: { type: 'url', url: 'http://127.0.0.1:9/x' } })).id;
  ids.cron = (await made('xcCronCreate', { title: 'c', pattern: '0 0 1 1 *', active: false, action: { type: 'url', url: 'http://127.0.0.1:9/x' } })).id;
  ids.view = (await made('xcVirtualTableCreate', { tn: 'note', title: 'Mine', type: 'grid' })).id;
  ids.link = (await made('createSharedViewLink', { view_id: ids.view })).uuid;
  ids.token = (await made('xcApiTokenCreate', { description: 'd', role: 'viewer' })).id;
  ids.comment = (await made('commentCreate', { tn: 'note', pk: '1', body: 'hello' })).id;
  ids.query = (await made('sqlQuerySave', { name: 'q', sql: 'SELECT 1' })).id;
  ids.pwLink = (await made('createSharedViewLink', { view_id: ids.view, password: 'owner-password' })).uuid;
  const own = await dashboardOp(t, tokens.editor!, 'createSharedViewLink', { project_id: projectId, args: { view_id: ids.view } });
  expect(own.status).toBe(200);
  ids.editorLink = own.body.uuid;
}, 60_000);
afterAll(async () => t.close());

interface Row {
  /** A key of `tokens`, or 'owner'. */
  who: string;
  preview?: string;
  op: string;
  args?: () => unknown;
  /** The status wanted. */
  want: number;
  /** The project named in the call (default: the project of the set-up). */
  project?: () => string;
}

/** `xc-preview` is for owners, creators and the Super Admin: anyone else's is ignored, never a way in. */
const PREVIEW_ROWS: Row[] = [
  { who: 'stranger', preview: 'viewer', op: 'tableList', want: 403 },
  { who: 'stranger', preview: 'editor', op: 'projectEnvList', want: 403 },
  { who: 'stranger', preview: 'viewer', op: 'apiClientItemList', args: () => ({ kind: 'request' }), want: 403 },
  { who: 'stranger', preview: 'editor', op: 'xcVirtualTableList', args: () => ({ tn: 'note' }), want: 403 },
  { who: 'viewer', preview: 'editor', op: 'apiClientItemSave', args: () => ({ kind: 'request', name: 'x', data: {} }), want: 403 },
  { who: 'viewer', preview: 'editor', op: 'apiClientItemDelete', args: () => ({ id: ids.apiItem }), want: 403 },
  { who: 'commenter', preview: 'editor', op: 'apiClientItemSave', args: () => ({ kind: 'request', name: 'x', data: {} }), want: 403 },
  // Still honoured for who may preview: an owner previewing a viewer is refused what a viewer is.
  { who: 'owner', preview: 'viewer', op: 'apiClientItemSave', args: () => ({ kind: 'request', name: 'x', data: {} }), want: 403 },
  { who: 'creator', preview: 'editor', op: 'apiClientItemSave', args: () => ({ kind: 'request', name: 'y', data: {} }), want: 403 },
];

/** Checking formulas is for the owners' and creators' formula editor: it tells columns and types that rights hide. */
const FORMULA_ROWS: Row[] = [
  { who: 'viewer', op: 'formulaValidate', args: () => ({ tn: 'note', formula: '{secret}' }), want: 403 },
  { who: 'editor', op: 'formulaValidate', args: () => ({ tn: 'author', formula: '{name}' }), want: 403 },
  { who: 'owner', preview: 'editor', op: 'formulaValidate', args: () => ({ tn: 'note', formula: '{secret}' }), want: 403 },
  { who: 'creator', op: 'formulaValidate', args: () => ({ tn: 'note', formula: '{secret}' }), want: 200 },
];

/** A hook's header values in full: owners and creators only, not while previewing a lower role. */
const HOOK_ROWS: Row[] = [
  { who: 'editor', op: 'xcHookHeaders', args: () => ({ id: ids.hook }), want: 403 },
  { who: 'owner', preview: 'editor', op: 'xcHookHeaders', args: () => ({ id: ids.hook }), want: 403 },
  { who: 'creator', op: 'xcHookHeaders', args: () => ({ id: ids.hook }), want: 200 },
  { who: 'editor', op: 'xcCronHeaders', args: () => ({ id: ids.cron }), want: 403 },
];

/**
 * Things of this project reached by id through another project: its owner (the stranger) names their
 * own project and this project's ids. Each is not found there, and is left as it was.
 */
const IDOR_OPS: [string, () => unknown][] = [
  ['xcHookUpdate', () => ({ id: ids.hook, title: 'taken' })],
  ['xcHookTest', () => ({ id: ids.hook })],
  ['xcHookLogs', () => ({ id: ids.hook })],
  ['xcHookHeaders', () => ({ id: ids.hook })],
  ['xcHookDelete', () => ({ id: ids.hook })],
  ['xcCronUpdate', () => ({ id: ids.cron, title: 'taken' })],
  ['xcCronRun', () => ({ id: ids.cron })],
  ['xcCronLogs', () => ({ id: ids.cron })],
  ['xcCronHeaders', () => ({ id: ids.cron })],
  ['xcCronDelete', () => ({ id: ids.cron })],
  ['xcVirtualTableUpdate', () => ({ id: ids.view, title: 'taken' })],
  ['xcVirtualTableDelete', () => ({ id: ids.view })],
  ['xcVirtualTableCreate', () => ({ tn: 'note', title: 'copy', copy_from_id: ids.view })],
  ['createSharedViewLink', () => ({ view_id: ids.view })],
  ['updateSharedViewLinkPassword', () => ({ uuid: ids.link, password: 'taken' })],
  ['deleteSharedViewLink', () => ({ uuid: ids.link })],
  ['xcApiTokenUpdate', () => ({ id: ids.token, enabled: false })],
  ['xcApiTokenDelete', () => ({ id: ids.token })],
  ['commentUpdate', () => ({ tn: 'note', pk: '1', id: ids.comment, body: 'taken' })],
  ['commentDelete', () => ({ tn: 'note', pk: '1', id: ids.comment })],
  ['apiClientItemDelete', () => ({ id: ids.apiItem })],
  ['sqlQueryDelete', () => ({ id: ids.query })],
];
const IDOR_ROWS: Row[] = IDOR_OPS.map(([op, args]) => ({ who: 'stranger', op, args, want: 404, project: () => otherProject }));

/**
 * A link reads with its creator's rights: an editor changing an owner's link (its password removed)
 * read through it what their role hides. Editors change their own links; owners and creators all.
 */
const LINK_ROWS: Row[] = [
  { who: 'editor', op: 'updateSharedViewLinkPassword', args: () => ({ uuid: ids.pwLink, password: null }), want: 404 },
  { who: 'editor', op: 'updateSharedViewLink', args: () => ({ uuid: ids.pwLink, allowCsvDownload: true }), want: 404 },
  { who: 'editor', op: 'deleteSharedViewLink', args: () => ({ uuid: ids.pwLink }), want: 404 },
  { who: 'editor', op: 'updateSharedViewLink', args: () => ({ uuid: ids.editorLink, allowCsvDownload: true }), want: 200 },
  { who: 'creator', op: 'updateSharedViewLink', args: () => ({ uuid: ids.editorLink, allowCsvDownload: false }), want: 200 },
];

const ROWS = [...PREVIEW_ROWS, ...FORMULA_ROWS, ...HOOK_ROWS, ...IDOR_ROWS, ...LINK_ROWS];

const token = (who: string) => (who === 'owner' ? owner : tokens[who]!);

test('dashboard operations answer each caller as the table says', async () => {
  const got: string[] = [];
  const want: string[] = [];
  for (const r of ROWS) {
    const headers: Record<string, string> = r.preview ? { 'xc-preview': r.preview } : {};
    const res = await dashboardOp(t, token(r.who), r.op, { project_id: r.project?.() ?? projectId, args: r.args?.() ?? {}, headers });
    const label = `${r.who}${r.preview ? ` previewing ${r.preview}` : ''}: ${r.op}`;
    got.push(`${label} -> ${res.status}`);
    want.push(`${label} -> ${r.want}`);
  }
  expect(got).toEqual(want);
  // What the stranger named is still there, unchanged.
  const list = async (op: string, args: unknown = {}) => (await dashboardOp(t, owner, op, { project_id: projectId, args })).body;
  expect((await list('xcHookList', { tn: 'note' })).data.list.map((h: any) => h.title)).toEqual(['h']);
  expect((await list('xcCronList')).data.list.map((c: any) => c.title)).toEqual(['c']);
  expect((await list('xcVirtualTableList', { tn: 'note' })).data.list.map((v: any) => v.title)).toEqual(['Grid view', 'Mine']);
  expect((await list('listSharedViewLinks')).data.list).toMatchObject([
    { uuid: ids.link, hasPassword: false },
    { uuid: ids.pwLink, hasPassword: true, allowCsvDownload: false },
    { uuid: ids.editorLink, hasPassword: false },
  ]);
  // An editor lists the links they made only.
  const editorLinks = (await dashboardOp(t, tokens.editor!, 'listSharedViewLinks', { project_id: projectId, args: {} })).body.data.list;
  expect(editorLinks.map((l: any) => l.uuid)).toEqual([ids.editorLink]);
  expect((await list('xcApiTokenList')).data.list).toMatchObject([{ id: ids.token, enabled: true }]);
  expect((await list('commentList', { tn: 'note', pk: '1' })).data.list).toMatchObject([{ id: ids.comment, body: 'hello' }]);
  expect((await list('sqlQueryList')).list).toMatchObject([{ id: ids.query }]);
  expect((await list('apiClientItemList', { kind: 'request' })).data.list.map((i: any) => i.id)).toContain(ids.apiItem);
});

test("a project's OpenAPI document names only the tables and columns the caller may read", async () => {
  const doc = async (who: string) => (await t.request('GET', `/nc/${projectId}/docs/openapi.json`, { headers: { 'xc-auth': token(who) } })).body;
  const shape = (d: any) => ({ tables: d.tags.map((x: any) => x.name), note: Object.keys(d.components.schemas.Note.properties), book: Object.keys(d.paths).filter((p: string) => p.startsWith('/api/v1/Book/{id}/')) });
  expect(shape(await doc('viewer'))).toEqual({ tables: ['Book', 'Note'], note: ['Id', 'Title'], book: ['/api/v1/Book/{id}/exists'] });
  expect(shape(await doc('owner'))).toEqual({ tables: ['Author', 'Book', 'Note'], note: ['Id', 'Title', 'Secret'], book: expect.arrayContaining(['/api/v1/Book/{id}/exists']) });
  expect(shape(await doc('editor')).note).toEqual(['Id', 'Title', 'Secret']);
});

test("a project's GraphQL schema, as introspected, names only the tables and columns the caller may read; reads go on", async () => {
  const gql = async (who: string, query: string) => (await t.request('POST', `/nc/${projectId}/v1/graphql`, { headers: { 'xc-auth': token(who) }, body: { query } })).body;
  const shape = async (who: string) => {
    const body = await gql(who, '{ __schema { queryType { fields { name } } } note: __type(name: "Note") { fields { name } } }');
    return { lists: body.data.__schema.queryType.fields.map((f: { name: string }) => f.name).filter((n: string) => n.endsWith('List')).sort(), note: body.data.note.fields.map((f: { name: string }) => f.name).filter((n: string) => !/List$|Read$|Count$/.test(n)) };
  };
  expect(await shape('viewer')).toEqual({ lists: ['BookList', 'NoteList'], note: ['Id', 'Title'] });
  expect(await shape('owner')).toEqual({ lists: ['AuthorList', 'BookList', 'NoteList'], note: ['Id', 'Title', 'Secret'] });
  // The viewer still reads what they may; asking for a hidden column is refused naming it.
  expect((await gql('viewer', '{ NoteList(limit: 1) { Id Title } }')).data.NoteList).toHaveLength(1);
  expect((await gql('viewer', '{ NoteList(limit: 1) { Secret } }')).errors[0].extensions.code).toBe('FORBIDDEN');
  expect((await gql('owner', '{ NoteList(limit: 1) { Secret } }')).data.NoteList).toHaveLength(1);
});

test("an editor changing an owner's view keeps the columns the owner hid there, hidden from the editor too, out of the owner's link", async () => {
  const fields = [{ cn: 'id', show: true }, { cn: 'title', show: true }, { cn: 'secret', show: false }];
  const view = (await dashboardOp(t, owner, 'xcVirtualTableCreate', { project_id: projectId, args: { tn: 'note', title: 'No secrets', type: 'grid', query_params: { fields } } })).body.id;
  const link = (await dashboardOp(t, owner, 'createSharedViewLink', { project_id: projectId, args: { view_id: view } })).body.uuid;
  const shown = async () => Object.keys((await t.request('GET', `/api/v1/shared/${link}/rows?limit=1`)).body.list[0]);
  expect(await shown()).toEqual(['Id', 'Title']);
  // Viewers read no secret; the editor is given the same rule for this table here.
  await dashboardOp(t, owner, 'aclSave', { project_id: projectId, args: { tn: 'note', role: 'editor', rule: { read: ['id', 'title'], create: true, update: true, delete: true } } });
  try {
    const sorted = await dashboardOp(t, tokens.editor!, 'xcVirtualTableUpdate', { project_id: projectId, args: { id: view, query_params: { sort: '-title' } } });
    expect(sorted.status).toBe(200);
    expect(await shown()).toEqual(['Id', 'Title']);
    const stored = (await dashboardOp(t, owner, 'xcVirtualTableList', { project_id: projectId, args: { tn: 'note' } })).body.data.list.find((v: any) => v.id === view);
    expect(stored.query_params).toMatchObject({ sort: '-title', fields });
  } finally {
    await dashboardOp(t, owner, 'aclSave', { project_id: projectId, args: { tn: 'note', role: 'editor', rule: null } });
  }
});

test('an unknown `xc-preview` role answers 400 naming the allowed roles, on REST, GraphQL and dashboard calls alike', async () => {
  const headers = { 'xc-auth': owner, 'xc-preview': 'admin' };
  const rest = await t.request('GET', `/nc/${projectId}/api/v1/Note?limit=1`, { headers });
  const graphql = await t.request('POST', `/nc/${projectId}/v1/graphql`, { headers, body: { query: '{ NoteList(limit: 1) { Id } }' } });
  const dashboard = await dashboardOp(t, owner, 'tableList', { project_id: projectId, headers: { 'xc-preview': 'admin' } });
  const msg = "Unknown preview role 'admin': allowed are editor, commenter, viewer, guest";
  for (const res of [rest, graphql, dashboard]) expect(res.status).toBe(400);
  expect(rest.body).toEqual({ msg });
  expect(dashboard.body).toEqual({ msg });
  // GraphQL says it the GraphQL way, as its other refusals.
  expect(graphql.body.errors[0]).toMatchObject({ message: msg, extensions: { code: 'BAD_REQUEST' } });
  // A known role still previews; the same calls without a preview go on.
  expect((await t.request('GET', `/nc/${projectId}/api/v1/Note?limit=1`, { headers: { 'xc-auth': owner, 'xc-preview': 'viewer' } })).status).toBe(200);
  expect((await dashboardOp(t, owner, 'tableList', { project_id: projectId })).status).toBe(200);
});
