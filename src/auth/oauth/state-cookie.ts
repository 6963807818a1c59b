/**
 * Binds a provider sign-in to the browser that started it. The state alone is kept on the server,
 * so a code and state obtained by someone else (their own sign-in at the provider, left unfinished)
 * could be handed to a victim's browser through the callback link, which would then be signed in
 * to that someone's account (login CSRF). The browser that starts a sign-in or a link therefore
 * gets an httpOnly cookie naming its states (by digest, a few at once for several tabs), and the
 * code exchange is heard only with it. Its path is that of the refresh cookie (cookies.ts).
 */
import { timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config/config';
import { LIMITS } from '../../config/limits';
import { sha256 } from '../../lib/ids';
import { cameOverHttps } from '../../http/client-address';
import { requestPathOf } from '../../http/link-base';
import { readCookie } from '../../api/auth/cookies';

export const OAUTH_STATE_COOKIE = 'tablo_oauth';
/** States of one browser remembered at once (sign-ins started in several tabs). */
const STATES_MAX = 5;

const digest = (state: string) => sha256(`oauth-state:${state}`).slice(0, 32);

/** The cookie naming `state` as this browser's, after those it already names. */
export function stateCookie(config: Config, request: Request, state: string): string {
  const previous = (readCookie(request, OAUTH_STATE_COOKIE) ?? '').split('.').filter((d) => /^[0-9a-f]{32}$/.test(d));
  const value = [digest(state), ...previous].slice(0, STATES_MAX).join('.');
  const secure = config.publicUrl?.startsWith('https:') || cameOverHttps(config, request) ? '; Secure' : '';
  return `${OAUTH_STATE_COOKIE}=${value}; Path=${requestPathOf(config, request, '/auth')}; HttpOnly; SameSite=Lax; Max-Age=${Math.floor(LIMITS.oauthStateTtlMs / 1000)}${secure}`;
}

/** Whether this browser started the sign-in of `state`. */
export function startedHere(request: Request, state: string): boolean {
  const want = Buffer.from(digest(state));
  return (readCookie(request, OAUTH_STATE_COOKIE) ?? '').split('.').some((d) => {
    const got = Buffer.from(d);
    return got.length === want.length && timingSafeEqual(got, want);
  });
}
