/**
 * The one HTTP client of the web app: paths under the page's directory (app-url.ts), `xc-auth` or `xc-master-key`, the
 * `xc-gui` marker on every call; a 401 refreshes the token once and retries; if the refresh is refused
 * (401) the user is signed out with 'Token expired please login to continue'. A refresh that got no
 * verdict (no answer, 503 while the server's store is unreachable, any other failure) signs no one
 * out: the call fails with that error and the session is asked for again later. Errors carry the server's msg.
 */
import { clearSession, keptToken, masterKey, setToken, token } from '../stores/session';
import { toast } from '../stores/toasts';
import { LIMITS } from '../lib/limits';
import { previewAs } from '../stores/preview';
import { logCall } from '../stores/http-log';
import { hasMessage, locale, localeTag, t } from '../i18n';
import { translateServerMessage } from '../i18n/server-messages';
import { appUrl } from './app-url';
import { noteServerReached } from '../stores/server-status';

/** The message of a call that got no answer; its HttpError has status 0. */
export const UNREACHABLE = 'The Tablo server could not be reached';

/**
 * The text to show for an error answer: the translation of its `code` when the catalogues have
 * one, else the server's `msg` in the reader's language when a template of
 * i18n/server-messages matches it (English as it came otherwise), else a sentence with the status.
 */
export function errorText(body: unknown, status: number): string {
  const b = (body && typeof body === 'object' ? body : {}) as { msg?: unknown; code?: unknown };
  const key = `errors.${String(b.code)}`;
  if (typeof b.code === 'string' && hasMessage(key)) return t(key);
  return typeof b.msg === 'string' ? translateServerMessage(b.msg, locale.value) : t('errors.serverAnswered', { status });
}

/** A failed call: the server's msg (or UNREACHABLE) and the HTTP status (0 when none came). */
export class HttpError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
  }
}

/** How to call: method (default GET, or POST with a body), JSON body, query parameters. */
export interface RequestOptions {
  method?: string;
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Skip the refresh-and-retry on 401 (auth calls themselves). */
  noRefresh?: boolean;
  /** Let the call finish after the page is left (a save made as the page closes). */
  keepalive?: boolean;
}

/**
 * What asking for a new session token came to: a new token; a refusal (401: the session is over, sign in
 * again); or no verdict (no answer, 503 while the store is unreachable, another failure), with the error
 * to show: the session is kept and asked for again later.
 */
export type Refresh = { kind: 'refreshed' } | { kind: 'refused' } | { kind: 'unavailable'; error: HttpError };

const REFRESHED: Refresh = { kind: 'refreshed' };

/** The code of the server's answer while its metadata store cannot be reached. */
const META_UNREACHABLE = 'META_UNREACHABLE';

/** Whether an answer is the server's 503 saying its metadata store cannot be reached. */
async function storeUnreachable(res: Response): Promise<boolean> {
  if (res.status !== 503) return false;
  const body = (await res.clone().json().catch(() => null)) as { code?: unknown } | null;
  return body?.code === META_UNREACHABLE;
}

/** The outcome of a refresh call's answer. */
async function refreshOutcome(res: Response): Promise<Refresh> {
  noteServerReached(!(await storeUnreachable(res)));
  const body = (await res.json().catch(() => null)) as { token?: unknown; msg?: unknown } | null;
  if (res.status === 401) return { kind: 'refused' };
  if (res.ok && typeof body?.token === 'string' && body.token) {
    setToken(body.token);
    return REFRESHED;
  }
  return { kind: 'unavailable', error: new HttpError(errorText(body, res.status), res.status) };
}

let refreshing: Promise<Refresh> | null = null;

/**
 * Runs fn while no other tab of this browser refreshes (the Web Locks API; pages not served over HTTPS
 * or localhost have none, and refresh without it). The tabs share one refresh cookie, which every
 * refresh rotates: two tabs refreshing at once would present the same cookie twice, which the server
 * takes for a stolen copy and ends the session.
 */
const oneTabAtATime = <T>(fn: () => Promise<T>): Promise<T> => (navigator.locks ? navigator.locks.request('tablo.refresh-token', fn) : fn());

/**
 * Asks for a new session token with the httpOnly refresh cookie (see Refresh). `refused` is the token
 * the refused call carried: when this tab or another has a newer one meanwhile, that one is taken.
 */
