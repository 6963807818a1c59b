/**
 * The terminal's websocket, `/api/terminal/socket`. The upgrade is refused with `{msg}` and a
 * status unless: the terminal is on (503), the Origin is this server's (403), the session token is
 * valid (401: subprotocol `tablo.jwt.<token>`, `tablo.key.<base64url master key>` or `?token=`;
 * never logged), the caller is the Super Admin (403), and the person has fewer than 5 terminals
 * (429). `?session=<id>` re-attaches a terminal whose socket dropped (404 once it has ended),
 * `&replay=1` when the page lost its screen (a reload) and wants the newest output again;
 * `?cols=&rows=` is the first window size.
 *
 * Frames: binary from the browser is input, binary to it is output; text frames are JSON control
 * messages: `{type:'resize',cols,rows}`, `{type:'input',data}`, `{type:'close'}`, and
 * `{type:'pause'}` / `{type:'resume'}` while the browser's xterm is behind, in; `ready` and `exit`
 * out (see session.ts).
 */
import type { BaseContext } from '../context';
import { authTypeOf } from '../config/config';
import { isAppError } from '../lib/errors';
import type { Actor } from '../lib/actor';
import { clientIp, resolveActor } from '../http/principal';
import { refuse, refuseFailure, type SocketRoute } from '../http/sockets';
import { isOwnOrigin } from '../http/client-address';
import { usersRepo } from '../meta/users-repo';
import type { TerminalService } from './service';
import type { TerminalOwner, TerminalSocketState } from './session';

export const TERMINAL_SOCKET_PATH = '/api/terminal/socket';
/** The subprotocol the server answers with; clients offer it beside their credentials. */
export const TERMINAL_PROTOCOL = 'tablo.terminal';

/** The credentials of an upgrade request, as the headers the rest of the app reads. */
function credentials(request: Request, url: URL): Record<string, string> | null {
  const offered = (request.headers.get('sec-websocket-protocol') ?? '').split(',').map((p) => p.trim());
  for (const p of offered) {
    if (p.startsWith('tablo.jwt.')) return { 'xc-auth': p.slice('tablo.jwt.'.length) };
    if (p.startsWith('tablo.key.')) return { 'xc-master-key': Buffer.from(p.slice('tablo.key.'.length), 'base64url').toString() };
  }
  const token = url.searchParams.get('token');
  return token ? { 'xc-auth': token } : null;
}

/** Whether the Origin is the server's own address (its Host) or the configured public URL. */
function sameOrigin(ctx: BaseContext, request: Request): boolean {
  const origin = request.headers.get('origin');
  return !!origin && isOwnOrigin(ctx.config, request, origin);
}

async function ownerOf(ctx: BaseContext, actor: Actor, ip: string): Promise<TerminalOwner> {
  if (actor.kind !== 'user' || !actor.userId) return { key: 'master', ip };
  const user = await usersRepo(ctx.meta).byId(actor.userId);
  return { key: actor.userId, userId: actor.userId, email: actor.email, ip, tokenVersion: user?.token_version };
}

/** The socket route of the terminal over a terminal service. */
export function terminalSocketRoute(ctx: BaseContext, service: TerminalService): SocketRoute<TerminalSocketState> {
  const refused = (status: number, msg: string) => {
    ctx.log.warn(`terminal socket refused (${status}): ${msg}`);
    return refuse(status, msg);
  };
  return {
    async accept(request, server) {
      if (!service.policy.enabled) return refused(503, `${service.policy.reason} ${service.policy.howToEnable}`);
      if (!sameOrigin(ctx, request)) {
        const origin = request.headers.get('origin');
        return refused(403, origin ? `Origin ${origin.slice(0, 200)} may not open a terminal on this server` : 'The Origin header is missing');
      }
      const url = new URL(request.url);
      const creds = credentials(request, url);
      if (!creds && authTypeOf(ctx.config) !== 'none') return refused(401, 'Not signed in: send the session token (subprotocol tablo.jwt.<token>)');
      let actor: Actor;
      try {
        actor = await resolveActor(ctx, new Request('http://terminal.local/', { headers: creds ?? {} }));
      } catch (e) {
        if (isAppError(e)) ctx.log.warn(`terminal socket refused (${e.status}): ${e.message}`);
        return refuseFailure(e, ctx.log, 'the terminal socket upgrade');
      }
      if (actor.kind === 'guest') return refused(401, 'Not signed in');
      if (!(actor.kind === 'master' || actor.superAdmin)) return refused(403, 'Only the Super Admin can open a terminal');
      const owner = await ownerOf(ctx, actor, clientIp(ctx, request, server));
      const headers: Record<string, string> = request.headers.get('sec-websocket-protocol')?.includes(TERMINAL_PROTOCOL) ? { 'Sec-WebSocket-Protocol': TERMINAL_PROTOCOL } : {};
      const id = url.searchParams.get('session');
      if (id) {
        const session = service.find(id, owner.key);
        if (!session) return refused(404, 'This terminal has ended');
        return { state: { session, reattached: true, replay: url.searchParams.get('replay') === '1' }, headers };
      }
      try {
        const session = service.open(owner, { cols: url.searchParams.get('cols'), rows: url.searchParams.get('rows') });
        return { state: { session, reattached: false, replay: false }, headers, abandon: () => session.end('the websocket upgrade failed') };
      } catch (e) {
        if (isAppError(e)) return refused(e.status, e.message);
        ctx.log.error('terminal failed to start', e);
        return refused(503, 'Error opening the terminal. Please use your system terminal');
      }
    },
    open(ws) {
      ws.data.state.session.attach(ws, ws.data.state.reattached, ws.data.state.replay);
    },
    message(ws, message) {
      const session = ws.data.state.session;
      if (typeof message !== 'string') return session.input(message);
      let m: { type?: unknown; cols?: unknown; rows?: unknown; data?: unknown };
      try {
        m = JSON.parse(message);
      } catch {
        return;
      }
      if (m.type === 'resize') session.resize(m.cols, m.rows);
      else if (m.type === 'input' && typeof m.data === 'string') session.input(m.data);
      else if (m.type === 'close') session.end('closed by the user');
      else if (m.type === 'pause' || m.type === 'resume') session.clientFlow(m.type === 'pause');
    },
    close(ws) {
      ws.data.state.session.detach(ws);
    },
    drain(ws) {
      ws.data.state.session.drained(ws);
    },
  };
}
