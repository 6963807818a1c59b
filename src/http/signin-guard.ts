/**
 * Sign-in attempts per account: failures slow further attempts down instead of locking the account.
 * After FREE_FAILURES failed attempts on one e-mail, each new failure doubles the wait before the
 * next attempt is heard (capped at BACKOFF_MAX_MS); an attempt inside the wait answers 429 with
 * Retry-After and points at the password reset. A known client is never slowed by these failures:
 * one holding the "known device" cookie this account's sign-in set (an HMAC of the e-mail, so it
 * cannot be made up), or coming from an address this account signed in from lately. So an attacker
 * guessing passwords from elsewhere never locks the owner out. Per-address limits stay apart (429).
 * Kept in memory per instance, like the rate limiter.
 */
import { createHmac } from 'node:crypto';
import { rateLimited } from '../lib/errors';

/** Failures on one account before attempts are slowed. */
const FREE_FAILURES = 5;
/** Longest wait between two heard attempts on one account. */
const BACKOFF_MAX_MS = 60_000;
/** How long an address that signed in is known for the account. */
const KNOWN_ADDRESS_MS = 30 * 24 * 3600 * 1000;
/** The known-device cookie and how many accounts it may name. */
export const KNOWN_COOKIE = 'tablo_known';
const KNOWN_MAX = 5;
const KNOWN_MAX_AGE_S = 180 * 24 * 3600;
/** Entries kept at most (oldest dropped first). */
const ENTRIES_MAX = 10_000;

interface AccountState {
  failures: number;
  /** Attempts from unknown clients are not heard before this time. */
  notBefore: number;
}

export class SigninGuard {
  private accounts = new Map<string, AccountState>();
  private knownAddresses = new Map<string, number>();
  constructor(private secret: string) {}

  private mac(email: string): string {
    return createHmac('sha256', this.secret).update(`known-device:${email.toLowerCase()}`).digest('base64url').slice(0, 22);
  }

  /** Whether the request comes from a client that signed in to this account before. */
  isKnown(email: string, ip: string, cookie: string | null): boolean {
    if (cookie && cookie.split('.').includes(this.mac(email))) return true;
    const until = this.knownAddresses.get(`${email.toLowerCase()}\u0000${ip}`);
    return until !== undefined && until > Date.now() && ip !== 'unknown';
  }

  /** Throws 429 when the account is in its back-off and the client is not a known one. */
  check(email: string, known: boolean): void {
    if (known) return;
    const s = this.accounts.get(email.toLowerCase());
    const wait = s ? s.notBefore - Date.now() : 0;
    if (wait > 0) {
      throw rateLimited(`Too many failed sign-ins for this account: try again in ${Math.ceil(wait / 1000)} s, or reset your password`, Math.ceil(wait / 1000));
    }
  }

  /** Counts a failed attempt; past the free ones, the wait before the next attempt doubles. */
  failed(email: string): void {
    const key = email.toLowerCase();
    const s = this.accounts.get(key) ?? { failures: 0, notBefore: 0 };
    s.failures++;
    if (s.failures > FREE_FAILURES) s.notBefore = Date.now() + Math.min(BACKOFF_MAX_MS, 1000 * 2 ** (s.failures - FREE_FAILURES - 1));
    this.remember(this.accounts, key, s);
  }

  /**
   * A successful sign-in: the account's failures are forgotten, the address becomes known, and the
   * answer's known-device cookie (`previous` kept, this account added) is returned, on `path` (that of
   * the refresh cookie: /auth, or /tablo/auth under a path).
   */
  succeeded(email: string, ip: string, previous: string | null, secure: boolean, path = '/auth'): string {
    this.accounts.delete(email.toLowerCase());
    if (ip !== 'unknown') this.remember(this.knownAddresses, `${email.toLowerCase()}\u0000${ip}`, Date.now() + KNOWN_ADDRESS_MS);
    const mine = this.mac(email);
    const macs = [mine, ...(previous ?? '').split('.').filter((m) => /^[\w-]{22}$/.test(m) && m !== mine)].slice(0, KNOWN_MAX);
    return `${KNOWN_COOKIE}=${macs.join('.')}; Path=${path}; HttpOnly; SameSite=Strict; Max-Age=${KNOWN_MAX_AGE_S}${secure ? '; Secure' : ''}`;
  }

  private remember<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key);
    if (map.size >= ENTRIES_MAX) map.delete(map.keys().next().value!);
    map.set(key, value);
  }
}
