/**
 * Cron runs left "running" by an instance that ended abruptly, on a metadata store shared by several
 * instances (PostgreSQL). Each instance holds a liveness lease (holderLease of its holder name),
 * renewed every LIMITS.cronHeartbeatMs and lasting LIMITS.cronHolderTtlMs; at start and at every
 * renewal it records as stopped the runs whose holder's lease has lapsed (cronsRepo.endRunsOfGoneHolders).
 * A run of a live instance is never closed: its lease still runs. On the embedded SQLite store one
 * process serves the store, and boot closes every run left "running" (cronsRepo.endLeftRuns).
 *
 * note: an instance whose store stops answering for longer than the lease may see its runs recorded
 * as stopped by another; its own outcome, written when the run ends, replaces that record.
 */
import type { AppContext } from '../context';
import { LIMITS } from '../config/limits';
import { INSTANCE_HOLDER, leases } from '../meta/leases';
import { cronsRepo, holderLease } from '../meta/crons-repo';

/** Starts the heartbeat and the clean-up of left runs (a shared store only); answers stop(). */
export function startLeftRunsSweep(ctx: AppContext, holder: string = INSTANCE_HOLDER): { stop(): Promise<void> } {
  if (ctx.meta.kind !== 'pg') return { stop: async () => {} };
  const lease = leases(ctx.meta, holder);
  const repo = cronsRepo(ctx.meta);
  let stopped = false;
  let failing = false;
  const beat = async () => {
    try {
      await lease.acquire(holderLease(holder), LIMITS.cronHolderTtlMs);
      const ended = await repo.endRunsOfGoneHolders(holder, LIMITS.cronHolderTtlMs);
      if (ended) ctx.log.warn(`${ended} cron run(s) left running by an instance that stopped abruptly are recorded as stopped`);
      failing = false;
    } catch (e) {
      // Said once per outage: the store's own health check tells the rest.
      if (!failing && !stopped) ctx.log.warn(`cron runs: the liveness of this instance could not be recorded: ${(e as Error).message}`);
      failing = true;
    }
  };
  let running = beat();
  const timer = setInterval(() => {
    running = running.then(beat);
  }, LIMITS.cronHeartbeatMs);
  timer.unref?.();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await lease.release(holderLease(holder)).catch(() => {});
    },
  };
}
