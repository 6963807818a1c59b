/**
 * The React app as static routes for Bun.serve: Bun's HTML import bundles web/index.html (on the
 * fly in development, embedded in the compiled binary). Only `/` serves the page (routing is hash
 * based), with the security headers of every HTML answer (security-headers.ts): Bun serves an HTML
 * import's own route without a way to add headers, so the bundle is mounted under a path made at
 * random per process (which registers its scripts and styles as usual) and `/` answers the page
 * itself: from the embedded file in the binary, else read once from that path, with its files
 * addressed relative to it (so that it works under a proxy's path prefix). Every other path
 * stays with the API, where unknown ones answer 404 `{msg}`.
 */
import index from '../../web/index.html';
import { randomToken } from '../lib/ids';
import { htmlResponse } from './security-headers';
import { relativeAssets } from './path-prefix';

type Bundle = { index: string; files?: { path: string; loader: string; isEntry: boolean }[] };

/** Where the bundle is mounted (unknown outside this process). */
const MOUNT = `/_tablo_app_${randomToken(12).replace(/[^\w]/g, '')}`;

/**
 * Static routes for Bun.serve: `/` is the app with its security headers. `origin` gives the
 * server's own URL (used in development, where the page is bundled on the fly); with `fresh`
 * (development) the page is read again at every request.
 */
export function webRoutes(origin: () => string, fresh = false) {
  let cached: Promise<string> | null = null;
  const page = async (): Promise<string> => {
    const entry = (index as unknown as Bundle).files?.find((f) => f.loader === 'html' && f.isEntry);
    if (entry) return relativeAssets(await Bun.file(entry.path).text());
    return relativeAssets(await fetch(new URL(MOUNT, origin())).then((r) => r.text()));
  };
  const home = async () => {
    if (fresh || !cached) cached = page();
    try {
      return htmlResponse(await cached);
    } catch {
      cached = null;
      return htmlResponse('<!doctype html><title>Tablo</title><p>The web app could not be loaded; reload the page.</p>', { status: 503 });
    }
  };
  return { [MOUNT]: index, '/': home } as const;
}

/**
 * The web app's answer to a GET of `path` that reached the server under NC_PUBLIC_URL's path
 * (path-prefix.ts), where Bun's static routes are not consulted: the page at `/`, the bundle's
 * files by name (embedded in the binary; in development read from the server's own /_bun/ routes).
 * null for any other path, which the API answers.
 */
export function webAnswer(routes: ReturnType<typeof webRoutes>, origin: () => string, request: Request, path: string): Promise<Response> | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  if (path === '/') return routes['/']();
  const files = (index as unknown as Bundle).files;
  // In development Bun serves the bundle on the fly under /_bun/.
  if (!files && /^\/_bun\/[\w/.-]+$/.test(path)) return fetch(new URL(path, origin())).then((r) => (r.ok ? r : new Response(null, { status: 404 })));
  if (!files || !/^\/[\w.-]+\.(js|css|map|svg|png|woff2?)$/.test(path)) return null;
  const file = files.find((f) => !f.isEntry && f.path.endsWith(path)) ?? files.find((f) => f.path.endsWith(path));
  return file ? Promise.resolve(new Response(Bun.file(file.path), { headers: { 'cache-control': 'public, max-age=31536000, immutable' } })) : null;
}
