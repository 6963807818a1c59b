/**
 * Requests whose address and headers are too large for Tablo (LIMITS.requestHeadMaxBytes) answer
 * with `{msg}`: 414 when the address alone is (a long `where`, say), 431 when the headers are. Bun's
 * own parser answers a head past --max-http-header-size with 431 and an empty body before any of
 * Tablo's code runs; the binary and `bun run start` raise that (LIMITS.httpParserMaxHeaderBytes), so
 * every head between the two limits is answered here, in words.
 */
import { LIMITS } from '../config/limits';

const answer = (status: number, msg: string) => new Response(JSON.stringify({ msg }), { status, headers: { 'content-type': 'application/json' } });

/** The answer to a request whose head is too large, or null for every other request. */
export function requestHeadRefusal(request: Request, max = LIMITS.requestHeadMaxBytes): Response | null {
  const address = request.url.length;
  if (address > max) {
    return answer(414, `The request's address is too long: ${address} bytes, at most ${max}. Shorten the filter (where), or send it in the body of a GraphQL query`);
  }
  let size = address;
  // toJSON: one object, half the time of iterating [name, value] pairs (a `set-cookie` comes as a list).
  const headers = request.headers.toJSON() as Record<string, string | string[]>;
  for (const name in headers) {
    const value = headers[name]!;
    size += name.length + (typeof value === 'string' ? value.length : value.join(', ').length) + 4;
  }
  if (size <= max) return null;
  return answer(431, `The request's headers are too large: ${size} bytes with the address, at most ${max}`);
}
