/**
 * Project metadata export, reset and import on three engines: export -> reset -> import gives back
 * the same table metadata (display names, hidden columns, virtual columns), rules and visibility;
 * import onto another project over a copy of the same schema; a zip with a path that leaves the
 * archive, a zip bomb, a foreign file, a newer format, unknown tables are refused or reported and
 * change nothing; no secret is ever in the zip.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { strToU8, zipSync, unzipSync, strFromU8 } from 'fflate';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { chinookTable, loadChinook } from '../helpers/chinook';
import { describeEngines, dropDatabase, type TestEngine } from '../helpers/engines';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => t.close());

/** A multipart dashboard call with a file, as the web app sends uploads. */
async function upload(api: string, projectId: string, file: Uint8Array | string, args: unknown = {}) {
  const form = new FormData();
  form.set('json', JSON.stringify({ api, project_id: projectId, args }));
  form.set('file', new File([file as BlobPart], 'meta.zip', { type: 'application/zip' }));
  const res = await t.app.handle(new Request(`http://localhost/dashboard?q=sqlOp_${api}`, { method: 'POST', headers: { 'xc-auth': token, 'xc-gui': 'true' }, body: form }));
  return { status: res.status, body: (await res.json()) as any };
}

async function exportZip(projectId: string): Promise<Uint8Array> {
  const res = await t.app.handle(
    new Request('http://localhost/dashboard?q=sqlOp_xcMetaTablesExportDbToZip', {
      method: 'POST',
      headers: { 'xc-auth': token, 'content-type': 'application/json' },
      body: JSON.stringify({ api: 'xcMetaTablesExportDbToZip', project_id: projectId }),
    }),
  );
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  return new Uint8Array(await res.arrayBuffer());
}

const zipOf = (files: Record<string, string | Uint8Array>) => zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? strToU8(v) : v])));
const manifest = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ format: 'tablo-project-meta', formatVersion: 1, tabloVersion: '0.1.0', createdAt: '2026-11-25T00:00:00Z', project: { title: 'X', projectType: 'rest' }, databases: [{ dbAlias: 'db', engine: 'sqlite' }], ...extra });

