/**
 * The React app as static routes for Bun.serve: Bun's HTML import bundles web/index.html (on the
 * fly in development, embedded in the compiled binary). Only `/` serves the page (routing is hash
 * based), with the security headers of every HTML answer (security-headers.ts): Bun serves an HTML
 * import's own route without a way to add headers, so the bundle is mounted under a path made at
 * random per process (which registers its scripts and styles as usual) and `/` answers the page
 * itself: from the embedded file in the binary, else read once from that path. Every other path
 * stays with the API, where unknown ones answer 404 `{msg}`.
 */
import index from '../../web/index.html';
import { randomToken } from '../lib/ids';
import { htmlResponse } from './security-headers';

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
  const page = (): Promise<string> => {
    const entry = (index as unknown as Bundle).files?.find((f) => f.loader === 'html' && f.isEntry);
    if (entry) return Bun.file(entry.path).text();
    return fetch(new URL(MOUNT, origin())).then((r) => r.text());
  };
  return {
    [MOUNT]: index,
    '/': async () => {
      if (fresh || !cached) cached = page();
      try {
        return htmlResponse(await cached);
      } catch {
        cached = null;
        return htmlResponse('<!doctype html><title>Tablo</title><p>The web app could not be loaded; reload the page.</p>', { status: 503 });
      }
    },
  } as const;
}
