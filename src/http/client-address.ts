/**
 * Where a request comes from: the socket's address, or, when that socket is a reverse proxy named
 * in NC_TRUSTED_PROXIES, the client address the proxy reports in X-Forwarded-For (read from the
 * right, skipping further trusted proxies), the scheme it reports in X-Forwarded-Proto, the host it
 * was asked for in X-Forwarded-Host and the path it serves Tablo under in X-Forwarded-Prefix
 * (link-base.ts). A
 * request that does not come from a trusted proxy is judged by its socket alone, so a client
 * cannot choose its own address for rate limits or the audit log by sending the header.
 */
import type { Config } from '../config/config';

type SocketServer = { requestIP(r: Request): { address: string } | null };

/**
 * The server whose sockets requests arrive on: asked for a request's address only when one is
 * needed (sign-in, audit), instead of recording every request's address up front.
 */
let socketServer: SocketServer | null = null;
/** Records the listening server (main.ts). */
export function useSocketServer(server: SocketServer | null): void {
  socketServer = server;
}

/** `::ffff:10.0.0.1` -> `10.0.0.1`; other addresses lower-cased. */
const normalise = (ip: string) => {
  const a = ip.trim().toLowerCase();
  return a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a;
};

const ipv4 = (ip: string): number | null => {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return null;
    n = n * 256 + Number(p);
  }
  return n;
};

/** Whether `ip` is one of the trusted proxies (addresses, or IPv4 CIDR ranges such as 10.0.0.0/8). */
export function isTrustedProxy(ip: string, trusted: readonly string[]): boolean {
  const a = normalise(ip);
  for (const entry of trusted) {
    const [base, bits] = entry.split('/');
    if (bits === undefined) {
      if (normalise(base!) === a) return true;
      continue;
    }
    const x = ipv4(a);
    const y = ipv4(normalise(base!));
    const n = Number(bits);
    if (x === null || y === null || !(n >= 0 && n <= 32)) continue;
    const mask = n === 0 ? 0 : (0xffffffff << (32 - n)) >>> 0;
    if (((x & mask) >>> 0) === ((y & mask) >>> 0)) return true;
  }
  return false;
}

/** Copies of requests made by the server itself (path-prefix.ts), with the request that came on the socket. */
const originals = new WeakMap<Request, Request>();
/** Records that `copy` stands for `original` (whose socket the server knows). */
export function rewroteRequest(copy: Request, original: Request): void {
  originals.set(copy, originals.get(original) ?? original);
}

/** The socket address of a request ('unknown' in-process, where there is no socket). */
export function socketAddress(request: Request, server?: SocketServer | null): string {
  const came = originals.get(request) ?? request;
  return server?.requestIP(came)?.address ?? socketServer?.requestIP(came)?.address ?? 'unknown';
}

/** Whether the request passed through a trusted proxy (its socket is one). */
export const viaTrustedProxy = (config: Config, request: Request, server?: SocketServer | null) =>
  config.trustedProxies.length > 0 && isTrustedProxy(socketAddress(request, server), config.trustedProxies);

/** The client's address: X-Forwarded-For only when the socket is a trusted proxy, else the socket. */
export function clientAddress(config: Config, request: Request, server?: SocketServer | null): string {
  const socket = socketAddress(request, server);
  if (!viaTrustedProxy(config, request, server)) return socket;
  const fwd = request.headers.get('x-forwarded-for');
  if (!fwd) return socket;
  const hops = fwd.split(',').map((h) => h.trim()).filter(Boolean);
  // From the right: the nearest hop the trusted proxies saw that is not one of them is the client.
  for (let i = hops.length - 1; i >= 0; i--) if (!isTrustedProxy(hops[i]!, config.trustedProxies)) return normalise(hops[i]!);
  return hops[0] ? normalise(hops[0]) : socket;
}

/** Whether the request reached Tablo over HTTPS: directly, or through a trusted proxy that says so. */
export function cameOverHttps(config: Config, request: Request, server?: SocketServer | null): boolean {
  if (request.url.startsWith('https:')) return true;
  if (!viaTrustedProxy(config, request, server)) return false;
  return request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https';
}

/**
 * The host the client asked for: X-Forwarded-Host when a trusted proxy reports it (a proxy may pass
 * its own upstream address as Host), else the Host header.
 */
export function requestedHost(config: Config, request: Request, server?: SocketServer | null): string | null {
  const forwarded = viaTrustedProxy(config, request, server) ? request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  return forwarded || request.headers.get('host');
}

/** Whether a browser's Origin is this server as the client reached it (its host), or NC_PUBLIC_URL. */
export function isOwnOrigin(config: Config, request: Request, origin: string, server?: SocketServer | null): boolean {
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  if (host === request.headers.get('host') || host === requestedHost(config, request, server)) return true;
  return !!config.publicUrl && new URL(config.publicUrl).host === host;
}
