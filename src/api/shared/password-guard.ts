/**
 * Passwords of shared links: argon2id hashes (Bun.password), checked against the `xc-password`
 * header. Wrong or missing passwords count per link and client address (and per link); past the
 * limit every attempt answers 429 until the window ends, the right password included, unless it
 * was verified before the limit was reached: guessing stays slow and people who have the link keep
 * it. A verified password is remembered (by digest) so paging a protected view does not pay argon2
 * per request; a changed or removed password has another hash and is checked afresh. With a
 * PostgreSQL store the wrong attempts are counted in the store (`nc_rate_limits`), so the limit
 * holds across every instance sharing it instead of multiplying by their number.
 */
import { forbidden, rateLimited } from '../../lib/errors';
import { sha256 } from '../../lib/ids';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import { LIMITS } from '../../config/limits';
import type { MetaStore } from '../../meta/store';
import { countInStore, hitsInStore } from '../../http/rate-limit';

/** A missing or wrong password (api-contract section 6). */
export const INVALID_PASSWORD = 'Invalid password';

const VERIFIED_MAX = 10_000;
const VERIFIED_MS = 10 * 60_000;

/** The key of a window in the store (PostgreSQL text holds no NUL). */
const storeKey = (key: string) => `link-password:${key.replaceAll('\u0000', ' ')}`;

/** Hashes a link password (argon2id). */
export const hashLinkPassword = (plain: string) => hashPassword(plain);

/**
 * The passwords an `xc-password` header may stand for. A header carries bytes, not text: a browser
 * cannot send a password beyond Latin-1 ('密码') at all, so the web app sends any password with a
 * character outside ASCII percent-encoded (UTF-8); clients sending UTF-8 bytes as they are arrive
 * here read as Latin-1. The header as it came is tried first, so a password holding '%' still works.
 */
export function spellingsOf(header: string): string[] {
  const out = [header];
  if (header.includes('%')) {
    try {
      out.push(decodeURIComponent(header));
    } catch {}
  }
  if (/[\u0080-\u00ff]/.test(header) && !/[^\u0000-\u00ff]/.test(header)) {
    const utf8 = Buffer.from(header, 'latin1').toString('utf8');
    if (!utf8.includes('\ufffd')) out.push(utf8);
  }
  return [...new Set(out)];
}

async function verifiesAny(candidates: string[], hash: string): Promise<boolean> {
  for (const c of candidates) if (await verifyPassword(c, hash)) return true;
  return false;
}

/** Checks link passwords and limits wrong attempts (in memory, or in a PostgreSQL store for all instances). */
export class PasswordGuard {
  private failures = new Map<string, { count: number; resetAt: number }>();
  private verified = new Map<string, number>();
  constructor(
    private max: number = LIMITS.sharedViewPasswordRateLimit.max,
    private windowMs: number = LIMITS.sharedViewPasswordRateLimit.windowMs,
    private meta?: MetaStore,
  ) {}

  /**
   * Passes when `given` matches `hash`; 429 past the limit, 403 `Invalid password` otherwise.
   * Failures count per `key` (link and client address) and per `link` (ten times the limit, so
   * changing the address does not buy more guesses). A password already verified against this
   * hash passes without counting, so people who have the link keep it while someone guesses.
   */
  async check(link: string, key: string, hash: string, given: string | null): Promise<void> {
    const now = Date.now();
    const digest = given ? sha256(`${hash}\u0000${given}`) : '';
    const until = digest ? this.verified.get(digest) : undefined;
    if (until && until > now) return;
    await this.assertOpen(key, this.max, now);
    await this.assertOpen(link, this.max * 10, now);
    if (given && (await verifiesAny(spellingsOf(given), hash))) {
      if (this.verified.size >= VERIFIED_MAX) this.verified.clear();
      this.verified.set(digest, now + VERIFIED_MS);
      return;
    }
    await this.fail(key, now);
    await this.fail(link, now);
    throw forbidden(INVALID_PASSWORD);
  }

  private shared = () => (this.meta?.kind === 'pg' ? this.meta : undefined);

  private async assertOpen(key: string, max: number, now: number): Promise<void> {
    const store = this.shared();
    const m = store ? undefined : this.failures.get(key);
    const w = store ? await hitsInStore(store, storeKey(key), now) : m && m.resetAt > now ? { hits: m.count, resetAt: m.resetAt } : { hits: 0, resetAt: 0 };
    if (w.hits >= max) throw rateLimited('Too many password attempts, please try again later', Math.ceil((w.resetAt - now) / 1000));
  }

  private async fail(key: string, now: number): Promise<void> {
    const store = this.shared();
    if (store) {
      await countInStore(store, storeKey(key), this.windowMs, new Date(now));
      return;
    }
    if (this.failures.size > 10_000) for (const [k, v] of this.failures) if (v.resetAt <= now) this.failures.delete(k);
    const w = this.failures.get(key);
    if (!w || w.resetAt <= now) this.failures.set(key, { count: 1, resetAt: now + this.windowMs });
    else w.count++;
  }
}
