/**
 * serveApp(app, options): Bun.serve with the app's request handler and its websockets on one port.
 * main.ts passes the web app's static routes and NC_PUBLIC_URL's path; tests serve the API alone on port 0.
 */
import type { Server } from 'bun';
import type { SocketData, Sockets } from './sockets';
import { useSocketServer } from './principal';
import { stripPathPrefix } from './path-prefix';

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
  /**
   * NC_PUBLIC_URL's path ('/tablo', '' or absent at the root): requests under it are routed as
   * without it (path-prefix.ts), for a reverse proxy that does not take it off.
   */
  pathPrefix?: string;
  /** What the static routes answer to a request that came under pathPrefix (null: the app answers). */
  prefixedStatic?: (request: Request, path: string) => Promise<Response> | null;
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
    fetch: (request, srv) => {
      const under = options.pathPrefix ? stripPathPrefix(request, options.pathPrefix) : null;
      if (!under) return app.upgrade(request, srv) ?? app.handle(request);
      if ('redirect' in under) return under.redirect;
      return app.upgrade(request, srv, under.path) ?? options.prefixedStatic?.(under.request, under.path) ?? app.handle(under.request);
    },
    websocket: app.websocket,
  });
  useSocketServer(server);
  return server;
}
