/**
 * GET /api/v1/version: this server's version, the latest release the feed named (if a feed is set), how
 * this server is updated (`install`: binary, docker, notice or source), whether it updates itself
 * (`autoUpdate`) and the release installed for the next start (`installed`).
 * POST /api/v1/version/check reads the feed again (at most once a minute).
 * POST /api/v1/version/install (Super Admin) puts the newer release in place of the binary (install.ts).
 * PUT /api/v1/version/auto `{ enabled }` (Super Admin) turns the auto-update on or off; the setting is kept
 * in the metadata store (nc_store `updates.autoInstall`). While it is on, every read of the feed that
 * finds a newer release downloads it beside the binary, checks its SHA-256 and puts it in place: it runs
 * from the next start.
 */
import { Elysia } from 'elysia';
import { z } from 'zod';
import type { AppContext } from '../context';
import { parseBody } from '../auth/passwords';
import { resolveActor } from '../http/principal';
import { badRequest, forbidden, isAppError, unauthorized } from '../lib/errors';
import type { Release, UpdateChecker, UpdateStatus } from './feed';
import { installMode, installRelease, refusal, type InstallTarget } from './install';

const AUTO_KEY = 'updates.autoInstall';
const AutoBody = z.object({ enabled: z.boolean({ error: 'enabled must be true or false' }) });

export function versionRoutes(ctx: AppContext, updates: UpdateChecker, target: InstallTarget) {
  const install = installMode(target, ctx.config.updateMode);
  /** The version put in place of the binary by this process (it runs from the next start). */
  let installed: string | null = null;
  let installing: Promise<unknown> | null = null;
  /** Why the last automatic install failed (cleared by the next attempt). */
  let installError: string | undefined;
  let autoUpdate = false;

  const readAuto = async () => {
    const row = await ctx.meta.get<{ value: string }>('SELECT value FROM nc_store WHERE key = ?', [AUTO_KEY]);
    autoUpdate = row?.value === 'on';
    return autoUpdate;
  };
  const writeAuto = async (on: boolean) => {
    await ctx.meta.run(
      'INSERT INTO nc_store (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
      [AUTO_KEY, on ? 'on' : 'off', new Date().toISOString()],
    );
    autoUpdate = on;
  };

  const status = async () => ({
    ...updates.status(),
    install,
    autoUpdate: await readAuto(),
    installed,
    installing: !!installing,
    ...(installError ? { installError } : {}),
  });

  /** Installs `latest` once at a time; a release already installed is not fetched again. */
  const installOnce = async (latest: Release) => {
    if (installing) throw badRequest('An update is already being installed');
    if (installed === latest.version) throw badRequest(`Tablo ${latest.version} is already installed: restart Tablo to run it`);
    const run = installRelease(latest, target, install);
    installing = run;
    try {
      const done = await run;
      installed = latest.version;
      installError = undefined;
      ctx.log.info(`update: Tablo ${latest.version} installed at ${done.installed}, running from the next start (the previous binary is ${done.previous})`);
      return done;
    } finally {
      installing = null;
    }
  };

  /**
   * With the auto-update on, a newer release on the feed is installed in the background; resolves once
   * that is decided (and the install, if any, has started).
   */
  const autoInstall = async (s: UpdateStatus, on?: boolean) => {
    if (install !== 'binary' || !s.newer || !s.latest || installing || installed === s.latest.version) return;
    if (!(on ?? (await readAuto().catch(() => false)))) return;
    const latest = s.latest;
    void installOnce(latest).catch((e) => {
      installError = isAppError(e) ? e.message : 'The update could not be installed';
      ctx.log.warn?.(`update: automatic install of ${latest.version} failed: ${installError}`);
    });
  };
  /** The decision taken after the last read of the feed (Check now answers once it is taken). */
  let deciding: Promise<void> = Promise.resolve();
  const stopListening = updates.onChecked((s) => void (deciding = autoInstall(s)));
  ctx.closers.push(async () => {
    stopListening();
    await installing?.catch(() => {});
  });

  const requireSuperAdmin = async (request: Request) => {
    const actor = await resolveActor(ctx, request);
    if (actor.kind === 'guest') throw unauthorized('Not signed in');
    if (!(actor.kind === 'master' || actor.superAdmin)) throw forbidden('Only the Super Admin updates Tablo');
  };

  return new Elysia()
    .get('/api/v1/version', status)
    .post('/api/v1/version/check', async () => {
      const last = updates.status().checkedAt;
      if (!last || Date.now() - Date.parse(last) >= 60_000) await updates.check();
      await deciding;
      return status();
    })
    .post('/api/v1/version/install', async ({ request }) => {
      await requireSuperAdmin(request);
      const { latest, newer } = updates.status();
      if (!latest || !newer) throw badRequest('There is no newer version to install');
      const done = await installOnce(latest);
      return { msg: `Tablo ${latest.version} is installed: restart Tablo to run it`, ...done };
    })
    .put('/api/v1/version/auto', async ({ request, body }) => {
      await requireSuperAdmin(request);
      const { enabled } = parseBody(AutoBody, body);
      const refused = refusal(install);
      if (enabled && refused) throw badRequest(refused);
      await writeAuto(enabled);
      ctx.log.info(`update: automatic updates turned ${enabled ? 'on' : 'off'}`);
      // Turned on while a newer release is known: it is installed now, in the background.
      if (enabled) void autoInstall(updates.status(), true);
      return status();
    });
}
