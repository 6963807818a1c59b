/**
 * A wide sheet becomes a new table on every engine: 300 text columns (more than MariaDB's row size
 * holds as varchar(255) columns) and the import's most, 500, all imported with every value. MariaDB's
 * pages hold fewer than 400 long text columns: there 500 are refused, saying so, and no table stays.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, type TestEngine } from '../helpers/engines';

/** A CSV of `width` text columns and 3 rows. */
const wideCsv = (width: number) =>
  Array.from({ length: width }, (_, i) => `Column ${i + 1}`).join(',') +
  '\n' +
  Array.from({ length: 3 }, (_, r) => Array.from({ length: width }, (_, i) => `row ${r + 1} value ${i + 1}`).join(',')).join('\n') +
  '\n';

describeEngines('import of a wide sheet', (engine: TestEngine) => {
  const db = `tablo_t_import_wide_${engine}`;
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
  const finish = async (jobId: string) => {
    for (let i = 0; i < 2000; i++) {
      const s = await op('importStatus', { jobId });
      if (s.body.status !== 'running') return s.body;
      await Bun.sleep(20);
    }
    throw new Error('the import did not end');
  };

  beforeAll(async () => {
    t = await makeTestApp();
    owner = (await signupSuperAdmin(t, 'owner@example.com')).token;
    projectId = await projectOver(t, owner, engine, 'Wide', await freshDatabase(engine, db));
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await dropDatabase(engine, db);
  });

  test.skipIf(engine !== 'mysql')('500 text columns are more than a MariaDB table holds: refused saying so, no table left', async () => {
    const up = await upload(wideCsv(500), 'wide.csv');
    const start = await op('importStart', { uploadId: up.body.uploadId, create: { tn: 'wide_500' }, onError: 'stop' });
    expect(start.status).toBe(400);
    expect(start.body.msg).toBe("A row of 500 columns is more than a MariaDB or MySQL table holds: skip some of the file's columns");
    expect((await op('tableList')).body.data.list.map((x: any) => x.tn)).not.toContain('wide_500');
  });

  for (const width of engine === 'mysql' ? [300] : [300, 500]) {
    test(`${width} text columns become a table holding every value`, async () => {
      const up = await upload(wideCsv(width), `wide ${width}.csv`);
      expect(up.status).toBe(200);
      expect(up.body.preview.columns).toHaveLength(width);
      const start = await op('importStart', { uploadId: up.body.uploadId, create: { tn: `wide_${width}` }, onError: 'stop' });
      expect(start.body).not.toHaveProperty('msg');
      expect(start.status).toBe(200);
      const job = await finish(start.body.id);
      expect(job.message).toBeUndefined();
      expect(job.status).toBe('done');
      expect(job.rowsImported).toBe(3);
      const rows = (await t.request('GET', `/nc/${projectId}/api/v1/wide_${width}?sort=id`, { headers: { 'xc-auth': owner } })).body;
      expect(rows).toHaveLength(3);
      expect(rows[2][`Column ${width}`]).toBe(`row 3 value ${width}`);
      expect(rows[0]['Column 1']).toBe('row 1 value 1');
    }, 60_000);
  }
});
