/**
 * GET /api/v1/version: this server's version and the latest release the feed named (if a feed is set).
 * POST /api/v1/version/check reads the feed again (at most once a minute).
 */
import { Elysia } from 'elysia';
import type { UpdateChecker } from './feed';

export function versionRoutes(updates: UpdateChecker) {
  return new Elysia()
    .get('/api/v1/version', () => updates.status())
    .post('/api/v1/version/check', async () => {
      const last = updates.status().checkedAt;
      if (last && Date.now() - Date.parse(last) < 60_000) return updates.status();
      return updates.check();
    });
}
