/**
 * A cron run under way when Tablo stops: the stop waits a little for it, then records it as stopped
 * (instead of waiting for the job however long it takes, past the time a container is given before it
 * is killed); a run left "running" by a Tablo that ended abruptly is recorded as stopped at the next
 * start on the embedded store, instead of showing as running for good.
 */
import { expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { waitFor } from '../helpers/receiver';
import { boot } from '../../src/boot/boot';
import { testConfig } from '../../src/config/config';
import { cronsRepo, STOPPED_RUN_ERROR } from '../../src/meta/crons-repo';

test('a cron run still going when Tablo stops is recorded as stopped, not waited for until it ends', async () => {
  // A receiver that takes the request and never answers (the job's own time limit is 10 s).
  const held: Array<() => void> = [];
  const silent = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Promise<Response>((answer) => held.push(() => answer(new Response('late')))) });
  const t = await makeTestApp({ apiClientAllowPrivate: true });
  try {
    const { token } = await signupSuperAdmin(t);
    const projectId = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Crons' } })).body.id;
    const op = (api: string, args: unknown) => dashboardOp(t, token, api, { project_id: projectId, args });
    const job = (await op('xcCronCreate', { title: 'slow', pattern: '* * * * * *', action: { type: 'url', method: 'GET', url: `http://127.0.0.1:${silent.port}/slow` } })).body;
    await waitFor('a run under way', async () => held.length > 0 && ((await op('xcCronLogs', { id: job.id })).body.data.list as any[]).some((r) => r.status === 'running'), 10_000);
    await t.app.close();
    const runs = await cronsRepo(t.app.ctx.meta).runs(job.id, 10);
    expect(runs.length).toBeGreaterThan(0);
    for (const r of runs) expect([r.status, r.error]).toEqual(['error', STOPPED_RUN_ERROR]);
    expect(await cronsRepo(t.app.ctx.meta).byId(job.id)).toMatchObject({ last_status: 'error' });
    expect(t.log.lines.some((l) => l.includes(`cron job 'slow' (${job.id}) was still running when Tablo stopped`))).toBe(true);
  } finally {
    for (const answer of held) answer();
    await t.close();
    silent.stop(true);
  }
}, 30_000);

test('a cron run left running by a Tablo that ended abruptly is recorded as stopped at the next start (embedded store)', async () => {
  const config = testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'tablo-cron-left-')), metaDb: undefined });
  const first = await boot(config);
  const repo = cronsRepo(first.meta);
  const at = new Date().toISOString();
  await first.meta.run('INSERT INTO nc_projects (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)', ['p_left', 'Left', at, at]);
  const job = await repo.create({ project_id: 'p_left', title: 'nightly', pattern: '0 0 * * *', timezone: 'UTC', active: 1, action: '{"type":"url","url":"http://example.com"}', created_by: null });
  const run = await repo.claimTick(job.id, '2026-01-01T00:00:00.000Z', false);
  expect(run!.status).toBe('running');
  // The process ends without stopping its jobs (killed): the run stays as it was written.
  await first.meta.close();
  const next = await boot(config);
  try {
    const [after] = await cronsRepo(next.meta).runs(job.id, 10);
    expect(after).toMatchObject({ id: run!.id, status: 'error', error: STOPPED_RUN_ERROR });
    expect(after!.finished_at).toBeString();
  } finally {
    await next.meta.close();
  }
}, 30_000);
