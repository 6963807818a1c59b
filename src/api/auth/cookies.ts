/**
 * The httpOnly refresh-token cookie: SameSite=Lax, Path=/auth (under NC_PUBLIC_URL's path, e.g.
 * /tablo/auth, when a reverse proxy serves Tablo under one, or else under a trusted proxy's
 * X-Forwarded-Prefix), Secure when the request came over
 * HTTPS (directly, or through a trusted proxy's X-Forwarded-Proto) or the public URL is https.
 */
import type { Config } from '../../config/config';
import { LIMITS } from '../../config/limits';
import { cameOverHttps } from '../../http/client-address';
import { requestPathOf } from '../../http/link-base';

export const REFRESH_COOKIE = 'tablo_refresh';

export function refreshCookie(config: Config, token: string | null, request?: Request): string {
  const https = config.publicUrl?.startsWith('https:') || (request !== undefined && cameOverHttps(config, request));
  const secure = https ? '; Secure' : '';
  const maxAge = token ? Math.floor(LIMITS.refreshTokenTtlMs / 1000) : 0;
  return `${REFRESH_COOKIE}=${token ?? ''}; Path=${requestPathOf(config, request, '/auth')}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) {
      try {
        return decodeURIComponent(v.join('='));
      } catch {
        return null; // a malformed escape is no cookie of ours
      }
    }
  }
  return null;
}
