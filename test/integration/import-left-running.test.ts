/**
 * An import whose Tablo process is killed (SIGKILL: no shutdown runs) is not shown running for good:
 * the next start, or a live instance sharing the data directory and a PostgreSQL metadata store once
 * the dead one's lease lapsed, ends it as failed, saying so, with the rows imported until then. An
 * import another live instance runs is never taken for left behind.
 */
import { expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEngines } from '../helpers/engines';
import { freshMetaDb } from '../helpers/meta-db';
import { startInstance, type Instance } from '../helpers/instances';
import { waitFor } from '../helpers/receiver';
import { readShared, uploadsDir } from '../../src/api/transfer/uploads';
import { leftJobMessage } from '../../src/api/transfer/import-job';

const BIG = `Title,N\n${Array.from({ length: 200_000 }, (_, i) => `row ${i},${i}`).join('\n')}\n`;

/** Signs up the owner on `on`, creates a project and starts importing BIG into a new table Imported. */
async function startBigImport(on: Instance, allOrNothing: boolean) {
  const token = (await on.call('POST', '/auth/signup', { body: { email: 'owner@example.com', password: 'password123' } })).body.token as string;
  const headers = { 'xc-gui': 'true', 'xc-auth': token };
  let projectId = '';
  const op = async (via: Instance, api: string, args: unknown) => {
    const res = await via.call('POST', `/dashboard?q=sqlOp_${api}`, { body: { api, project_id: projectId || undefined, dbAlias: 'db', args }, headers });
    if (res.status !== 200) throw new Error(`${api}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  projectId = (await op(on, 'projectCreateByWeb', { title: 'Imports' })).id;
  const form = new FormData();
  form.set('json', JSON.stringify({ api: 'importUpload', project_id: projectId, dbAlias: 'db', args: {} }));
  form.set('file', new File([BIG], 'big.csv', { type: 'text/csv' }));
  const up = await fetch(`${on.url}/dashboard?q=sqlOp_importUpload`, { method: 'POST', headers, body: form });
  const { uploadId } = (await up.json()) as { uploadId: string };
  const job = await op(on, 'importStart', { uploadId, create: { tn: 'imported', _tn: 'Imported' }, allOrNothing, batchSize: 10 });
  const status = (via: Instance) => op(via, 'importStatus', { jobId: job.id });
  const count = async (via: Instance) => (await via.call('GET', `/nc/${projectId}/api/v1/Imported/count`, { headers: { 'xc-auth': token } })).body.count as number;
  return { jobId: job.id as string, status, count };
}

/** Kills `on` while its import runs (some rows in); answers the job file as the killed process left it. */
async function killWhileImporting(on: Instance, dataDir: string, jobId: string, status: (via: Instance) => Promise<any>) {
  await waitFor('some rows imported', async () => (await status(on)).rowsImported > 0, 30_000);
  on.proc.kill('SIGKILL');
  await on.proc.exited;
  const left = readShared<{ status: string; rowsImported: number }>(join(uploadsDir(dataDir), `${jobId}.job.json`))!;
  // The file still says running: nobody ended it.
  expect(left.status).toBe('running');
  return left;
}

for (const allOrNothing of [false, true]) {
  test(`an import of a killed Tablo ends as failed at the next start, with its rows so far${allOrNothing ? ' (all or nothing: none)' : ''}`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tablo-import-killed-'));
    let first: Instance | undefined;
    let next: Instance | undefined;
    try {
      first = await startInstance({ dataDir });
      const { jobId, status, count } = await startBigImport(first, allOrNothing);
      const left = await killWhileImporting(first, dataDir, jobId, status);
      expect(left.rowsImported).toBeGreaterThan(0);

      next = await startInstance({ dataDir });
      const job = await status(next);
      expect(job).toMatchObject({ status: 'failed', table: { _tn: 'Imported', created: true }, rolledBack: allOrNothing, rowsImported: allOrNothing ? 0 : left.rowsImported });
      expect(job.message).toBe(leftJobMessage({ allOrNothing, table: job.table }));
      expect(job.message).toStartWith('Stopped: the server stopped while importing (it was ended abruptly)');
      expect(job.finishedAt).toBeGreaterThan(job.startedAt);
      // The rows reported are in the table (a batch committed after the last report may be there too).
      const rows = await count(next);
      if (allOrNothing) expect(rows).toBe(0);
      else expect(rows).toBeGreaterThanOrEqual(left.rowsImported);
      // The shared state says so too, for every instance and the next start.
      expect(readShared<{ status: string }>(join(uploadsDir(dataDir), `${jobId}.job.json`))!.status).toBe('failed');
      // The upload is gone with the job (no half-imported file kept, or started twice).
      expect(readdirSync(uploadsDir(dataDir)).filter((f) => !f.endsWith('.job.json'))).toEqual([]);
    } finally {
      first?.proc.kill('SIGKILL');
      await next?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
}

describeEngines(
  'imports across instances on one PostgreSQL metadata store',
  () => {
    test('a live instance never ends the import another live one runs; once that one is killed, it ends it', async () => {
      const meta = await freshMetaDb('importleft');
      const dataDir = mkdtempSync(join(tmpdir(), 'tablo-import-killed-pg-'));
      let a: Instance | undefined;
      let b: Instance | undefined;
      try {
        a = await startInstance({ dataDir, metaDb: meta.url });
        const { jobId, status } = await startBigImport(a, false);
        await waitFor('some rows imported', async () => (await status(a!)).rowsImported > 0, 30_000);
        // B starts while A imports (its start looks for imports left running) and follows the import.
        b = await startInstance({ dataDir, metaDb: meta.url });
        const seen = await status(b);
        expect(seen.status).toBe('running');
        // A goes on: its later batches reach the shared state, and it is still running as B reads it.
        await waitFor('more rows imported', async () => (await status(b!)).rowsImported > seen.rowsImported, 30_000);
        expect((await status(a)).status).toBe('running');

        const left = await killWhileImporting(a, dataDir, jobId, status);
        // Once A's lease has lapsed, B (polled like the page does) ends the job A left.
        const ended = await waitFor('the left import to end', async () => {
          const j = await status(b!);
          return j.status !== 'running' && j;
        }, 60_000);
        expect(ended).toMatchObject({ status: 'failed', rowsImported: left.rowsImported, rolledBack: false, message: leftJobMessage({ allOrNothing: false, table: ended.table }) });
      } finally {
        a?.proc.kill('SIGKILL');
        await b?.stop();
        rmSync(dataDir, { recursive: true, force: true });
        await meta.drop();
      }
    }, 180_000);
  },
  ['pg'],
);
