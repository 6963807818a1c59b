/**
 * A fixed-window limiter kept in memory (per instance): sign-in and password reset attempts per
 * IP and per email. Old windows are dropped as they expire.
 */
import { rateLimited } from '../lib/errors';

export class RateLimiter {
  private hits = new Map<string, { count: number; resetAt: number }>();
  constructor(private max: number, private windowMs: number) {}

  /** Counts one attempt for each key; throws 429 when any key is over the limit. */
  hit(...keys: string[]): void {
    const now = Date.now();
    if (this.hits.size > 10_000) for (const [k, v] of this.hits) if (v.resetAt <= now) this.hits.delete(k);
    for (const key of keys) {
      let w = this.hits.get(key);
      if (!w || w.resetAt <= now) this.hits.set(key, (w = { count: 0, resetAt: now + this.windowMs }));
      w.count++;
      if (w.count > this.max) {
        throw rateLimited('Too many attempts, please try again later', Math.ceil((w.resetAt - now) / 1000));
      }
    }
  }

  reset(key: string): void {
    this.hits.delete(key);
  }
}
