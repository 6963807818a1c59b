/**
 * Where the server sends requests on a user's behalf (the API and gRPC clients, webhooks, cron
 * jobs' HTTP calls): public addresses only, unless NC_API_CLIENT_ALLOW_PRIVATE is on. A host name is resolved and every address it has is checked,
 * so a name that points at loopback, a private network, link-local (cloud metadata) or an unspecified
 * address is refused like the address itself (no server-side request forgery).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { badRequest, forbidden } from '../../lib/errors';

/** IPv4 ranges refused by default: [first address, prefix length, what it is]. */
const V4_BLOCKED: [string, number, string][] = [
  ['0.0.0.0', 8, 'an unspecified address'],
  ['10.0.0.0', 8, 'a private network address'],
  ['100.64.0.0', 10, 'a shared (carrier) network address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private network address'],
  ['192.0.0.0', 24, 'a reserved address'],
  ['192.168.0.0', 16, 'a private network address'],
  ['198.18.0.0', 15, 'a benchmarking network address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];

const v4Number = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);

/** Why an address may not be reached by default, or null when it is public. */
export function blockedReason(ip: string): string | null {
  if (isIP(ip) === 4) {
    const n = v4Number(ip);
    for (const [base, bits, what] of V4_BLOCKED) {
      const size = 2 ** (32 - bits);
      const start = v4Number(base);
      if (n >= start && n < start + size) return what;
    }
    return null;
  }
  const v6 = ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
  if (mapped) return blockedReason(mapped[1]!);
  if (v6 === '::' ) return 'an unspecified address';
  if (v6 === '::1') return 'a loopback address';
  if (/^fe[89ab]/.test(v6)) return 'a link-local address';
  if (/^f[cd]/.test(v6)) return 'a private network address';
  if (/^ff/.test(v6)) return 'a multicast address';
  return null;
}

/**
 * Resolves `host` and refuses (403) when any of its addresses is not public, unless `allowPrivate`.
 * Answers the first address. An unknown host is a 400.
 */
export async function assertReachable(host: string, allowPrivate: boolean): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(bare)) addresses = [bare];
  else {
    try {
      addresses = (await lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw badRequest(`The host '${host}' could not be found`);
    }
  }
  if (!allowPrivate) {
    for (const a of addresses) {
      const why = blockedReason(a);
      if (why) throw forbidden(`'${host}' is ${why} (${a}): the server does not send requests there unless NC_API_CLIENT_ALLOW_PRIVATE=1`);
    }
  }
  return addresses[0]!;
}

/**
 * Why the server may not send to `url` (its host is or resolves to a loopback, private, link-local
 * ... address), or null when it may. A host that cannot be resolved is left to the request itself,
 * which then fails to reach it. Webhooks and cron jobs check each request with it.
 */
export async function refusedTarget(url: string, allowPrivate: boolean): Promise<string | null> {
  if (allowPrivate) return null;
  try {
    await assertReachable(new URL(url).hostname, false);
    return null;
  } catch (e) {
    return (e as { status?: number }).status === 403 ? (e as Error).message : null;
  }
}
