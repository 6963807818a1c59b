/**
 * Where the server is, seen from the page. Tablo may be served under a path (a reverse proxy maps
 * https://corp.example/tablo/ to its root), so every call, socket, download and link is made from
 * the directory the page was served from, never from the host's root: `appUrl('/auth/signin')` is
 * https://corp.example/tablo/auth/signin there, and http://host:8080/auth/signin at the root.
 * Routes are hash based, so the page's own address never changes its directory.
 */

/** The page's address: the document's base URI (outside a document, the window's location). */
const page = (): string => globalThis.document?.baseURI ?? window.location.href;

/** The directory the page was served from, e.g. `https://corp.example/tablo/`. */
export function appBase(base: string = page()): string {
  return new URL('./', base).href;
}

/** The absolute URL of a server path ('/auth/signin') under the page's directory. */
export function appUrl(path: string, base: string = page()): string {
  return new URL(path.replace(/^\/+/, ''), appBase(base)).href;
}

/** The websocket URL (ws: or wss:) of a server path under the page's directory. */
export function appSocketUrl(path: string, base: string = page()): string {
  const url = new URL(appUrl(path, base));
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

/**
 * A link the server handed over (a file link, a picture, an endpoint): an absolute URL as it is; a
 * server path that already starts with the page's directory (the server knows its public path from
 * NC_PUBLIC_URL) on the page's origin as it is; any other server path under the page's directory.
 */
export function serverLink(link: string, base: string = page()): string {
  if (/^[a-z][a-z\d+.-]*:/i.test(link) || link.startsWith('//')) return link;
  const dir = new URL(appBase(base));
  if (link.startsWith(dir.pathname) && dir.pathname !== '/') return new URL(link, dir.origin).href;
  return appUrl(link, base);
}
