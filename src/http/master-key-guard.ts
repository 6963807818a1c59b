/**
 * Wrong master keys per client address. In masterKey mode the master key is the administrator's
 * password, checked on every call that carries it and by the sign-in form: past MAX_FAILURES
 * wrong keys in a window, every attempt from that address answers 429 until the window ends, the
 * right key included (were it heard, guessing would go on and the one right answer still show).
 * Kept in memory per instance, like the sign-in guard.
 */
import { rateLimited } from '../lib/errors';

const MAX_FAILURES = 10;
const WINDOW_MS = 60_000;
/** Addresses kept at most (oldest dropped first). */
const ENTRIES_MAX = 10_000;

export class MasterKeyGuard {
  private failures = new Map<string, { count: number; resetAt: number }>();

  /** Throws 429 while the address is past its wrong keys of this window. */
  check(ip: string): void {
    const w = this.failures.get(ip);
    const left = w ? w.resetAt - Date.now() : 0;
    if (w && left > 0 && w.count >= MAX_FAILURES) throw rateLimited('Too many wrong master keys, please try again later', Math.ceil(left / 1000));
  }

  /** Counts a wrong key from the address. */
  failed(ip: string): void {
    const now = Date.now();
    const w = this.failures.get(ip);
    if (w && w.resetAt > now) {
      w.count++;
      return;
    }
    if (this.failures.size >= ENTRIES_MAX) this.failures.delete(this.failures.keys().next().value!);
    this.failures.set(ip, { count: 1, resetAt: now + WINDOW_MS });
  }
}
