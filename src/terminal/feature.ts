/**
 * The built-in terminal as one feature: the service, its websocket route and
 * `GET /api/terminal/status` (whether it is on, why, how to turn it on, whether the caller may open
 * one and how many they have open), which the Terminal tab reads before it connects.
 */
import { Elysia } from 'elysia';
import type { BaseContext } from '../context';
import { LIMITS } from '../config/limits';
import { requireUser } from '../http/principal';
import type { Sockets } from '../http/sockets';
import { TerminalService, type TerminalServiceOptions } from './service';
import { TERMINAL_PROTOCOL, TERMINAL_SOCKET_PATH, terminalSocketRoute } from './socket-route';

/** Creates the terminal service, registers its socket path and answers its status route. */
export function terminalFeature(ctx: BaseContext, sockets: Sockets, options: Partial<TerminalServiceOptions> = {}) {
  const service = new TerminalService(ctx, options);
  sockets.register(TERMINAL_SOCKET_PATH, terminalSocketRoute(ctx, service));
  ctx.closers.push(() => service.closeAll());
  const routes = new Elysia({ name: 'terminal' }).get('/api/terminal/status', async ({ request }) => {
    const actor = await requireUser(ctx, request);
    const allowed = actor.kind === 'master' || !!actor.superAdmin;
    const open = service.countFor(actor.kind === 'user' && actor.userId ? actor.userId : 'master');
    return {
      enabled: service.policy.enabled,
      reason: service.policy.reason,
      howToEnable: service.policy.howToEnable,
      allowed,
      ...(allowed ? {} : { refusal: 'Only the Super Admin can open a terminal' }),
      maxTerminals: LIMITS.terminalsMax,
      /** The caller's terminals open now (in any window). */
      open: allowed ? open : 0,
      idleMinutes: ctx.config.terminalIdleMin,
      path: TERMINAL_SOCKET_PATH,
      protocol: TERMINAL_PROTOCOL,
    };
  });
  return { service, routes };
}
