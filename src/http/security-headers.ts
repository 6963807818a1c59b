/**
 * Headers every HTML answer carries: a Content-Security-Policy fit for the web app (scripts and
 * connections from this origin only, inline scripts only by their hash; inline styles allowed, as
 * the editors set them; pictures also from https/http URLs a user may choose), no framing by other
 * sites (frame-ancestors 'none' and X-Frame-Options DENY), nosniff and a Referrer-Policy.
 */
import { createHash } from 'node:crypto';

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;

/** The CSP hash sources of the inline scripts of an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(INLINE_SCRIPT)) out.push(`'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
  return out;
}

/** The Content-Security-Policy of a page whose inline scripts are `hashes`. */
export function contentSecurityPolicy(hashes: string[] = []): string {
  return [
    "default-src 'self'",
    `script-src 'self'${hashes.length ? ' ' + hashes.join(' ') : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The security headers of an HTML page (its inline scripts allowed by hash). */
export function htmlSecurityHeaders(html: string): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(inlineScriptHashes(html)),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}

/** An HTML answer with its security headers. */
export function htmlResponse(html: string, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(html, { status: init.status ?? 200, headers: { 'content-type': 'text/html; charset=utf-8', ...init.headers, ...htmlSecurityHeaders(html) } });
}
