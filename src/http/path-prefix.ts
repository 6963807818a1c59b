/**
 * Requests under NC_PUBLIC_URL's path, for a reverse proxy that passes them on without taking the
 * path off (https://corp.example/tablo/api/health reaching Tablo as /tablo/api/health): the path is
 * taken off before routing, so both forms reach the same routes. `/tablo` alone is sent on to
 * `/tablo/`, since the page's files are addressed from its directory. The path cannot start like
 * one of Tablo's own routes (config.ts refuses such an NC_PUBLIC_URL), so no route is shadowed.
 */
import { rewroteRequest } from './client-address';

/** What a request under the prefix becomes: the same request at the path without it, or a redirect. */
export type Unprefixed = { request: Request; path: string } | { redirect: Response };

/**
 * The request without `prefix` ('/tablo', no trailing slash) when its path starts with it, else
 * null. The copy keeps the method, headers and body; its socket address stays that of the original.
 */
export function stripPathPrefix(request: Request, prefix: string): Unprefixed | null {
  if (!prefix) return null;
  const url = new URL(request.url);
  if (url.pathname === prefix) {
    return { redirect: new Response(null, { status: 308, headers: { location: `${prefix}/${url.search}`, 'cache-control': 'no-store' } }) };
  }
  if (!url.pathname.startsWith(`${prefix}/`)) return null;
  url.pathname = url.pathname.slice(prefix.length);
  const copy = new Request(url.href, request);
  rewroteRequest(copy, request);
  return { request: copy, path: url.pathname };
}

/**
 * The page with its scripts and styles addressed from its own directory (`/chunk-1.js` -> `./chunk-1.js`):
 * behind a reverse proxy that serves Tablo under a path (https://corp.example/tablo/), the page is
 * at /tablo/ and its files at /tablo/chunk-1.js.
 */
export function relativeAssets(html: string): string {
  return html.replace(/(<(?:script|link)\b[^>]*?\s(?:src|href)=)(["'])\/(?![/\\])/gi, '$1$2./');
}