/** hooks.json with one hook of `tn` (default: the Customer table of SQLite's Chinook) doing `notification`. */
const hooks = (notification: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify([{ title: 'H', tn: 'Customer', event: 'after.insert', where_cond: null, active: 1, notification, ...extra }]);
/** crons.json with one job, changed by `extra`. */
const crons = (extra: Record<string, unknown>) =>
  JSON.stringify([{ title: 'C', pattern: '0 3 * * *', timezone: 'UTC', active: 1, action: { type: 'sql', sql: 'SELECT 1', dbAlias: 'db' }, ...extra }]);

describeEngines('project metadata export, reset and import', (engine: TestEngine) => {
  const name = `tablo_t_projmeta_${engine}`;
  let pid = '';
  const op = (api: string, args: unknown = {}, projectId = pid) => dashboardOp(t, token, api, { project_id: projectId, args });
  const customer = chinookTable(engine, 'Customer');
  const invoice = chinookTable(engine, 'Invoice');
  const state = async (projectId = pid) => ({
    customer: (await op('tableMeta', { tn: 'Client' }, projectId)).body,
    invoice: (await op('tableMeta', { tn: 'Invoice' }, projectId)).body,
    acl: (await op('aclList', { tn: customer }, projectId)).body,
    visibility: (await op('modelVisibilityList', {}, projectId)).body,
    views: ((await op('xcVirtualTableList', { tn: customer }, projectId)).body.data.list as { title: string; type: string; query_params: unknown }[]).map((v) => ({ title: v.title, type: v.type, query_params: v.query_params })),
    hooks: ((await op('xcHookList', { tn: customer }, projectId)).body.data.list as { title: string; event: string }[]).map((h) => [h.title, h.event]),
    crons: ((await op('xcCronList', {}, projectId)).body.data.list as { title: string; pattern: string }[]).map((c) => [c.title, c.pattern]),
  });

  beforeAll(async () => {
    const cfg = await loadChinook(engine, name);
    pid = await projectOver(t, token, engine, `Meta ${engine}`, cfg);
    const cols = (await op('tableMeta', { tn: 'Customer' })).body.columns as { cn: string; _cn: string }[];
    const phone = cols.find((c) => c._cn === 'Phone')!.cn;
    const fax = cols.find((c) => c._cn === 'Fax')!.cn;
    expect((await op('modelUpdate', { tn: customer, _tn: 'Client', columns: { [phone]: { _cn: 'Telephone' }, [fax]: { hidden: true } } })).status).toBe(200);
    expect((await dashboardOp(t, token, 'virtualColumnCreate', { project_id: pid, plus: true, args: { tn: invoice, column: { _cn: 'Doubled', uidt: 'Formula', formula: '{Total} * 2' } } })).status).toBe(200);
    expect((await op('aclSave', { tn: customer, role: 'viewer', rule: { read: [phone], create: false, update: false, delete: false, where: '(Country,eq,Brazil)' } })).status).toBe(200);
    expect((await op('disableOrEnableModel', { type: 'table', name: invoice, role: 'viewer', enabled: false })).status).toBe(200);
    const view = await op('xcVirtualTableCreate', { tn: customer, title: 'Brazil', type: 'grid', query_params: { where: '(Country,eq,Brazil)', sort: '-City' } });
    expect(view.status).toBe(200);
    expect((await op('createSharedViewLink', { view_id: view.body.id, password: 'link-pass-Q7' })).status).toBe(200);
    expect((await op('xcHookCreate', { tn: customer, title: 'Notify', event: 'after.insert', notification: { type: 'url', url: 'http://127.0.0.1:9/hook', headers: { Authorization: 'Bearer hook-header-secret' } } })).status).toBe(200);
    expect((await op('xcCronCreate', { title: 'Nightly', pattern: '0 3 * * *', action: { type: 'sql', sql: 'SELECT 1', dbAlias: 'db' } })).status).toBe(200);
  });
  afterAll(async () => dropDatabase(engine, name));

  test('export -> reset -> import gives back the same metadata', async () => {
    const before = await state();
    expect(before.customer._tn).toBe('Client');
    const zip = await exportZip(pid);
    const files = unzipSync(zip);
    expect(Object.keys(files).sort()).toEqual([
      'db/db/acl.json', 'db/db/hooks.json', 'db/db/migrations.json', 'db/db/models.json', 'db/db/sharedViews.json', 'db/db/views.json', 'db/db/visibility.json', 'manifest.json', 'project/crons.json',
    ]);
    const text = Object.values(files).map((f) => strFromU8(f)).join('\n');
    for (const secret of ['link-pass-Q7', 'hook-header-secret', '$argon2']) expect(text.includes(secret)).toBe(false);
    expect(JSON.parse(strFromU8(files['manifest.json']!))).toMatchObject({ format: 'tablo-project-meta', formatVersion: 1, databases: [{ dbAlias: 'db', engine }] });

    expect((await op('xcMetaTablesReset')).body).toEqual({ ok: true });
    expect((await op('tableMeta', { tn: 'Client' })).status).toBe(404);
    expect((await op('tableMeta', { tn: 'Customer' })).body._tn).toBe('Customer');
    expect((await op('tableMeta', { tn: 'Invoice' })).body.columns.some((c: { _cn: string }) => c._cn === 'Doubled')).toBe(false);

    const imported = await upload('xcMetaTablesImportZipToLocalFsAndDb', pid, zip);
    expect(imported.status).toBe(200);
    // The shared link had a password, which an export never holds: it is reported, not recreated.
    expect(imported.body.skipped).toEqual([expect.stringMatching(/^db: shared link .*: it had a password/)]);
    expect(await state()).toEqual(before);
    const rows = await t.request('GET', `/nc/${pid}/api/v1/Invoice/1?fields=Total,Doubled`, { headers: { 'xc-auth': token } });
    expect(Number(rows.body.Doubled)).toBeCloseTo(Number(rows.body.Total) * 2);
    // Clearing and importing are in the audit log with who did them, as are the hook and the job made above.
    const audit = async (kind: string) => ((await t.request('GET', `/admin/audit?op_type=${kind}&project_id=${pid}`, { headers: { 'xc-auth': token } })).body.list as { description: string }[]).map((e) => e.description);
    expect(await audit('METADATA')).toEqual(['metadata imported (1 entry skipped)', 'metadata cleared']);
    expect(await audit('AUTOMATION')).toEqual(["cron job 'Nightly' created", `webhook 'Notify' of '${customer}' created`]);
  });

  test('import onto another project over a copy of the same schema', async () => {
    const copyName = `${name}_copy`;
    const other = await projectOver(t, token, engine, `Meta copy ${engine}`, await loadChinook(engine, copyName));
    try {
      const res = await upload('xcMetaTablesImportZipToLocalFsAndDb', other, await exportZip(pid));
      expect(res.status).toBe(200);
      expect(res.body.skipped).toEqual([]);
      expect(await state(other)).toEqual(await state());
    } finally {
      await dashboardOp(t, token, 'projectDelete', { project_id: other });
      await dropDatabase(engine, copyName);
    }
  });

  test('a new project from a zip and a connection', async () => {
    const copyName = `${name}_byzip`;
    const cfg = await loadChinook(engine, copyName);
    let connection = cfg.connection as Record<string, unknown>;
    if (engine === 'sqlite') {
      await Bun.write(`${t.dataDir}/byzip.sqlite`, Bun.file(cfg.connection.filename!));
      connection = { filename: 'byzip.sqlite' };
    }
    const res = await upload('projectCreateByZip', '', await exportZip(pid), { title: `From zip ${engine}`, db: { client: engine, connection } });
    try {
      expect(res.status).toBe(200);
      expect(res.body.skipped).toEqual([]);
      expect(await state(res.body.id)).toEqual(await state());
    } finally {
      if (res.body.id) await dashboardOp(t, token, 'projectDelete', { project_id: res.body.id });
      await dropDatabase(engine, copyName);
    }
  });

  test('unknown tables and columns are reported and skipped, never applied', async () => {
    const zip = zipOf({
      'manifest.json': manifest(),
      'db/db/models.json': JSON.stringify([{ tn: 'no_such_table', meta: { _tn: 'Ghost' } }, { tn: customer, meta: { _tn: 'Client', columns: { no_such_column: { _cn: 'Ghost' } } } }]),
      'db/db/acl.json': JSON.stringify([{ tn: 'pwned; DROP TABLE x', role: 'viewer', rule: { read: true, create: false, update: false, delete: false } }]),
      'db/db/hooks.json': hooks({ type: 'url', url: 'http://127.0.0.1:9/x' }, { tn: customer, title: 'Ghostly', where_cond: '(NoSuchColumn,eq,1)' }),
    });
    const res = await upload('xcMetaTablesImportZipToLocalFsAndDb', pid, zip);
    expect(res.status).toBe(200);
    expect(res.body.skipped).toEqual([
      "db: table 'no_such_table': not in this database",
      `db: column '${customer}.no_such_column': not in this database`,
      "db: rule of 'viewer' on 'pwned; DROP TABLE x': the table is not in this database",
      `db: webhook 'Ghostly' of '${customer}': its condition does not fit this table: Column 'NoSuchColumn' not found`,
    ]);
    expect((await op('xcHookList', { tn: customer })).body.data.list).toEqual([]);
  });

  test('bad archives answer 400 naming the problem and change nothing', async () => {
    const before = await state();
    const cases: [string, Uint8Array | string, RegExp][] = [
      ['path traversal', zipOf({ 'manifest.json': manifest(), '../../keys/evil.json': '[]' }), /points outside the archive/],
      ['absolute path', zipOf({ 'manifest.json': manifest(), '/etc/passwd': 'x' }), /points outside the archive/],
      ['zip bomb', zipOf({ 'manifest.json': manifest(), 'db/db/models.json': new Uint8Array(30 * 1024 * 1024) }), /inflates to more than/],
      ['foreign JSON', '{"hello":"world"}', /not a zip archive/],
      ['foreign zip', zipOf({ 'package.json': '{}' }), /no manifest.json/],
      ['other format', zipOf({ 'manifest.json': manifest({ format: 'something-else' }) }), /not a Tablo metadata archive/],
      ['newer format', zipOf({ 'manifest.json': manifest({ formatVersion: 99 }) }), /format version 99, made by a newer Tablo/],
      ['bad section', zipOf({ 'manifest.json': manifest(), 'db/db/acl.json': '[{"tn":1}]' }), /db\/db\/acl.json/],
      ['unknown entry', zipOf({ 'manifest.json': manifest(), 'db/db/secrets.json': '[]' }), /not part of a Tablo metadata archive/],
      ['broken JSON', zipOf({ 'manifest.json': '{' }), /not valid JSON/],
      // Hooks and cron jobs are checked as their editors check them: none that could never run comes in.
      ['unknown hook action', zipOf({ 'manifest.json': manifest(), 'db/db/hooks.json': hooks({ type: 'pager', url: 'http://127.0.0.1:9/x' }) }), /db\/db\/hooks.json: 0.notification/],
      ['hook URL no http', zipOf({ 'manifest.json': manifest(), 'db/db/hooks.json': hooks({ type: 'url', url: 'ftp://127.0.0.1/x' }) }), /hooks.json: 0.notification.url: Not an http\(s\) URL/],
      ['hook template', zipOf({ 'manifest.json': manifest(), 'db/db/hooks.json': hooks({ type: 'url', url: 'http://127.0.0.1:9/x', body: '{"a": "{{ data.Name"}' }) }), /Template error in the body/],
      ['cron pattern', zipOf({ 'manifest.json': manifest(), 'project/crons.json': crons({ pattern: '61 * * * *' }) }), /project\/crons.json: 0: Invalid cron pattern '61 \* \* \* \*'/],
      ['cron time zone', zipOf({ 'manifest.json': manifest(), 'project/crons.json': crons({ timezone: 'Mars/Olympus' }) }), /Unknown time zone 'Mars\/Olympus'/],
      ['cron action', zipOf({ 'manifest.json': manifest(), 'project/crons.json': crons({ action: { type: 'url', url: 'javascript:alert(1)' } }) }), /crons.json: 0.action.url: Not an http\(s\) URL/],
    ];
    for (const [what, file, msg] of cases) {
      const started = performance.now();
      const res = await upload('xcMetaTablesImportZipToLocalFsAndDb', pid, file);
      expect({ what, status: res.status }).toEqual({ what, status: 400 });
      expect(res.body.msg).toMatch(msg);
      if (what === 'zip bomb') expect(performance.now() - started).toBeLessThan(20_000);
    }
    expect(await state()).toEqual(before);
    expect((await upload('xcMetaTablesImportZipToLocalFsAndDb', pid, new Uint8Array(0))).status).toBe(400);
  });
});

describeEngines(
  'metadata export secrets',
  () => {
    test('an export never holds a password, a token, the JWT secret or a user password', async () => {
      // PostgreSQL here trusts loopback, so any password connects: it is stored (sealed) with the connection.
      const dbPassword = 'db-pass-Zq81!';
      const cfg = await loadChinook('pg', 'tablo_t_projmeta_secrets');
      const created = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Secrets', db: { client: 'pg', connection: { ...cfg.connection, password: dbPassword } } } });
      expect(created.status).toBe(200);
      const pid = created.body.id as string;
      const apiToken = (await dashboardOp(t, token, 'xcApiTokenCreate', { project_id: pid, args: { description: 'ci' } })).body.token as string;
      expect(apiToken.length).toBeGreaterThan(10);
      const zip = await exportZip(pid);
      const text = Object.values(unzipSync(zip)).map((f) => strFromU8(f)).join('\n') + strFromU8(zip, true);
      for (const secret of [apiToken, t.config.jwtSecret!, 'password123', token, dbPassword]) expect(text.includes(secret)).toBe(false);
      expect(text).not.toMatch(/connection|password|token_hash|\$argon2/i);
      await dashboardOp(t, token, 'projectDelete', { project_id: pid });
      await dropDatabase('pg', 'tablo_t_projmeta_secrets');
    });
  },
  ['pg'],
);

test('only owners and creators export, import and reset', async () => {
  const pid = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Rights' } })).body.id as string;
  const invite = await t.request('POST', '/admin', { body: { email: 'ed@example.com', roles: 'editor', project_id: pid }, headers: { 'xc-auth': token } });
  expect(invite.status).toBe(200);
  // An editor (through preview) may not run them.
  for (const api of ['xcMetaTablesExportDbToZip', 'xcMetaTablesReset', 'xcMetaTablesImportZipToLocalFsAndDb']) {
    const res = await dashboardOp(t, token, api, { project_id: pid, headers: { 'xc-preview': 'editor' } });
    expect({ api, status: res.status }).toEqual({ api, status: 403 });
  }
});

test("a zip of a project of this server becomes a new project named 'Title (2)'; a title the caller chose is kept or refused", async () => {
  const pid = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Twice' } })).body.id as string;
  const zip = await exportZip(pid);
  const made: string[] = [];
  try {
    for (const expected of ['Twice (2)', 'Twice (3)']) {
      const res = await upload('projectCreateByZip', '', zip);
      expect(res).toMatchObject({ status: 200, body: { title: expected } });
      made.push(res.body.id);
    }
    const chosen = await upload('projectCreateByZip', '', zip, { title: 'twice' });
    expect(chosen).toEqual({ status: 409, body: { msg: "A project named 'twice' already exists" } });
  } finally {
    for (const id of [pid, ...made]) await dashboardOp(t, token, 'projectDelete', { project_id: id, args: { deleteFile: true } });
  }
});

test("an archive imported onto its own project keeps the secrets it could not carry: link passwords, hook secrets, credential headers", async () => {
  const project = async (title: string) => {
    const id = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title } })).body.id as string;
    const run = await dashboardOp(t, token, 'rawSqlRun', { project_id: id, args: { runId: `mk_${id}`, sql: 'CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT)' } });
    expect(run.status).toBe(200);
    return id;
  };
  const pid = await project('Secrets kept');
  const other = await project('Secrets not copied');
  const op = (api: string, args: unknown = {}, projectId = pid) => dashboardOp(t, token, api, { project_id: projectId, args });
  try {
    const view = (await op('xcVirtualTableCreate', { tn: 'note', title: 'Notes', type: 'grid' })).body.id as string;
    const link = (await op('createSharedViewLink', { view_id: view, password: 'pw-123456' })).body.uuid as string;
    const hookSecret = (await op('xcHookCreate', { tn: 'note', title: 'Notify', event: 'after.insert', notification: { type: 'url', url: 'http://127.0.0.1:9/h', headers: { Authorization: 'Bearer abc', 'x-plain': 'p' } } })).body.secret as string;
    expect(hookSecret).toMatch(/^whsec_/);
    expect((await op('xcCronCreate', { title: 'Job', pattern: '0 * * * *', action: { type: 'url', url: 'http://127.0.0.1:9/j', headers: { 'x-api-key': 'k-1' } } })).status).toBe(200);
    const hooks = async (projectId = pid) => (await op('xcHookList', { tn: 'note' }, projectId)).body.data.list;
    const crons = async (projectId = pid) => (await op('xcCronList', {}, projectId)).body.data.list;
    const shared = (password?: string) => t.request('GET', `/api/v1/shared/${link}`, { headers: password ? { 'xc-password': password } : {} });
    const hooksBefore = await hooks();
    const zip = await exportZip(pid);

    const back = await upload('xcMetaTablesImportZipToLocalFsAndDb', pid, zip);
    expect(back).toMatchObject({ status: 200, body: { skipped: [], retype: [] } });
    // Lists mask header values: the stored ones are read on purpose (xcHookHeaders).
    const after = await hooks();
    expect(after.map((h: any) => h.secret)).toEqual(hooksBefore.map((h: any) => h.secret));
    for (const h of after) expect((await op('xcHookHeaders', { id: h.id })).body.headers).toEqual({ Authorization: 'Bearer abc', 'x-plain': 'p' });
    expect((await crons()).map((c: any) => c.action.headers)).toEqual([{ 'x-api-key': '••••' }]);
    expect((await op('xcCronHeaders', { id: (await crons())[0].id })).body.headers).toEqual({ 'x-api-key': 'k-1' });
    expect((await shared('pw-123456')).status).toBe(200);
    expect((await shared()).status).toBe(403);

    // Onto another project nothing of them travels.
    const copied = await upload('xcMetaTablesImportZipToLocalFsAndDb', other, zip);
    expect(copied.body.skipped).toEqual([`db: shared link ${link}: it had a password, which an export never holds; share the view again`]);
    // The answer names each hook and job whose credential header values were left empty.
    expect(copied.body.retype).toEqual([
      "db: webhook 'Notify' of 'note': the value of 'Authorization' was not in the archive: type it again",
      "cron job 'Job': the value of 'x-api-key' was not in the archive: type it again",
    ]);
    const [copy] = await hooks(other);
    // The list shows an empty value as empty (nothing to hide), the others masked.
    expect(copy.notification.headers).toEqual({ Authorization: '', 'x-plain': '••••' });
    expect((await op('xcHookHeaders', { id: copy.id }, other)).body.headers).toEqual({ Authorization: '', 'x-plain': 'p' });
    expect(copy.secret).not.toBe(hooksBefore[0].secret);
    expect((await crons(other)).map((c: any) => c.action.headers)).toEqual([{ 'x-api-key': '' }]);
  } finally {
    for (const id of [pid, other]) await dashboardOp(t, token, 'projectDelete', { project_id: id, args: { deleteFile: true } });
  }
});
