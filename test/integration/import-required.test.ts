/**
 * An import into an existing table whose required columns (not null, no default) get no column of
 * the file is refused before it starts, naming them, on every engine; it used to run and report
 * every row of the file as missing a value.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, type TestEngine } from '../helpers/engines';

describeEngines('import into a table with required columns', (engine: TestEngine) => {
  const db = `tablo_t_import_required_${engine}`;
  let t: TestApp;
  let owner = '';
  let projectId = '';

  const op = (api: string, args?: unknown, plus = false) => dashboardOp(t, owner, api, { project_id: projectId, args, plus });
  const upload = async (content: string) => {
    const form = new FormData();
    form.set('json', JSON.stringify({ api: 'importUpload', project_id: projectId, dbAlias: 'db', args: { tn: 'gadget' } }));
    form.set('file', new Blob([content]), 'gadgets.csv');
    const res = await t.app.handle(new Request('http://localhost/dashboard?q=sqlOp_importUpload', { method: 'POST', headers: { 'xc-gui': 'true', 'xc-auth': owner }, body: form }));
    return (await res.json()) as any;
  };

  beforeAll(async () => {
    t = await makeTestApp();
    owner = (await signupSuperAdmin(t, 'owner@example.com')).token;
    projectId = await projectOver(t, owner, engine, 'Required', await freshDatabase(engine, db), { inflectionColumn: 'none' });
    const made = await op('tableCreate', { tn: 'gadget', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'name', uidt: 'SingleLineText', nullable: false }, { cn: 'code', uidt: 'Number', nullable: false, default: 7 }, { cn: 'note', uidt: 'SingleLineText' }] }, true);
    expect(made.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await dropDatabase(engine, db);
  });

  test('a file without the required column is refused at the start, naming it; with it, the rows go in', async () => {
    const without = await upload('note\na\nb\n');
    const refused = await op('importStart', { uploadId: without.uploadId, tn: 'gadget', onError: 'skip' });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe("No column of the file goes to 'name' of 'Gadget', which every row needs");
    expect((await t.request('GET', `/nc/${projectId}/api/v1/gadget/count`, { headers: { 'xc-auth': owner } })).body).toEqual({ count: 0 });
    // A required column with a default ('code') needs no column of the file.
    const withName = await upload('name,note\nx,a\ny,b\n');
    const started = await op('importStart', { uploadId: withName.uploadId, tn: 'gadget', onError: 'skip' });
    expect(started.status).toBe(200);
    let job = started.body;
    for (let i = 0; i < 2000 && job.status === 'running'; i++) {
      await Bun.sleep(20);
      job = (await op('importStatus', { jobId: job.id })).body;
    }
    expect(job).toMatchObject({ status: 'done', rowsImported: 2 });
  });
});
