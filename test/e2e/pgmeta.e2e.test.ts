/**
 * The built binary moves to a PostgreSQL metadata store: an instance on the embedded SQLite store
 * gets a user, `tablo meta copy` copies its metadata into an empty PostgreSQL database, and the
 * binary started with NC_DB on that database signs the same user in, twice over (two instances).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBinary, startTablo } from './helpers';
import { describeEngines } from '../helpers/engines';
import { freshMetaDb } from '../helpers/meta-db';

describeEngines(
  'the built binary on a PostgreSQL metadata store',
  () => {
    let dataDir = '';
    let meta: { url: string; drop(): Promise<void> };
    beforeAll(async () => {
      await ensureBinary();
      dataDir = mkdtempSync(join(tmpdir(), 'tablo-e2e-pgmeta-'));
      meta = await freshMetaDb('e2e');
    }, 300_000);
    afterAll(async () => {
      await meta?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('meta copy from SQLite, then two instances on NC_DB serve the copied user', async () => {
      const single = await startTablo({ NC_DATA_DIR: dataDir, NC_LOG_REQUESTS: 'false' });
      const signup = await fetch(`${single.url}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@example.com', password: 'password123' }) });
      expect(signup.status).toBe(200);
      await single.stop();

      const copy = Bun.spawnSync([await ensureBinary(), 'meta', 'copy', '--from', dataDir, '--to', meta.url], { stdout: 'pipe', stderr: 'pipe' });
      expect(copy.stderr.toString()).toBe('');
      expect(copy.exitCode).toBe(0);
      expect(copy.stdout.toString()).toMatch(/nc_users\s+1 rows/);

      const env = { NC_DATA_DIR: dataDir, NC_DB: meta.url, NC_LOG_REQUESTS: 'false' };
      const a = await startTablo(env);
      const b = await startTablo(env);
      try {
        for (const on of [a, b]) {
          const res = await fetch(`${on.url}/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@example.com', password: 'password123' }) });
          expect(res.status).toBe(200);
        }
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
    }, 60_000);
  },
  ['pg'],
);
