/**
 * Public branding for the sign-in page and the top bar: `GET /api/branding` answers `{ title,
 * logoUrl }` (nulls when the Branding plugin is off); `GET /api/branding/logo` the uploaded logo.
 */
import { Elysia } from 'elysia';
import { join } from 'node:path';
import type { AppContext } from '../context';
import { notFound } from '../lib/errors';
import { brandingOf } from './state';

export function brandingRoutes(ctx: AppContext) {
  return new Elysia({ name: 'branding' })
    .get('/api/branding', () => brandingOf(ctx))
    .get('/api/branding/logo', async () => {
      const file = Bun.file(join(ctx.dataDir, 'branding', 'logo'));
      if (!brandingOf(ctx).logoUrl?.startsWith('/api/branding/logo') || !(await file.exists())) throw notFound('No logo was uploaded');
      const type = (await Bun.file(join(ctx.dataDir, 'branding', 'logo.type')).text().catch(() => '')).trim() || 'application/octet-stream';
      return new Response(file, {
        headers: { 'content-type': type, 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox", 'cache-control': 'public, max-age=3600' },
      });
    });
}
