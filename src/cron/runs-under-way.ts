/**
 * The cron runs under way in one app (scheduled ticks and "run now"), so that stopping Tablo
 * neither waits for a slow job without end nor leaves its run "running" for good: app.close waits
 * for them a little (LIMITS.cronStopWaitMs), then records the ones still going as stopped and signals
 * them to stop what they can (a SQLite statement's runner process is killed; runs left
 * "running" by a Tablo that ended abruptly are ended at boot on the embedded store, see
 * cronsRepo.endLeftRuns, and by another instance on a shared store, see left-runs.ts).
 */
import type { AppContext } from '../context';
import { nowIso } from '../lib/ids';
import { cronsRepo, STOPPED_RUN_ERROR, type CronRecord, type CronRunRecord } from '../meta/crons-repo';

interface UnderWay {
  job: CronRecord;
  run: CronRunRecord;
  done: Promise<unknown>;
  /** Set when the stop recorded the run: its late outcome is not written over it. */
  stoppedAs: CronRunRecord | null;
  /** Aborted when the stop recorded the run. */
  stop: AbortController;
}

const underWayByApp = new WeakMap<AppContext, Set<UnderWay>>();
const underWayIn = (ctx: AppContext) => {
  let set = underWayByApp.get(ctx);
  if (!set) underWayByApp.set(ctx, (set = new Set()));
  return set;
};

/**
 * Runs `work` (which records the run's outcome, unless the stop already did) as a run under way;
 * answers the recorded run. `signal` aborts when Tablo stops before the run ended.
 */
export function trackRun(ctx: AppContext, job: CronRecord, run: CronRunRecord, work: (stopped: () => CronRunRecord | null, signal: AbortSignal) => Promise<CronRunRecord>): Promise<CronRunRecord> {
  const set = underWayIn(ctx);
  const entry: UnderWay = { job, run, done: Promise.resolve(), stoppedAs: null, stop: new AbortController() };
  const done = work(() => entry.stoppedAs, entry.stop.signal).finally(() => set.delete(entry));
  entry.done = done.catch(() => {});
  set.add(entry);
  return done;
}

/** Waits up to `waitMs` for the runs under way (and `others`), then records the ones still going as stopped and stops them. */
export async function stopRuns(ctx: AppContext, waitMs: number, others: Promise<unknown>[] = []): Promise<void> {
  const set = underWayIn(ctx);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise((resolve) => (timer = setTimeout(resolve, waitMs)));
  await Promise.race([Promise.allSettled([...others, ...[...set].map((e) => e.done)]), waited]);
  clearTimeout(timer);
  for (const e of [...set]) {
    const finished_at = nowIso();
    e.stoppedAs = { ...e.run, status: 'error', finished_at, duration_ms: Date.parse(finished_at) - Date.parse(e.run.started_at), result: null, error: STOPPED_RUN_ERROR };
    set.delete(e);
    e.stop.abort();
    ctx.log.warn(`cron job '${e.job.title}' (${e.job.id}) was still running when Tablo stopped: its run is recorded as stopped`);
    await cronsRepo(ctx.meta).finishRun(e.stoppedAs).catch((err) => ctx.log.error(`cron job ${e.job.id}: could not record its run as stopped`, err));
  }
}
