/**
 * A column hidden from the caller by column rights is, for their writes, a column the table does not
 * have: an import's header of that name is skipped and mapping a file column onto it is refused as
 * for an unknown column, and REST creates, updates and their bulk forms naming it answer as for an
 * unknown key. A column the caller reads but may not set is still refused naming it (403). On every
 * engine.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, type TestEngine } from '../helpers/engines';

const auth = (token: string) => ({ 'xc-auth': token });

describeEngines('writes naming a hidden column', (engine: TestEngine) => {
  const db = `tablo_t_hidden_writes_${engine}`;
  let t: TestApp;
  let owner = '';
  let editor = '';
  let projectId = '';
  let base = '';

  const op = (token: string, api: string, args?: unknown, plus = false) => dashboardOp(t, token, api, { project_id: projectId, args, plus });
  const upload = async (token: string, content: string) => {
    const form = new FormData();
    form.set('json', JSON.stringify({ api: 'importUpload', project_id: projectId, dbAlias: 'db', args: { tn: 'gadget' } }));
    form.set('file', new Blob([content]), 'gadgets.csv');
    const res = await t.app.handle(new Request('http://localhost/dashboard?q=sqlOp_importUpload', { method: 'POST', headers: { 'xc-gui': 'true', ...auth(token) }, body: form }));
    expect(res.status).toBe(200);
    return ((await res.json()) as { uploadId: string }).uploadId;
  };
  const finish = async (token: string, job: any) => {
    for (let i = 0; i < 2000 && job.status === 'running'; i++) {
      await Bun.sleep(20);
      job = (await op(token, 'importStatus', { jobId: job.id })).body;
    }
    return job;
  };
  const rest = async (method: string, path: string, body: unknown) => {
    const res = await t.request(method, `${base}/${path}`, { headers: auth(editor), body });
    return { status: res.status, body: res.body };
  };

  beforeAll(async () => {
    t = await makeTestApp();
    owner = (await signupSuperAdmin(t, 'owner@example.com')).token;
    projectId = await projectOver(t, owner, engine, 'Hidden', await freshDatabase(engine, db), { inflectionColumn: 'none' });
    base = `/nc/${projectId}/api/v1/gadget`;
    const made = await op(owner, 'tableCreate', { tn: 'gadget', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'name', uidt: 'SingleLineText' }, { cn: 'note', uidt: 'SingleLineText' }, { cn: 'secret', uidt: 'SingleLineText' }] }, true);
    expect(made.status).toBe(200);
    const invite = await t.request('POST', '/admin', { headers: auth(owner), body: { email: 'editor@example.com', roles: 'editor', project_id: projectId } });
    const token = String(invite.body.invite_url).split('/signup/')[1]!;
    editor = (await t.request('POST', '/auth/signup', { body: { email: 'editor@example.com', password: 'password123', token } })).body.token;
    // 'secret' is hidden from editors; 'note' they read but may not set.
    const rule = await op(owner, 'aclSave', { tn: 'gadget', role: 'editor', rule: { read: ['id', 'name', 'note'], create: ['name'], update: ['name'], delete: true } });
    expect(rule.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await dropDatabase(engine, db);
  });

  test("an import's header naming a hidden column is skipped as an unknown one; mapping onto it is refused as onto an unknown one", async () => {
    const started = await op(editor, 'importStart', { uploadId: await upload(editor, 'name,secret,nope\nfrom file,s1,n1\n'), tn: 'gadget' });
    expect([started.status, started.body.msg]).toEqual([200, undefined]);
    expect(await finish(editor, started.body)).toMatchObject({ status: 'done', rowsImported: 1, rowsSkipped: 0 });
    const rows = (await t.request('GET', `${base}?where=(name,eq,from file)`, { headers: auth(owner) })).body;
    expect(rows).toMatchObject([{ name: 'from file', secret: null }]);

    const uploadId = await upload(editor, 'name,other\na,b\n');
    const unknown = await op(editor, 'importStart', { uploadId, tn: 'gadget', columns: [{ index: 1, cn: 'nope' }] });
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 400, body: { msg: "Column 'nope' not found" } });
    const hidden = await op(editor, 'importStart', { uploadId, tn: 'gadget', columns: [{ index: 1, cn: 'secret' }] });
    expect({ status: hidden.status, body: hidden.body }).toEqual({ status: 400, body: { msg: "Column 'secret' not found" } });
    // A column the editor reads but may not set is named, as before.
    const readable = await op(editor, 'importStart', { uploadId, tn: 'gadget', columns: [{ index: 1, cn: 'note' }] });
    expect({ status: readable.status, body: readable.body }).toEqual({ status: 403, body: { msg: "Not allowed to create column 'note' of 'Gadget'" } });
  });

  test('REST create, update and bulk calls naming a hidden column answer as for an unknown column', async () => {
    const id = (await rest('POST', '', { name: 'by rest' })).body.id;
    expect(id).toBeDefined();
    const calls: [string, string, (column: string) => unknown][] = [
      ['POST', '', (c) => ({ name: 'x', [c]: 'v' })],
      ['POST', 'bulk', (c) => [{ name: 'x' }, { name: 'y', [c]: 'v' }]],
      ['PUT', String(id), (c) => ({ [c]: 'v' })],
      ['PUT', 'bulk', (c) => [{ id, [c]: 'v' }]],
    ];
    for (const [method, path, body] of calls) {
      const unknown = await rest(method, path, body('nope'));
      expect(unknown.status).toBe(400);
      const hidden = await rest(method, path, body('secret'));
      expect([method, path, hidden]).toEqual([method, path, { status: 400, body: { msg: unknown.body.msg.replace('nope', 'secret') } }]);
    }
    expect(await rest('POST', '', { name: 'x', note: 'v' })).toEqual({ status: 403, body: { msg: "Not allowed to create column 'note' of 'Gadget'" } });
    // Nothing was written.
    expect((await t.request('GET', `${base}/count`, { headers: auth(owner) })).body).toEqual({ count: 2 });
    // The owner, who sees every column, writes it.
    expect((await t.request('PUT', `${base}/${id}`, { headers: auth(owner), body: { secret: 'kept' } })).body).toMatchObject({ secret: 'kept' });
  });
});