export function refreshToken(refused: string | null = token.value): Promise<Refresh> {
  if (token.value && token.value !== refused) return Promise.resolve(REFRESHED);
  refreshing ??= oneTabAtATime(async (): Promise<Refresh> => {
    // Another tab refreshed while this one waited: its new token (kept in localStorage) is this tab's too.
    const kept = keptToken();
    if (kept && kept !== refused) {
      setToken(kept);
      return REFRESHED;
    }
    const res = await fetch(appUrl('/auth/refresh-token'), { method: 'POST', credentials: 'include', headers: { 'xc-gui': 'true' } });
    return refreshOutcome(res);
  })
    // No answer at all (server down, network gone): no verdict on the session.
    .catch((): Refresh => {
      noteServerReached(false);
      return { kind: 'unavailable', error: new HttpError(t('app.http.unreachable'), 0) };
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/**
 * The session ended and no fresh token could be had: signs out with 'Token expired please login to
 * continue' (or 'This account is disabled' when the Super Admin disabled it) and goes to the sign-in
 * page (a 401 of any call, or the realtime socket ended by the server).
 */
export function sessionExpired(why: 'expired' | 'disabled' = 'expired'): void {
  clearSession();
  toast('error', why === 'disabled' ? t('errors.ACCOUNT_DISABLED') : t('errors.SESSION_EXPIRED'), LIMITS.tokenExpiredToastMs);
  window.location.hash = '#/user/authentication/signin';
}

/** Why a 401 ended the session: the account was disabled (its code says so), or the session expired. */
async function whyRefused(res: Response): Promise<'expired' | 'disabled'> {
  const body = (await res.clone().json().catch(() => null)) as { code?: unknown } | null;
  return body?.code === 'ACCOUNT_DISABLED' ? 'disabled' : 'expired';
}

function headers(hasBody: boolean, path: string): Record<string, string> {
  // The chosen language of the interface: mails the server writes for this call (invites, password resets) use it.
  const h: Record<string, string> = { 'xc-gui': 'true', 'accept-language': localeTag() };
  if (previewAs.value && !path.startsWith('/user/me') && !path.startsWith('/admin')) h['xc-preview'] = previewAs.value;
  if (hasBody) h['content-type'] = 'application/json';
  if (masterKey.value) h['xc-master-key'] = masterKey.value;
  else if (token.value) h['xc-auth'] = token.value;
  return h;
}

/** The auth and marker headers of a call to `path` (uploads with progress use XMLHttpRequest). */
export const authHeaders = (path: string): Record<string, string> => headers(false, path);

/** An address the server would refuse (a long filter) is not sent: throws an HttpError telling the reader to shorten the filter. */
export function refuseLongAddress(href: string): void {
  if (href.length > LIMITS.maxAddressChars) throw new HttpError(t('app.http.addressTooLong', { length: href.length, max: LIMITS.maxAddressChars }), 414);
}

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const url = new URL(appUrl(path));
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  const method = opts.method ?? (opts.body === undefined ? 'GET' : 'POST');
  refuseLongAddress(url.href);
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(url.href, {
      method,
      // FormData (uploads) goes as multipart with the boundary the browser sets.
      headers: headers(opts.body !== undefined && !(opts.body instanceof FormData), path),
      body: opts.body === undefined ? undefined : opts.body instanceof FormData ? opts.body : JSON.stringify(opts.body),
      credentials: 'include',
      keepalive: opts.keepalive,
    });
  } catch (e) {
    // No answer at all (server down, network gone): say so instead of the browser's 'Failed to fetch'.
    if (e instanceof TypeError) {
      noteServerReached(false);
      throw new HttpError(t('app.http.unreachable'), 0);
    }
    throw e;
  }
  noteServerReached(!(await storeUnreachable(res)));
  logCall({ at: Date.now(), method, path: path.split('?')[0] + url.search, status: res.status, ms: Math.round(performance.now() - started) });
  return res;
}

/** True for a call that got no answer at all (server down, network gone): an HttpError of status 0. */
export const isUnreachable = (e: unknown): boolean => e instanceof HttpError && e.status === 0;

/** Calls the server and answers the parsed JSON; throws HttpError with the server's msg. */
export async function http<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T> {
  const sent = token.value;
  let res = await send(path, opts);
  if (res.status === 401 && !opts.noRefresh && token.value) {
    const refused = res;
    const refresh = await refreshToken(sent);
    if (refresh.kind === 'refreshed') res = await send(path, opts);
    // No verdict on the session (its store unreachable): the call fails, the user stays signed in.
    else if (refresh.kind === 'unavailable') throw refresh.error;
    else {
      const why = await whyRefused(refused);
      sessionExpired(why);
      throw new HttpError(why === 'disabled' ? t('errors.ACCOUNT_DISABLED') : t('errors.SESSION_EXPIRED'), 401);
    }
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!res.ok) {
    throw new HttpError(errorText(body, res.status), res.status);
  }
  return body as T;
}

/** Calls the server and answers the body as a Blob (downloads such as zips); errors as http(). */
export async function httpBlob(path: string, opts: RequestOptions = {}): Promise<Blob> {
  const sent = token.value;
  let res = await send(path, opts);
  if (res.status === 401 && !opts.noRefresh && token.value) {
    const refresh = await refreshToken(sent);
    if (refresh.kind === 'refreshed') res = await send(path, opts);
    else if (refresh.kind === 'unavailable') throw refresh.error;
  }
  if (!res.ok) {
    const text = await res.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {}
    throw new HttpError(errorText(body, res.status), res.status);
  }
  return res.blob();
}

/** Hands a Blob to the browser as a file download. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
