/**
 * A column hidden from the caller by column rights is not named by a refusal either: a create that
 * cannot give a required hidden column (REST, its bulk form, an import) is refused without naming it,
 * and an upload to a hidden Attachment column answers as for a column the table does not have. A
 * required column the caller reads is still named. On every engine.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, type TestEngine } from '../helpers/engines';

const auth = (token: string) => ({ 'xc-auth': token });
const REFUSAL = { status: 403, body: { msg: 'A new row needs values you may not set' } };

describeEngines('a required or Attachment column hidden from the caller', (engine: TestEngine) => {
  const db = `tablo_t_hidden_required_${engine}`;
  let t: TestApp;
  let owner = '';
  let editor = '';
  let projectId = '';
  let base = '';

  const op = (token: string, api: string, args?: unknown, plus = false) => dashboardOp(t, token, api, { project_id: projectId, args, plus });
  const rest = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await t.request(method, `${base}${path}`, { headers: auth(token), body });
    return { status: res.status, body: res.body };
  };
  const upload = async (path: string) => {
    const form = new FormData();
    form.set('file', new Blob(['hello']), 'hello.txt');
    const res = await t.app.handle(new Request(`http://localhost${base}${path}`, { method: 'POST', headers: auth(editor), body: form }));
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    t = await makeTestApp();
    owner = (await signupSuperAdmin(t, 'owner@example.com')).token;
    projectId = await projectOver(t, owner, engine, 'Vaults', await freshDatabase(engine, db), { inflectionColumn: 'none' });
    base = `/nc/${projectId}/api/v1/vault`;
    const columns = [{ cn: 'id', uidt: 'ID' }, { cn: 'name', uidt: 'SingleLineText' }, { cn: 'code', uidt: 'SingleLineText', nullable: false }, { cn: 'scan', uidt: 'Attachment' }];
    expect((await op(owner, 'tableCreate', { tn: 'vault', columns }, true)).status).toBe(200);
    const invite = await t.request('POST', '/admin', { headers: auth(owner), body: { email: 'editor@example.com', roles: 'editor', project_id: projectId } });
    const token = String(invite.body.invite_url).split('/signup/')[1]!;
    editor = (await t.request('POST', '/auth/signup', { body: { email: 'editor@example.com', password: 'password123', token } })).body.token;
    // 'code' (required) and 'scan' are hidden from editors.
    const rule = await op(owner, 'aclSave', { tn: 'vault', role: 'editor', rule: { read: ['id', 'name'], create: ['name'], update: ['name'], delete: true } });
    expect(rule.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await dropDatabase(engine, db);
  });

  test('a REST create, bulk or not, that cannot give a hidden required column is refused without naming it', async () => {
    expect(await rest(editor, 'POST', '', { name: 'x' })).toEqual(REFUSAL);
    expect(await rest(editor, 'POST', '/bulk', [{ name: 'x' }, { name: 'y' }])).toEqual({ status: 403, body: { msg: `Row 1: ${REFUSAL.body.msg}` } });
    // The owner, who sees it, is told its name.
    expect(await rest(owner, 'POST', '', { name: 'x' })).toEqual({ status: 400, body: { msg: "Column 'code' is required" } });
    expect((await rest(owner, 'GET', '/count')).body).toEqual({ count: 0 });
  });

  test('an import into a table with a hidden required column is refused without naming it', async () => {
    const form = new FormData();
    form.set('json', JSON.stringify({ api: 'importUpload', project_id: projectId, dbAlias: 'db', args: { tn: 'vault' } }));
    form.set('file', new Blob(['name\nfrom file\n']), 'vaults.csv');
    const res = await t.app.handle(new Request('http://localhost/dashboard?q=sqlOp_importUpload', { method: 'POST', headers: { 'xc-gui': 'true', ...auth(editor) }, body: form }));
    const { uploadId } = (await res.json()) as { uploadId: string };
    const started = await op(editor, 'importStart', { uploadId, tn: 'vault' });
    expect({ status: started.status, body: started.body }).toEqual(REFUSAL);
  });

  test('an upload to a hidden Attachment column answers as for a column the table does not have', async () => {
    const id = (await rest(owner, 'POST', '', { name: 'kept', code: 'c1' })).body.id;
    for (const path of [`/${id}/attachments/`, '/attachments/']) {
      const unknown = await upload(`${path}nope`);
      expect(unknown.status).toBe(404);
      expect(await upload(`${path}scan`)).toEqual({ status: 404, body: { msg: unknown.body.msg.replace('nope', 'scan') } });
    }
    expect((await rest(owner, 'GET', `/${id}`)).body).toMatchObject({ scan: null });
  });
});
