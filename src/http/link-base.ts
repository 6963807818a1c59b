/**
 * The address links handed to a signed-in caller start with (invite links, shared view links):
 * NC_PUBLIC_URL when set, else the address the caller reached Tablo at, so that a link copied on
 * http://tablo.internal:8080 does not point at localhost. Behind a trusted proxy, the host and
 * scheme it reports (X-Forwarded-Host, X-Forwarded-Proto) are the ones the client used.
 *
 * NC_PUBLIC_URL may carry a path (https://corp.example/tablo, Tablo behind a reverse proxy under a
 * path): links then start with it, and the paths Tablo hands out (file links, API endpoints,
 * cookie paths) start with publicPath.
 *
 * Without NC_PUBLIC_URL, a trusted proxy (NC_TRUSTED_PROXIES) that serves Tablo under a path and
 * takes it off names that path in X-Forwarded-Prefix (`/tablo`): cookie paths, API endpoints, file
 * links and the links above then carry it (requestPath). From any other client the header is ignored.
 *
 * note: only for links a signed-in caller asks for. A password reset link is asked for by anyone, so
 * it never takes the request's Host (a made-up Host would mail the owner a link to another server).
 */
import type { Config } from '../config/config';
import { cameOverHttps, requestedHost, viaTrustedProxy } from './client-address';

/** The path NC_PUBLIC_URL puts Tablo under ('/tablo'), '' at the root; no trailing slash. */
export function publicPath(config: Pick<Config, 'publicUrl'>): string {
  if (!config.publicUrl) return '';
  return new URL(config.publicUrl).pathname.replace(/\/+$/, '');
}

/** A server path as the public sees it ('/api/files/1' -> '/tablo/api/files/1' under a path). */
export const publicPathOf = (config: Pick<Config, 'publicUrl'>, path: string): string => `${publicPath(config)}${path}`;

/** One path segment a forwarded prefix may hold: no separators of cookies or headers, no dot segments. */
const PREFIX_SEGMENT = /^[A-Za-z0-9._~!$'()*+=:@%-]+$/;
/** Longest forwarded prefix heard. */
const PREFIX_MAX = 200;

/**
 * The path of X-Forwarded-Prefix ('/tablo', no trailing slash), '' when absent or not a plain path
 * (`..`, `;`, spaces, a scheme or a host, `//` are refused whole). Several values (proxies in a chain,
 * each adding its own) are joined in order: `/a, /b` -> `/a/b`.
 */
export function forwardedPrefix(header: string | null): string {
  if (!header || header.length > PREFIX_MAX) return '';
  const segments: string[] = [];
  for (const part of header.split(',')) {
    const value = part.trim();
    if (!value) continue;
    // A path of its own: not `tablo`, nor `//host` (a protocol-relative address).
    if (!value.startsWith('/') || value.includes('//')) return '';
    for (const seg of value.split('/')) {
      if (!seg) continue;
      if (seg === '.' || seg === '..' || !PREFIX_SEGMENT.test(seg)) return '';
      segments.push(seg);
    }
  }
  return segments.length ? `/${segments.join('/')}` : '';
}

/**
 * The path Tablo is served under as this request's client sees it: NC_PUBLIC_URL's path when set,
 * else the X-Forwarded-Prefix of a trusted proxy, else ''.
 */
export function requestPath(config: Config, request: Request | undefined): string {
  if (config.publicUrl || !request) return publicPath(config);
  return viaTrustedProxy(config, request) ? forwardedPrefix(request.headers.get('x-forwarded-prefix')) : '';
}

/** A server path as this request's client sees it ('/api/files/1' -> '/tablo/api/files/1' under a path). */
export const requestPathOf = (config: Config, request: Request | undefined, path: string): string => `${requestPath(config, request)}${path}`;

/** Where links start, without a trailing slash. */
export function linkBase(config: Config, request: Request): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  const url = new URL(request.url);
  const scheme = url.protocol === 'http:' && cameOverHttps(config, request) ? 'https:' : url.protocol;
  return `${scheme}//${requestedHost(config, request) ?? url.host}${requestPath(config, request)}`;
}
