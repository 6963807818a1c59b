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
      // A window that has run out starts again at 1; otherwise the count goes up by one.
      const row = await meta.get<{ hits: number; reset_at: string }>(
        `INSERT INTO nc_rate_limits (key, hits, reset_at) VALUES (?, 1, ?)
         ON CONFLICT (key) DO UPDATE SET
           hits = CASE WHEN nc_rate_limits.reset_at <= ? THEN 1 ELSE nc_rate_limits.hits + 1 END,
           reset_at = CASE WHEN nc_rate_limits.reset_at <= ? THEN excluded.reset_at ELSE nc_rate_limits.reset_at END
         RETURNING hits, reset_at`,
        [key, resetIso, nowIso, nowIso],
      );
      if (row && row.hits > this.max) this.refuse(Date.parse(row.reset_at) - now.getTime());
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
