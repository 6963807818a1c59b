/**
 * GET /api/v1/version: this server's version, the latest release the feed named (if a feed is set) and
 * how this server is updated (`install`: binary, docker or source).
 * POST /api/v1/version/check reads the feed again (at most once a minute).
 * POST /api/v1/version/install (Super Admin) puts the newer release in place of the binary (install.ts).
 */
import { Elysia } from 'elysia';
import type { AppContext } from '../context';
import { resolveActor } from '../http/principal';
import { badRequest, forbidden, unauthorized } from '../lib/errors';
import type { UpdateChecker } from './feed';
import { installRelease, type InstallTarget } from './install';

export function versionRoutes(ctx: AppContext, updates: UpdateChecker, target: InstallTarget) {
  const install = target.inDocker ? 'docker' : target.binary ? 'binary' : 'source';
  const status = () => ({ ...updates.status(), install });
  let installing = false;
  return new Elysia()
    .get('/api/v1/version', status)
    .post('/api/v1/version/check', async () => {
      const last = updates.status().checkedAt;
      if (!last || Date.now() - Date.parse(last) >= 60_000) await updates.check();
      return status();
    })
    .post('/api/v1/version/install', async ({ request }) => {
      const actor = await resolveActor(ctx, request);
      if (actor.kind === 'guest') throw unauthorized('Not signed in');
      if (!(actor.kind === 'master' || actor.superAdmin)) throw forbidden('Only the Super Admin updates Tablo');
      const { latest, newer } = updates.status();
      if (!latest || !newer) throw badRequest('There is no newer version to install');
      if (installing) throw badRequest('An update is already being installed');
      installing = true;
      try {
        const done = await installRelease(latest, target);
        ctx.log.info(`update: Tablo ${latest.version} installed at ${done.installed} (the previous binary is ${done.previous})`);
        return { msg: `Tablo ${latest.version} is installed: restart Tablo to run it`, ...done };
      } finally {
        installing = false;
      }
    });
}
