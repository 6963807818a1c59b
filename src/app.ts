/**
 * createApp(config, deps) composes the Elysia modules. Tests call app.handle(new Request(...)).
 */
import { Elysia } from 'elysia';
import type { Config } from './config/config';
import { LIMITS } from './config/limits';
import { errorEdge } from './http/error-edge';
import { consoleLogger, type Logger } from './lib/log';
import type { MetaStore } from './meta/store';
import { metaHealth } from './meta/health';
import { MSG_META_UNREACHABLE } from './meta/pg-store';
import type { Secrets } from './boot/secrets';
import type { AppContext } from './context';
import { ProjectRegistry } from './schema/registry';
import { dashboardRoutes } from './api/dashboard/routes';
import { authRoutes } from './api/auth/routes';
import { oauthRoutes } from './api/auth/oauth-routes';
import { profileRoutes } from './api/auth/profile-routes';
import { auditLogRoutes } from './api/team/audit-log';
import { restRoutes } from './api/rest/routes';
import { docsRoutes } from './api/rest/docs-routes';
import { fastRest } from './api/rest/fast-path';
import { fastWrite } from './api/rest/fast-write';
import { graphqlEndpoint } from './api/graphql/routes';
import { teamRoutes } from './api/team/routes';
import { usersAdminRoutes } from './api/team/users-admin';
import { sharedViewRoutes } from './api/shared/routes';
import { VERSION } from './version';
import { createSockets } from './http/sockets';
import { terminalFeature } from './terminal/feature';
import { realtimeFeature } from './realtime/feature';
import type { TerminalServiceOptions } from './terminal/service';
import { WriteEventBus } from './data/write-events';
import { startHooks } from './hooks/start';
import { startCrons } from './cron/start';
import { startAppStore } from './plugins/start';
import { exportRoutes } from './api/transfer/export-routes';
import { endLeftImports, stopImports } from './api/transfer/import-job';
import { updateChecker } from './updates/feed';
import { versionRoutes } from './updates/routes';
import { installTarget, type InstallTarget } from './updates/install';
import { requestHeadRefusal } from './http/request-head';

export interface AppDeps {
  meta: MetaStore;
  secrets: Secrets;
  dataDir: string;
  log?: Logger;
  /** The server's environment (main.ts); the terminal hands a cleaned copy to its shells. */
  hostEnv?: Record<string, string | undefined>;
  /** Terminal settings beside the config (tests shorten the reconnect grace). */
  terminal?: Partial<TerminalServiceOptions>;
  /** Where a release is installed (tests point it at a copy of a binary). */
  installTarget?: InstallTarget;
}

export function createApp(config: Config, deps: AppDeps) {
  const log = deps.log ?? consoleLogger;
  const projects = new ProjectRegistry({
    meta: deps.meta,
    connectionKey: deps.secrets.connectionKey,
    dataDir: deps.dataDir,
    log,
    sqliteAllowDirs: config.sqliteAllowDirs,
    connectAllow: config.connectAllow,
    statementTimeoutMs: config.queryTimeoutMs,
  });
  const ctx: AppContext = {
    config,
    meta: deps.meta,
    secrets: deps.secrets,
    log,
    dataDir: deps.dataDir,
    version: VERSION,
    closers: [() => projects.close()],
    projects,
    writeEvents: new WriteEventBus((e) => log.error('write event listener', e)),
  };
  // Websockets on the app's port: features register a path each (serveApp wires them into Bun.serve).
  const sockets = createSockets();
  const terminal = terminalFeature(ctx, sockets, { hostEnv: deps.hostEnv, ...deps.terminal });
  const realtime = realtimeFeature(ctx, sockets);
  startHooks(ctx);
  startCrons(ctx);
  // Imports left running by an instance that ended abruptly end as failed; running imports end
  // (stopped, saying so) before the project databases close.
  const leftImports = endLeftImports({ dataDir: ctx.dataDir, meta: ctx.meta }, log);
  ctx.closers.unshift(async () => {
    await leftImports;
    await stopImports(ctx.dataDir);
  });
  const appStore = startAppStore(ctx);
  const updates = updateChecker({ feedUrl: config.updateFeed, current: VERSION, log });
  ctx.closers.push(async () => updates.stop());
  // A load balancer takes an instance out of rotation while its metadata store does not answer.
  const metaAnswers = metaHealth(deps.meta, log);
  const graphql = graphqlEndpoint(ctx, { logRequests: config.logRequests, bodyLimitBytes: LIMITS.bodyLimitBytes });
  const app = new Elysia()
    .use(errorEdge({ log, bodyLimitBytes: LIMITS.bodyLimitBytes, attachmentMaxBytes: config.attachmentMaxBytes, logRequests: config.logRequests }))
    .get('/api/health', async ({ set }) => {
      if (await metaAnswers()) return { ok: true, version: VERSION };
      set.status = 503;
      return { ok: false, msg: MSG_META_UNREACHABLE, version: VERSION };
    })
    .use(versionRoutes(ctx, updates, deps.installTarget ?? installTarget()))
    .use(authRoutes(ctx))
    .use(oauthRoutes(ctx))
    .use(profileRoutes(ctx))
    .use(dashboardRoutes(ctx))
    .use(exportRoutes(ctx))
    .use(restRoutes(ctx))
    .use(docsRoutes(ctx))
    .use(sharedViewRoutes(ctx))
    .use(graphql.routes)
    .use(teamRoutes(ctx))
    .use(usersAdminRoutes(ctx))
    .use(auditLogRoutes(ctx))
    .use(appStore.routes)
    .use(terminal.routes);
  /** Closes what the modules opened (project pools, timers). */
  const close = async () => {
    for (const c of ctx.closers.splice(0)) await c();
  };
  // The common REST reads and writes and plain GraphQL queries take a short road (src/api/rest/fast-path.ts,
  // fast-write.ts, src/api/graphql/fast-path.ts); all else goes to the routes.
  const routed = app.handle;
  const fast = fastRest(ctx, log, config.logRequests);
  const fastWrites = fastWrite(ctx, log, config.logRequests);
  const handle = (request: Request): Promise<Response> => {
    const tooLarge = requestHeadRefusal(request);
    if (tooLarge) return Promise.resolve(tooLarge);
    return fast(request, routed) ?? fastWrites(request) ?? graphql.early(request, routed) ?? routed(request);
  };
  return Object.assign(app, { ctx, close, handle, upgrade: sockets.upgrade, websocket: sockets.websocket, sockets, terminals: terminal.service, realtime, updates });
}

export type App = ReturnType<typeof createApp>;
