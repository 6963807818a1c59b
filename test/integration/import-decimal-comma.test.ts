/**
 * A CSV of semicolons as a French, Spanish or Portuguese spreadsheet saves it, with decimal commas
 * (`1,5`) and points between thousands (`1.200`): its numbers are detected as numbers and go in
 * with their value on every engine. In a CSV of commas, a quoted `1,5` stays text.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, type TestEngine } from '../helpers/engines';

const FRENCH = 'Produit;Prix;Quantité;Code\nPain;1,5;1.200;007\nLait;-0,95;3;008\nBeurre;12;1.234.567;009\n';

describeEngines('import of decimal commas', (engine: TestEngine) => {
  const db = `tablo_t_import_comma_${engine}`;
  let t: TestApp;
  let owner = '';
  let projectId = '';

  const op = (api: string, args?: unknown) => dashboardOp(t, owner, api, { project_id: projectId, args });
  const upload = async (content: string, filename: string) => {
    const form = new FormData();
    form.set('json', JSON.stringify({ api: 'importUpload', project_id: projectId, dbAlias: 'db', args: {} }));
    form.set('file', new Blob([content]), filename);
    const res = await t.app.handle(new Request('http://localhost/dashboard?q=sqlOp_importUpload', { method: 'POST', headers: { 'xc-gui': 'true', 'xc-auth': owner }, body: form }));
    return { status: res.status, body: (await res.json()) as any };
  };
  const importAs = async (content: string, tn: string) => {
    const up = await upload(content, `${tn}.csv`);
    expect(up.status).toBe(200);
    const start = await op('importStart', { uploadId: up.body.uploadId, create: { tn }, onError: 'stop' });
    expect(start.status).toBe(200);
    for (let i = 0; i < 2000; i++) {
      const s = (await op('importStatus', { jobId: start.body.id })).body;
      if (s.status !== 'running') return { preview: up.body.preview, job: s };
      await Bun.sleep(20);
    }
    throw new Error('the import did not end');
  };
  const rows = async (tn: string) => (await t.request('GET', `/nc/${projectId}/api/v1/${tn}?sort=id`, { headers: { 'xc-auth': owner } })).body;

  beforeAll(async () => {
    t = await makeTestApp();
    owner = (await signupSuperAdmin(t, 'owner@example.com')).token;
    projectId = await projectOver(t, owner, engine, 'Commas', await freshDatabase(engine, db));
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await dropDatabase(engine, db);
  });

  test('a CSV of semicolons: 1,5 is a decimal, 1.200 a number, codes stay text', async () => {
    const { preview, job } = await importAs(FRENCH, 'prices');
    expect(preview.columns.map((c: { type: string }) => c.type)).toEqual(['text', 'decimal', 'number', 'text']);
    expect(job.status).toBe('done');
    expect(job.rowsImported).toBe(3);
    const got = await rows('prices');
    expect(got.map((r: any) => Number(r.Prix))).toEqual([1.5, -0.95, 12]);
    expect(got.map((r: any) => Number(r['Quantité']))).toEqual([1200, 3, 1234567]);
    expect(got.map((r: any) => r.Code)).toEqual(['007', '008', '009']);
  });

  test('a CSV of commas: a quoted 1,5 stays text as written', async () => {
    const { preview, job } = await importAs('Name,Note\nA,"1,5"\nB,"2,25"\n', 'notes');
    expect(preview.columns.map((c: { type: string }) => c.type)).toEqual(['text', 'text']);
    expect(job.status).toBe('done');
    expect((await rows('notes')).map((r: any) => r.Note)).toEqual(['1,5', '2,25']);
  });
});
