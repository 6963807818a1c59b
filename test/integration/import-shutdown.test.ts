/**
 * An import running when Tablo stops (SIGTERM: app.close) ends as stopped and says so in the state
 * it shares with the page and the other instances, before the project database closes; it is never
 * left "running" with nobody running it. Rows kept, or none in all-or-nothing mode.
 */
import { expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { uploadsDir } from '../../src/api/transfer/uploads';

const BIG = 'Title,N\n' + Array.from({ length: 20_000 }, (_, i) => `row ${i},${i}`).join('\n');

for (const allOrNothing of [false, true]) {
  test(`an import running when Tablo stops ends as stopped, saying so${allOrNothing ? ' (all or nothing: nothing kept)' : ''}`, async () => {
    const t = await makeTestApp();
    try {
      const { token } = await signupSuperAdmin(t);
      const projectId = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Imports' } })).body.id;
      const op = (api: string, args: unknown) => dashboardOp(t, token, api, { project_id: projectId, args });
      const form = new FormData();
      form.set('json', JSON.stringify({ api: 'importUpload', project_id: projectId, dbAlias: 'db', args: {} }));
      form.set('file', new Blob([BIG]), 'big.csv');
      const up = await t.app.handle(new Request('http://localhost/dashboard?q=sqlOp_importUpload', { method: 'POST', headers: { 'xc-gui': 'true', 'xc-auth': token }, body: form }));
      const { uploadId } = (await up.json()) as { uploadId: string };
      const started = await op('importStart', { uploadId, create: { tn: 'imported' }, allOrNothing, batchSize: 50 });
      expect(started.body.status).toBe('running');
      for (let i = 0; i < 500 && (await op('importStatus', { jobId: started.body.id })).body.rowsImported < 100; i++) await Bun.sleep(5);
      await t.app.close();
      const shared = JSON.parse(await Bun.file(join(uploadsDir(t.dataDir), `${started.body.id}.job.json`)).text());
      expect(shared.status).toBe('stopped');
      if (allOrNothing) {
        expect(shared).toMatchObject({ rolledBack: true, rowsImported: 0, message: 'Tablo was stopped during the import: nothing was imported; upload the file again' });
      } else {
        expect(shared.rowsImported).toBeGreaterThan(0);
        expect(shared.rowsImported).toBeLessThan(20_000);
        expect(shared.message).toBe(`Tablo was stopped during the import: ${shared.rowsImported} rows were imported, the rest were not; upload the rest again`);
      }
      // The upload is gone with the job (no half-imported file waiting to be started twice).
      expect(readdirSync(uploadsDir(t.dataDir)).filter((f) => !f.endsWith('.job.json'))).toEqual([]);
    } finally {
      await t.close();
    }
  }, 60_000);
}
