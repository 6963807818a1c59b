/**
 * The API client's requests to other hosts, sent by the server: only public addresses (see
 * address-guard.ts), no redirects followed (a redirect could lead to a private address), a time
 * limit and a cap on the answer kept. Requests to the project's own API go from the browser.
 */
import { z } from 'zod';
import { LIMITS } from '../../config/limits';
import { badGateway, badRequest, timeout } from '../../lib/errors';
import { assertReachable } from './address-guard';

export const SendArgs = z.object({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']),
  url: z.string().min(1).max(8000),
  headers: z.record(z.string(), z.string()).default({}),
  body: z.string().max(LIMITS.apiClientMaxBytes).optional(),
});
export type SendArgs = z.infer<typeof SendArgs>;

/** What the client shows of an answer. */
export interface SentResponse {
  status: number;
  statusText: string;
  headers: [string, string][];
  /** The body as text, or base64 when `binary`. */
  body: string;
  /** True when the body is not text (an image, a PDF, bytes that are not UTF-8): `body` holds it in base64. */
  binary: boolean;
  size: number;
  truncated: boolean;
  timeMs: number;
}

/** Media types whose bodies are text whatever their charset says. */
const TEXT_TYPE = /^text\/|[/+](json|xml|javascript|ecmascript|x-www-form-urlencoded|csv|yaml|x-yaml|graphql|x-ndjson)\b/i;

/**
 * Whether a body is shown as text: a textual media type, or none at all, and bytes that read as
 * UTF-8 (a body cut off at the cap may end inside a character: that last character is let go).
 */
export function isTextBody(contentType: string | null, bytes: Uint8Array, truncated = false): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim();
  if (type && !TEXT_TYPE.test(type)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(truncated ? bytes.subarray(0, Math.max(0, bytes.length - 3)) : bytes);
    return true;
  } catch {
    return false;
  }
}

/** A header name HTTP allows (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header value HTTP can carry: one line of Latin-1 characters. */
export const HEADER_VALUE = /^[^\0\r\n\u0100-\uffff]*$/;

/** Refuses (400) a header that no request can carry, before anything is sent. */
function checkHeaders(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw badRequest(`'${name}' is not a valid header name: use letters, digits and - _ . only, without spaces`);
    if (!HEADER_VALUE.test(value)) throw badRequest(`The value of header '${name}' cannot be sent: a header holds one line of Latin-1 characters`);
  }
}

/** Sends one request for the API client; 400 bad URL or header, 403 refused address, 502 unreachable or failed, 504 time-out. */
export async function sendForClient(a: SendArgs, allowPrivate: boolean): Promise<SentResponse> {
  let url: URL;
  try {
    url = new URL(a.url);
  } catch {
    throw badRequest(`'${a.url}' is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(`Only http and https URLs can be sent (not ${url.protocol})`);
  checkHeaders(a.headers);
  await assertReachable(url.hostname, allowPrivate);
  const started = performance.now();
  const limitS = LIMITS.apiClientTimeoutMs / 1000;
  let res: Response;
  try {
    res = await fetch(url, {
      method: a.method,
      headers: a.headers,
      body: a.method === 'GET' || a.method === 'HEAD' ? undefined : a.body,
      redirect: 'manual',
      // The limit covers the whole answer, its body included.
      signal: AbortSignal.timeout(LIMITS.apiClientTimeoutMs),
    });
  } catch (e) {
    const err = e as Error & { code?: string };
    if (err.name === 'TimeoutError') throw timeout(`${url.host} did not answer within ${limitS} s`);
    const tls = /certificate|ssl|tls/i.test(`${err.code ?? ''} ${err.message}`);
    throw badGateway(`${tls ? 'TLS failure with' : 'Could not reach'} ${url.host}: ${err.message}`);
  }
  try {
    return await readAnswer(res, started);
  } catch (e) {
    const err = e as Error;
    if (err.name === 'TimeoutError') throw timeout(`${url.host} did not finish its answer within ${limitS} s`);
    throw badGateway(`${url.host} broke off its answer: ${err.message}`);
  }
}

/** The answer, its body read up to the cap. */
async function readAnswer(res: Response, started: number): Promise<SentResponse> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.length > LIMITS.apiClientMaxBytes) {
        chunks.push(value.subarray(0, LIMITS.apiClientMaxBytes - size));
        size = LIMITS.apiClientMaxBytes;
        truncated = true;
        await reader.cancel().catch(() => {});
        break;
      }
      chunks.push(value);
      size += value.length;
    }
  }
  const bytes = Buffer.concat(chunks);
  const binary = !isTextBody(res.headers.get('content-type'), bytes, truncated);
  const body = binary ? bytes.toString('base64') : new TextDecoder().decode(bytes);
  return { status: res.status, statusText: res.statusText, headers: [...res.headers.entries()], body, binary, size, truncated, timeMs: Math.round(performance.now() - started) };
}
