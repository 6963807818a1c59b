/**
 * serveApp(app, options): Bun.serve with the app's request handler and its websockets on one port.
 * main.ts passes the web app's static routes; tests serve the API alone on port 0.
 */
import type { Server } from 'bun';
import type { SocketData, Sockets } from './sockets';
import { useSocketServer } from './principal';

/** What serveApp needs of an app: plain requests, and the socket layer's upgrade step and handlers. */
export interface ServableApp {
  handle(request: Request): Promise<Response>;
  upgrade: Sockets['upgrade'];
  websocket: Sockets['websocket'];
}

export interface ServeOptions {
  port: number;
  hostname: string;
  maxRequestBodySize?: number;
  development?: boolean;
  /** Static routes (the bundled web app) answered before the app. */
  routes?: Record<string, any>;
}

/** Starts the server: socket paths upgrade, everything else goes to app.handle. */
export function serveApp(app: ServableApp, options: ServeOptions): Server<SocketData> {
  const server = Bun.serve<SocketData>({
    port: options.port,
    hostname: options.hostname,
    maxRequestBodySize: options.maxRequestBodySize,
    development: options.development ?? false,
    // Bun turns SO_REUSEPORT on outside development: a second Tablo on the same port would then start
    // beside the first and the kernel would split the connections between them. Off, it is refused.
    reusePort: false,
    ...(options.routes ? { routes: options.routes } : {}),
    fetch: (request, srv) => app.upgrade(request, srv) ?? app.handle(request),
    websocket: app.websocket,
  });
  useSocketServer(server);
  return server;
}
