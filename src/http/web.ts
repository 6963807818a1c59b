/**
 * The React app as static routes for Bun.serve: Bun's HTML import bundles web/index.html (on the
 * fly in development, embedded in the compiled binary). Only `/` serves it (routing is hash
 * based); every other path stays with the API, where unknown ones answer 404 `{msg}`.
 */
import index from '../../web/index.html';

/** Static routes for Bun.serve: `/` is the app; its bundled assets register themselves. */
export const WEB_ROUTES = { '/': index } as const;
