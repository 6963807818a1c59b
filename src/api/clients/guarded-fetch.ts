/**
 * fetch for requests the server sends to addresses a project's users chose (webhooks, cron jobs'
 * HTTP calls): where private addresses are not allowed, the target and every redirect on the way
 * are checked against the address rules (address-guard.ts) before they are requested, so a public
 * URL cannot lead the server into its own network by redirecting there.
 */
import { refusedTarget } from './address-guard';

/** Redirects followed before the last answer is taken as it is. */
const MAX_REDIRECTS = 5;

/** The target (or a redirect's) may not be reached; the message names it and the setting. */
export class RefusedAddress extends Error {}

/** fetch, following redirects only to addresses the rules allow; throws RefusedAddress otherwise. */
export async function guardedFetch(url: string, init: RequestInit, allowPrivate: boolean): Promise<Response> {
  if (allowPrivate) return fetch(url, { ...init, redirect: 'follow' });
  let target = url;
  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body;
  for (let hop = 0; ; hop++) {
    const refused = await refusedTarget(target, false);
    if (refused) throw new RefusedAddress(hop ? `${refused} (redirected from ${url})` : refused);
    const res = await fetch(target, { ...init, method, body, redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location || hop >= MAX_REDIRECTS) return res;
    await res.body?.cancel().catch(() => {});
    target = new URL(location, target).toString();
    // As browsers do: 303, and 301/302 after a POST, go on as a GET without the body; 307/308 keep both.
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
  }
}
