/** The httpOnly refresh-token cookie: SameSite=Lax, Path=/auth, Secure behind an https public URL. */
import type { Config } from '../../config/config';
import { LIMITS } from '../../config/limits';

export const REFRESH_COOKIE = 'tablo_refresh';

export function refreshCookie(config: Config, token: string | null): string {
  const secure = config.publicUrl?.startsWith('https:') ? '; Secure' : '';
  const maxAge = token ? Math.floor(LIMITS.refreshTokenTtlMs / 1000) : 0;
  return `${REFRESH_COOKIE}=${token ?? ''}; Path=/auth; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}
