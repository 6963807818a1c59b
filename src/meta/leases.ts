/**
 * Leases in the metadata store (`nc_leases(name, holder, until)`), for work that must run once
 * across every instance sharing the store: a cron tick, a webhook delivery, a sweeper.
 *
 *   const lease = leases(ctx.meta);
 *   // One-shot: the first instance to claim a name runs it; the others get false.
 *   if (await lease.claim(`cron:${job.id}:${tick.toISOString()}`, 10 * 60_000)) await runJob(job);
 *   // Held work: renew before `until` runs out; another instance takes over when it lapses.
 *   if (await lease.acquire('webhook-worker', 30_000)) await deliverPending();
 *
 * Times are ISO text from each instance's clock: keep instance clocks in sync (NTP) and leases
 * much longer than any skew. On the embedded SQLite store (one instance) the same calls work.
 */
import type { MetaStore } from './store';
import { randomSlug } from '../lib/ids';

/** This process's holder name (one per process, so two instances never share one). */
export const INSTANCE_HOLDER = `${process.pid}-${randomSlug(10)}`;

/** How many claims (in this process) pass between two clean-ups of lapsed leases. */
const SWEEP_EVERY = 200;
let sinceSweep = 0;

/** The lease calls over a store, held as `holder` (default: this process). */
export function leases(meta: MetaStore, holder: string = INSTANCE_HOLDER) {
  const untilIso = (ttlMs: number) => new Date(Date.now() + ttlMs).toISOString();
  return {
    holder,
    /**
     * Takes or renews the lease `name` for `ttlMs`: true when this holder has it now (it was free,
     * had lapsed, or was already ours), false when another holder's lease still runs.
     */
    async acquire(name: string, ttlMs: number): Promise<boolean> {
      const r = await meta.run(
        `INSERT INTO nc_leases (name, holder, until) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
         WHERE nc_leases.until <= ? OR nc_leases.holder = excluded.holder`,
        [name, holder, untilIso(ttlMs), new Date().toISOString()],
      );
      return r.changes > 0;
    },
    /**
     * Claims `name` once: true for the first holder only, false for everyone else until the row
     * lapses after `ttlMs` and is swept (use a name per occurrence, e.g. job and tick).
     */
    async claim(name: string, ttlMs: number): Promise<boolean> {
      if (++sinceSweep >= SWEEP_EVERY) {
        sinceSweep = 0;
        await meta.run('DELETE FROM nc_leases WHERE until <= ?', [new Date().toISOString()]);
      }
      const r = await meta.run('INSERT INTO nc_leases (name, holder, until) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING', [name, holder, untilIso(ttlMs)]);
      return r.changes > 0;
    },
    /** Gives the lease up at once (only when this holder has it). */
    async release(name: string): Promise<void> {
      await meta.run('DELETE FROM nc_leases WHERE name = ? AND holder = ?', [name, holder]);
    },
    /** The current holder of `name` and until when, if its lease still runs. */
    async holderOf(name: string): Promise<{ holder: string; until: string } | undefined> {
      return meta.get<{ holder: string; until: string }>('SELECT holder, until FROM nc_leases WHERE name = ? AND until > ?', [name, new Date().toISOString()]);
    },
  };
}

export type Leases = ReturnType<typeof leases>;
