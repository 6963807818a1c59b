/**
 * Websockets on the app's own port. Bun.serve takes one `websocket` handler object for the whole
 * server, so features register a socket route per path here (the terminal, later realtime grid
 * events); `upgrade(request, server)` routes an upgrade request by its path to the route's `accept`
 * step, which answers the socket's per-connection data or a refusal (`{msg}` with its HTTP status),
 * and the shared handler object dispatches open/message/close/drain to the route of each socket.
 */
import type { Server, ServerWebSocket, WebSocketHandler } from 'bun';
import type { Logger } from '../lib/log';
import { errorResponse } from './error-edge';

/** Seconds a socket may stay silent (no message, no pong to the server's ping) before it is closed. */
export const SOCKET_IDLE_SECONDS = 30;

/** What every socket carries: the path of its route and the route's own state. */
export interface SocketData<T = unknown> {
  route: string;
  state: T;
}

export type AppSocket<T = unknown> = ServerWebSocket<SocketData<T>>;

/** What accept answers to let an upgrade through: the socket's state and extra response headers. */
export interface Accepted<T> {
  state: T;
  headers?: Record<string, string>;
  /** Called when the upgrade could not be made after all (the client went away meanwhile). */
  abandon?: () => void;
}

/** One socket path: the upgrade check and the socket events. */
export interface SocketRoute<T> {
  /** Checks the upgrade request: the state of the new socket, or the Response that refuses it. */
  accept(request: Request, server: Server<SocketData>): Promise<Accepted<T> | Response>;
  open?(ws: AppSocket<T>): void;
  message?(ws: AppSocket<T>, message: string | Buffer): void;
  close?(ws: AppSocket<T>, code: number, reason: string): void;
  drain?(ws: AppSocket<T>): void;
}

/** A refusal of an upgrade: the status and `{msg}` the client reads (never a stack trace). */
export const refuse = (status: number, msg: string, headers: Record<string, string> = {}) =>
  Response.json({ msg }, { status, headers: { 'cache-control': 'no-store', ...headers } });

/**
 * The refusal of an upgrade whose check threw: the app's own errors keep their status and `{msg, code}`
 * (401 only when the caller is not signed in, 503 when the metadata store does not answer); anything
 * else is the server's fault, answered 500 `{msg}` and logged, never taken for a missing sign-in.
 */
export function refuseFailure(error: unknown, log: Logger, where: string): Response {
  const res = errorResponse(error, undefined, log, where);
  res.headers.set('cache-control', 'no-store');
  return res;
}

/** The path of a request URL without parsing the whole URL (every request passes here). */
function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const q = url.indexOf('?', start);
  return q < 0 ? url.slice(start) : url.slice(start, q);
}

/** The socket routes of one app, their upgrade step and the handler object for Bun.serve. */
export function createSockets() {
  const routes = new Map<string, SocketRoute<any>>();
  const routeOf = (ws: AppSocket) => routes.get(ws.data.route);
  /** Open sockets, so that a stopping server can end them (Bun's graceful stop waits for every one). */
  const open = new Set<AppSocket>();
  let closing = false;

  const websocket: WebSocketHandler<SocketData> = {
    open: (ws) => {
      open.add(ws);
      routeOf(ws)?.open?.(ws);
    },
    message: (ws, message) => routeOf(ws)?.message?.(ws, message),
    close: (ws, code, reason) => {
      open.delete(ws);
      routeOf(ws)?.close?.(ws, code, reason);
    },
    drain: (ws) => routeOf(ws)?.drain?.(ws),
    // Terminal output is already dense; compression would cost CPU on every keystroke echo.
    perMessageDeflate: false,
    maxPayloadLength: 1024 * 1024,
    // A socket whose peer went silent (a dropped network, a laptop closed: no FIN ever comes) ends
    // within SOCKET_IDLE_SECONDS: Bun pings a socket that sent nothing for a while before then and closes
    // it when no pong (nor anything else) came back; a live browser answers pings by itself. Its close
    // then takes its member out of the others' presence (the web client reconnects as before).
    idleTimeout: SOCKET_IDLE_SECONDS,
    sendPings: true,
  };

  return {
    /** Registers the socket route of a path (exact match). */
    register<T>(path: string, route: SocketRoute<T>): void {
      if (routes.has(path)) throw new Error(`socket path ${path} is taken`);
      routes.set(path, route);
    },
    /**
     * undefined when the request is not for a socket path (the app answers it); else a promise of
     * the refusal, or of undefined once the socket is upgraded. `path` is the request's own unless
     * given (a request under NC_PUBLIC_URL's path is upgraded as it came, routed by the path without it).
     */
    upgrade(request: Request, server: Server<SocketData>, path: string = pathOf(request.url)): Promise<Response | undefined> | undefined {
      if (routes.size === 0) return undefined;
      const route = routes.get(path);
      if (!route) return undefined;
      return (async () => {
        if (closing) return refuse(503, 'Tablo is stopping: connect again in a moment');
        if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') return refuse(426, 'This address takes a websocket upgrade only', { upgrade: 'websocket' });
        const accepted = await route.accept(request, server);
        if (accepted instanceof Response) return accepted;
        if (server.upgrade(request, { data: { route: path, state: accepted.state }, headers: accepted.headers })) return undefined;
        accepted.abandon?.();
        return refuse(400, 'The websocket upgrade failed');
      })();
    },
    /**
     * Shutdown: refuses new sockets and closes the open ones with 1001 (going away), so that clients
     * reconnect to another instance at once and the server's graceful stop does not wait for them.
     */
    closeAll(reason = 'Server stopping'): void {
      closing = true;
      for (const ws of open) ws.close(1001, reason);
    },
    websocket,
  };
}

export type Sockets = ReturnType<typeof createSockets>;
