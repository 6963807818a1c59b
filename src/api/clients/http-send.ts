/**
 * The API client's requests to other hosts, sent by the server: only public addresses (see
 * address-guard.ts), no redirects followed (a redirect could lead to a private address), a time
 * limit and a cap on the answer kept. Requests to the project's own API go from the browser.
 */
import { z } from 'zod';
import { LIMITS } from '../../config/limits';
import { badGateway, badRequest } from '../../lib/errors';
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
  body: string;
  size: number;
  truncated: boolean;
  timeMs: number;
}

/** Sends one request for the API client; 400 bad URL, 403 refused address, 502 unreachable or failed, 504 time-out. */
export async function sendForClient(a: SendArgs, allowPrivate: boolean): Promise<SentResponse> {
  let url: URL;
  try {
    url = new URL(a.url);
  } catch {
    throw badRequest(`'${a.url}' is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(`Only http and https URLs can be sent (not ${url.protocol})`);
  await assertReachable(url.hostname, allowPrivate);
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(url, {
      method: a.method,
      headers: a.headers,
      body: a.method === 'GET' || a.method === 'HEAD' ? undefined : a.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(LIMITS.apiClientTimeoutMs),
    });
  } catch (e) {
    const err = e as Error & { code?: string };
    if (err.name === 'TimeoutError') throw badGateway(`${url.host} did not answer within ${LIMITS.apiClientTimeoutMs / 1000} s`);
    const tls = /certificate|ssl|tls/i.test(`${err.code ?? ''} ${err.message}`);
    throw badGateway(`${tls ? 'TLS failure with' : 'Could not reach'} ${url.host}: ${err.message}`);
  }
  // The answer, read up to the cap.
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
  const body = new TextDecoder().decode(Buffer.concat(chunks));
  return { status: res.status, statusText: res.statusText, headers: [...res.headers.entries()], body, size, truncated, timeMs: Math.round(performance.now() - started) };
}
