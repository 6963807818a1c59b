/**
 * A fixed-window limiter: sign-in and password reset attempts per IP and per email. With the
 * embedded SQLite store (one instance) windows are kept in memory; with a PostgreSQL store they
 * are counted in the store (`nc_rate_limits`, one atomic upsert per key), so the limit holds
 * across every instance sharing it instead of multiplying by their number. Old windows are
 * dropped as they expire.
 */
import { rateLimited } from '../lib/errors';
import type { MetaStore } from '../meta/store';

/** How many counted hits pass between two clean-ups of expired windows in the store. */
const SWEEP_EVERY = 500;

export class RateLimiter {
  private hits = new Map<string, { count: number; resetAt: number }>();
  private sinceSweep = 0;
  /** `meta`: a PostgreSQL store counts there (shared by instances); otherwise in memory. */
  constructor(private max: number, private windowMs: number, private meta?: MetaStore) {}

  /** Counts one attempt for each key; throws 429 when any key is over the limit. */
  async hit(...keys: string[]): Promise<void> {
    if (this.meta?.kind === 'pg') return this.hitInStore(this.meta, keys);
    const now = Date.now();
    if (this.hits.size > 10_000) for (const [k, v] of this.hits) if (v.resetAt <= now) this.hits.delete(k);
    for (const key of keys) {
      let w = this.hits.get(key);
      if (!w || w.resetAt <= now) this.hits.set(key, (w = { count: 0, resetAt: now + this.windowMs }));
      w.count++;
      if (w.count > this.max) this.refuse(w.resetAt - now);
    }
  }

  private async hitInStore(meta: MetaStore, keys: string[]): Promise<void> {
    const now = new Date();
    const nowIso = now.toISOString();
    const resetIso = new Date(now.getTime() + this.windowMs).toISOString();
    if (++this.sinceSweep >= SWEEP_EVERY) {
      this.sinceSweep = 0;
      await meta.run('DELETE FROM nc_rate_limits WHERE reset_at <= ?', [nowIso]);
    }
    for (const key of keys) {
      const w = await countInStore(meta, key, this.windowMs, now);
      if (w.hits > this.max) this.refuse(w.resetAt - now.getTime());
    }
  }

  private refuse(msLeft: number): never {
    throw rateLimited('Too many attempts, please try again later', Math.max(1, Math.ceil(msLeft / 1000)));
  }

  async reset(key: string): Promise<void> {
    this.hits.delete(key);
    if (this.meta?.kind === 'pg') await this.meta.run('DELETE FROM nc_rate_limits WHERE key = ?', [key]);
  }
}

/**
 * Counts one hit of `key` in the store's window table (a window that has run out starts again
 * at 1); answers the window. For limits that must hold across instances (PostgreSQL store).
 */
export async function countInStore(meta: MetaStore, key: string, windowMs: number, now = new Date()): Promise<{ hits: number; resetAt: number }> {
  const nowIso = now.toISOString();
  const row = await meta.get<{ hits: number; reset_at: string }>(
    `INSERT INTO nc_rate_limits (key, hits, reset_at) VALUES (?, 1, ?)
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN nc_rate_limits.reset_at <= ? THEN 1 ELSE nc_rate_limits.hits + 1 END,
       reset_at = CASE WHEN nc_rate_limits.reset_at <= ? THEN excluded.reset_at ELSE nc_rate_limits.reset_at END
     RETURNING hits, reset_at`,
    [key, new Date(now.getTime() + windowMs).toISOString(), nowIso, nowIso],
  );
  return { hits: row?.hits ?? 1, resetAt: row ? Date.parse(row.reset_at) : now.getTime() + windowMs };
}

/** The hits of `key`'s current window in the store (0 when it has none or it has run out). */
export async function hitsInStore(meta: MetaStore, key: string, now = Date.now()): Promise<{ hits: number; resetAt: number }> {
  const row = await meta.get<{ hits: number; reset_at: string }>('SELECT hits, reset_at FROM nc_rate_limits WHERE key = ?', [key]);
  const resetAt = row ? Date.parse(row.reset_at) : 0;
  return resetAt > now ? { hits: row!.hits, resetAt } : { hits: 0, resetAt: 0 };
}
