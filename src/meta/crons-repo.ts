/**
 * Cron jobs (nc_crons) and their runs (nc_cron_runs). A run row keyed by job and tick is also the
 * lease that lets exactly one of several instances sharing the store run a tick: the first INSERT
 * wins, the others insert nothing (ON CONFLICT DO NOTHING, on SQLite and PostgreSQL alike). The run
 * names its holder (the instance running it), so that the runs of an instance that ended abruptly are
 * found and closed (endRunsOfGoneHolders) while those of live instances are left to them.
 */
import type { MetaStore } from './store';
import { newId, nowIso } from '../lib/ids';
import { LIMITS } from '../config/limits';
import { INSTANCE_HOLDER, leases } from './leases';

export interface CronRecord {
  id: string;
  project_id: string;
  title: string;
  pattern: string;
  timezone: string;
  active: number;
  /** JSON of the action. */
  action: string;
  last_run_at: string | null;
  last_status: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface CronRunRecord {
  id: string;
  cron_id: string;
  tick: string;
  status: 'running' | 'success' | 'error';
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  result: string | null;
  error: string | null;
  manual: number;
  /** The instance running it (null: a run from before runs named theirs). */
  holder: string | null;
}

/** The liveness lease of an instance that runs cron jobs on a shared store (renewed by cron/left-runs.ts). */
export const holderLease = (holder: string) => `cron-holder:${holder}`;

/** What a run cut short by a stop records (the hooks' deliveries say the same; the web app translates it). */
export const STOPPED_RUN_ERROR = 'Stopped: the server is shutting down';

export type CronInput = Pick<CronRecord, 'project_id' | 'title' | 'pattern' | 'timezone' | 'active' | 'action' | 'created_by'>;

/** The cron repository over a metadata store. */
export function cronsRepo(meta: MetaStore, keepRuns: number = LIMITS.hookLogKeep) {
  return {
    async create(input: CronInput): Promise<CronRecord> {
      const now = nowIso();
      const row: CronRecord = { id: newId('cj'), ...input, last_run_at: null, last_status: null, created_at: now, updated_at: now };
      await meta.run(
        'INSERT INTO nc_crons (id, project_id, title, pattern, timezone, active, action, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [row.id, row.project_id, row.title, row.pattern, row.timezone, row.active, row.action, row.created_by, now, now],
      );
      return row;
    },
    byId: (id: string) => meta.get<CronRecord>('SELECT * FROM nc_crons WHERE id = ?', [id]),
    list: (projectId: string) => meta.all<CronRecord>('SELECT * FROM nc_crons WHERE project_id = ? ORDER BY created_at, id', [projectId]),
    /** Every active job of every project (the scheduler's view). */
    active: () => meta.all<CronRecord>('SELECT * FROM nc_crons WHERE active = 1'),
    update: (c: CronRecord) =>
      meta.run('UPDATE nc_crons SET title = ?, pattern = ?, timezone = ?, active = ?, action = ?, updated_at = ? WHERE id = ?', [c.title, c.pattern, c.timezone, c.active, c.action, nowIso(), c.id]),
    remove: (id: string) => meta.run('DELETE FROM nc_crons WHERE id = ?', [id]),
    /** Takes the tick for this instance (`holder`); null when another one already took it. */
    async claimTick(cronId: string, tick: string, manual: boolean, holder: string = INSTANCE_HOLDER): Promise<CronRunRecord | null> {
      const run: CronRunRecord = { id: newId('cr'), cron_id: cronId, tick, status: 'running', started_at: nowIso(), finished_at: null, duration_ms: null, result: null, error: null, manual: manual ? 1 : 0, holder };
      const r = await meta.run(
        `INSERT INTO nc_cron_runs (id, cron_id, tick, status, started_at, manual, holder) VALUES (?, ?, ?, 'running', ?, ?, ?) ON CONFLICT (cron_id, tick) DO NOTHING`,
        [run.id, cronId, tick, run.started_at, run.manual, holder],
      );
      return r.changes === 1 ? run : null;
    },
    async finishRun(run: CronRunRecord): Promise<void> {
      await meta.transaction(async (tx) => {
        await tx.run('UPDATE nc_cron_runs SET status = ?, finished_at = ?, duration_ms = ?, result = ?, error = ? WHERE id = ?', [run.status, run.finished_at, run.duration_ms, run.result, run.error, run.id]);
        await tx.run('UPDATE nc_crons SET last_run_at = ?, last_status = ? WHERE id = ?', [run.started_at, run.status, run.cron_id]);
        // The newest `keepRuns` runs stay (older ticks are never claimed again).
        await tx.run(
          'DELETE FROM nc_cron_runs WHERE cron_id = ? AND started_at < (SELECT started_at FROM nc_cron_runs WHERE cron_id = ? ORDER BY started_at DESC LIMIT 1 OFFSET ?)',
          [run.cron_id, run.cron_id, Math.max(0, keepRuns - 1)],
        );
      });
    },
    /**
     * Runs left "running" by a Tablo that ended abruptly (killed, or the machine stopped), recorded as
     * stopped; answers how many. Only where one process serves the store (boot, on the embedded SQLite
     * store): on a shared store another instance may still be running them (see endRunsOfGoneHolders).
     */
    async endLeftRuns(): Promise<number> {
      const left = await meta.all<CronRunRecord>("SELECT * FROM nc_cron_runs WHERE status = 'running'");
      for (const run of left) await this.finishRun({ ...run, status: 'error', finished_at: nowIso(), duration_ms: null, result: null, error: STOPPED_RUN_ERROR });
      return left.length;
    },
    /**
     * On a store shared by several instances: the runs still "running" whose holder is gone (its
     * liveness lease, holderLease, has lapsed; or a run from before holders were named), recorded as
     * stopped; answers how many. Runs of `self` and of live instances stay, and so do runs started
     * less than `staleMs` ago (their holder's first heartbeat may not be written yet).
     */
    async endRunsOfGoneHolders(self: string, staleMs: number): Promise<number> {
      const startedBefore = new Date(Date.now() - staleMs).toISOString();
      const left = await meta.all<CronRunRecord>("SELECT * FROM nc_cron_runs WHERE status = 'running' AND (holder IS NULL OR holder <> ?) AND started_at < ?", [self, startedBefore]);
      const lease = leases(meta, self);
      const alive = new Map<string, boolean>();
      let ended = 0;
      for (const run of left) {
        if (run.holder !== null) {
          if (!alive.has(run.holder)) alive.set(run.holder, !!(await lease.holderOf(holderLease(run.holder))));
          if (alive.get(run.holder)) continue;
        }
        if (await this.endLeftRun(run)) ended++;
      }
      return ended;
    },
    /** Records a run left "running" as stopped, unless it ended meanwhile; answers whether it did. */
    async endLeftRun(run: CronRunRecord): Promise<boolean> {
      const at = nowIso();
      return meta.transaction(async (tx) => {
        const r = await tx.run("UPDATE nc_cron_runs SET status = 'error', finished_at = ?, duration_ms = NULL, result = NULL, error = ? WHERE id = ? AND status = 'running'", [at, STOPPED_RUN_ERROR, run.id]);
        if (r.changes !== 1) return false;
        await tx.run("UPDATE nc_crons SET last_run_at = ?, last_status = 'error' WHERE id = ? AND (last_run_at IS NULL OR last_run_at <= ?)", [run.started_at, run.cron_id, run.started_at]);
        return true;
      });
    },
    runs: (cronId: string, limit: number) => meta.all<CronRunRecord>('SELECT * FROM nc_cron_runs WHERE cron_id = ? ORDER BY started_at DESC, id DESC LIMIT ?', [cronId, limit]),
  };
}
