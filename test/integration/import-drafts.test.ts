/**
 * A shared import file is written as a draft and renamed into place; a process killed between the two
 * leaves the draft behind (`<job>.job.json.<pid>.tmp`). The next start removes the drafts of processes
 * that no longer run, and keeps those of processes still running (another instance writing one).
 */
import { expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boot } from '../../src/boot/boot';
import { createApp } from '../../src/app';
import { testConfig } from '../../src/config/config';
import { memoryLogger } from '../../src/lib/log';
import { uploadsDir } from '../../src/api/transfer/uploads';

test('drafts of shared import files left by a killed process are removed at the next start; a running one\'s stay', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tablo-drafts-'));
  const dir = uploadsDir(dataDir);
  mkdirSync(dir, { recursive: true });
  const gone = Bun.spawn(['true']);
  await gone.exited;
  const running = Bun.spawn(['sleep', '30']);
  const left = `job_abcdefgh.job.json.${gone.pid}.tmp`;
  const writing = `job_ijklmnop.job.json.${running.pid}.tmp`;
  writeFileSync(join(dir, left), '{"status":"runn');
  writeFileSync(join(dir, writing), '{"status":"running"}');
  const config = testConfig({ dataDir, metaDb: undefined });
  const booted = await boot(config);
  const app = createApp(config, { ...booted, log: memoryLogger() });
  try {
    // app.close waits for the start's sweep of what was left.
    await app.close();
    expect(readdirSync(dir).sort()).toEqual([writing]);
  } finally {
    running.kill();
    await booted.meta.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 30_000);
