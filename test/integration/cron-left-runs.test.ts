/**
 * Cron runs left "running" by an instance that ended abruptly, on a PostgreSQL metadata store shared
 * by several instances: each run names the instance that holds it, and each instance keeps a liveness
 * lease. At an instance's start and at each of its heartbeats, the runs whose holder's lease has lapsed
 * (and runs from before holders were named) are recorded as stopped; the runs of a live instance,
 * and a run just started, stay "running".
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines } from '../helpers/engines';
import { freshMetaDb } from '../helpers/meta-db';
import { waitFor } from '../helpers/receiver';
import { cronsRepo, holderLease, STOPPED_RUN_ERROR } from '../../src/meta/crons-repo';
import { INSTANCE_HOLDER, leases } from '../../src/meta/leases';
import { startLeftRunsSweep } from '../../src/cron/left-runs';
import { LIMITS } from '../../src/config/limits';

describeEngines(
  'cron runs left by an instance that ended abruptly (shared store)',
  () => {
    let t: TestApp;
    let drop: () => Promise<void>;
    let token = '';
    let projectId = '';
    // A receiver that takes the request and never answers: a run under way for as long as the test needs.
    const held: Array<() => void> = [];
    const silent = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Promise<Response>((answer) => held.push(() => answer(new Response('late')))) });
    const op = (api: string, args?: unknown) => dashboardOp(t, token, api, { project_id: projectId, args });

    beforeAll(async () => {
      const db = await freshMetaDb('cronleft');
      drop = db.drop;
      t = await makeTestApp({ metaDb: db.url, apiClientAllowPrivate: true });
      token = (await signupSuperAdmin(t)).token;
      projectId = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Left runs' } })).body.id;
    }, 30_000);
    afterAll(async () => {
      for (const answer of held) answer();
      await t.close();
      await drop();
      silent.stop(true);
    }, 30_000);

    test('runs of gone instances are recorded as stopped when another instance starts or beats; those of live instances stay', async () => {
      const meta = t.app.ctx.meta;
      const repo = cronsRepo(meta);
      const job = (await op('xcCronCreate', { title: 'nightly', pattern: '0 0 1 1 *', action: { type: 'url', method: 'GET', url: `http://127.0.0.1:${silent.port}/slow` } })).body;
      const longAgo = new Date(Date.now() - 2 * LIMITS.cronHolderTtlMs).toISOString();
      const claim = async (tick: string, holder: string, startedAt?: string) => {
        const run = (await repo.claimTick(job.id, tick, false, holder))!;
        if (startedAt) await meta.run('UPDATE nc_cron_runs SET started_at = ? WHERE id = ?', [startedAt, run.id]);
        return run.id;
      };
      const statusOf = async (id: string) => (await meta.get<{ status: string; error: string | null; holder: string | null }>('SELECT status, error, holder FROM nc_cron_runs WHERE id = ?', [id]))!;

      // A live instance beats; the other holders never did (killed), or ran before holders were named.
      await leases(meta, 'live-instance').acquire(holderLease('live-instance'), 60_000);
      const gone = await claim('2026-01-01T00:00:00.000Z', 'gone-instance', longAgo);
      const live = await claim('2026-01-02T00:00:00.000Z', 'live-instance', longAgo);
      const justStarted = await claim('2026-01-03T00:00:00.000Z', 'gone-instance');
      const legacy = await claim('2026-01-04T00:00:00.000Z', 'legacy', longAgo);
      await meta.run('UPDATE nc_cron_runs SET holder = NULL WHERE id = ?', [legacy]);
      expect((await statusOf(gone)).holder).toBe('gone-instance');

      // A run under way on this app (its holder is this process, whose heartbeat runs), started long ago.
      const under = op('xcCronRun', { id: job.id });
      await waitFor('the run under way', async () => held.length > 0);
      const [mine] = (await repo.runs(job.id, 10)).filter((r) => r.manual === 1);
      expect(mine).toMatchObject({ status: 'running', holder: INSTANCE_HOLDER });
      await meta.run('UPDATE nc_cron_runs SET started_at = ? WHERE id = ?', [longAgo, mine!.id]);

      // Another instance starts: its first heartbeat closes what the gone holders left.
      const other = startLeftRunsSweep(t.app.ctx, 'starting-instance');
      await waitFor('the gone runs closed', async () => (await statusOf(gone)).status !== 'running', 5000);
      await other.stop();
      expect(await statusOf(gone)).toMatchObject({ status: 'error', error: STOPPED_RUN_ERROR });
      expect(await statusOf(legacy)).toMatchObject({ status: 'error', error: STOPPED_RUN_ERROR });
      expect((await statusOf(live)).status).toBe('running');
      expect((await statusOf(justStarted)).status).toBe('running');
      expect((await statusOf(mine!.id)).status).toBe('running');
      expect(t.log.lines.some((l) => l.includes('2 cron run(s) left running by an instance that stopped abruptly are recorded as stopped'))).toBe(true);

      // The live instance stops beating (killed): once its lease lapses, the next heartbeat closes its run.
      await leases(meta, 'live-instance').acquire(holderLease('live-instance'), 1);
      await Bun.sleep(20);
      const later = startLeftRunsSweep(t.app.ctx, 'starting-instance');
      await waitFor('the run of the stale holder closed', async () => (await statusOf(live)).status !== 'running', 5000);
      await later.stop();
      expect(await statusOf(live)).toMatchObject({ status: 'error', error: STOPPED_RUN_ERROR });
      expect((await statusOf(mine!.id)).status).toBe('running');
      expect((await statusOf(justStarted)).status).toBe('running');

      // The run this app holds ends as it ends, not as stopped by another instance.
      held.shift()!();
      expect((await under).body).toMatchObject({ status: 'success', result: 'HTTP 200: late' });
    }, 60_000);
  },
  ['pg'],
);
