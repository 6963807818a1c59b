/**
 * The cron scheduler of one instance: keeps the active jobs (re-read every second, so jobs made or
 * paused through another instance are seen), wakes at the next due tick, takes the tick's lease
 * in the metadata store and runs the job when it got it. Several instances on one store compute
 * the same ticks from the pattern, and only one wins each lease. A failing job is logged and never
 * stops the others; a job still running from an earlier tick skips the next one on this instance.
 */
import type { AppContext } from '../context';
import { cronsRepo, type CronRecord, type CronRunRecord } from '../meta/crons-repo';
import { cronOf } from './schedule';
import { CronActionSchema, runAction } from './action';
import { stopRuns, trackRun } from './runs-under-way';
import { LIMITS } from '../config/limits';

const REFRESH_MS = 1000;

interface Planned {
  stamp: string;
  next: number | null;
  running: boolean;
  record: CronRecord;
}

/** Runs one claimed tick of a job and records the outcome (unless Tablo stopped meanwhile and recorded it as stopped). */
export function runClaimed(ctx: AppContext, job: CronRecord, run: CronRunRecord): Promise<CronRunRecord> {
  return trackRun(ctx, job, run, async (stopped, signal) => {
    const started = performance.now();
    const action = CronActionSchema.safeParse(JSON.parse(job.action));
    const r = action.success ? await runAction(ctx, job.project_id, action.data, signal) : { ok: false, result: null, error: 'The stored action is not valid' };
    const stoppedAs = stopped();
    if (stoppedAs) return stoppedAs;
    const done: CronRunRecord = { ...run, status: r.ok ? 'success' : 'error', finished_at: new Date().toISOString(), duration_ms: Math.round(performance.now() - started), result: r.result, error: r.error };
    await cronsRepo(ctx.meta).finishRun(done);
    if (!r.ok) ctx.log.warn(`cron job '${job.title}' (${job.id}) failed: ${r.error}`);
    return done;
  });
}

/** Starts the loop; answers stop(). */
export function startScheduler(ctx: AppContext) {
  const repo = cronsRepo(ctx.meta);
  const jobs = new Map<string, Planned>();
  const running = new Set<Promise<unknown>>();
  let loadedAt = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const nextOf = (c: CronRecord, after: number): number | null => {
    try {
      const cron = cronOf(c.pattern, c.timezone);
      const d = cron.nextRun(new Date(after));
      cron.stop();
      return d ? d.getTime() : null;
    } catch {
      return null;
    }
  };

  const refresh = async () => {
    const now = Date.now();
    const rows = await repo.active();
    const seen = new Set<string>();
    for (const c of rows) {
      seen.add(c.id);
      const stamp = `${c.pattern}\u0000${c.timezone}\u0000${c.updated_at}`;
      const p = jobs.get(c.id);
      // A job made or changed since the last read runs from the moment it was saved, so a tick that
      // fell between the save and this read still runs (late by under a second); at start, from now.
      const from = loadedAt ? Math.min(now, Math.max(loadedAt, Date.parse(c.updated_at) || now)) : now;
      if (p && p.stamp === stamp) p.record = c;
      else jobs.set(c.id, { stamp, next: p && p.record.pattern === c.pattern && p.record.timezone === c.timezone ? p.next : nextOf(c, from), running: p?.running ?? false, record: c });
    }
    for (const id of jobs.keys()) if (!seen.has(id)) jobs.delete(id);
    loadedAt = now;
  };

  const fire = (p: Planned, tick: number) => {
    const job = p.record;
    p.running = true;
    const task = (async () => {
      const run = await repo.claimTick(job.id, new Date(tick).toISOString(), false);
      if (run) await runClaimed(ctx, job, run);
    })()
      .catch((e) => ctx.log.error(`cron job ${job.id}`, e))
      .finally(() => {
        p.running = false;
        running.delete(task);
      });
    running.add(task);
  };

  const loop = async () => {
    if (stopped) return;
    try {
      if (Date.now() - loadedAt >= REFRESH_MS) await refresh();
      const now = Date.now();
      for (const p of jobs.values()) {
        if (p.next === null || p.next > now) continue;
        const tick = p.next;
        p.next = nextOf(p.record, Math.max(now, tick));
        if (!p.running) fire(p, tick);
      }
    } catch (e) {
      if (!stopped) ctx.log.error('cron scheduler', e);
    }
    if (stopped) return;
    const soonest = Math.min(...[...jobs.values()].map((p) => p.next ?? Infinity), loadedAt + REFRESH_MS);
    timer = setTimeout(() => void loop(), Math.max(10, Math.min(REFRESH_MS, soonest - Date.now())));
    timer.unref?.();
  };
  void loop();

  return {
    /** Starts no more ticks; waits a little for the runs under way, then records those still going as stopped. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      await stopRuns(ctx, LIMITS.cronStopWaitMs, [...running]);
    },
  };
}
