/**
 * Request bodies read by Tablo itself: read with a byte limit, so a body sent in chunks (without
 * Content-Length) that grows past the limit answers 413 `{msg}` as soon as it does, instead of
 * being read whole or failing later with "Body already used"; JSON is refused (400) when nested
 * deeper than the limit, checked by one linear scan before it is parsed.
 */
import { AppError, badRequest } from '../lib/errors';
import { LIMITS } from '../config/limits';

/** The 413 of a body over the limit. */
export const tooLarge = (limit: number) => new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than the limit of ${limit} bytes`);

/** The body as text, refused with 413 once it passes `limit` bytes (400 when the client broke it off). */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  const length = request.headers.get('content-length');
  if (length !== null && Number(length) > limit) throw tooLarge(limit);
  if (!request.body) return '';
  // A declared length within the limit: the server reads no more than it, so the body is read whole at once.
  if (length !== null && !request.headers.has('transfer-encoding')) {
    try {
      return await request.text();
    } catch {
      throw badRequest('The request body could not be read');
    }
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        // not awaited: cancelling one branch of a copied (teed) body settles only when the other ends too
        reader.cancel().catch(() => {});
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    // Bun ends the stream of a body over its own limit (maxRequestBodySize) with an error.
    throw size > 0 && request.headers.get('content-length') === null ? tooLarge(limit) : badRequest('The request body could not be read');
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Whether JSON text nests arrays and objects deeper than `maxDepth` (strings skipped; linear). */
export function jsonTooDeep(text: string, maxDepth: number = LIMITS.jsonMaxDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > maxDepth) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** Parses a JSON body: 400 `{msg}` when it is nested too deep or is not JSON. */
export function parseJsonBody(text: string, maxDepth: number = LIMITS.jsonMaxDepth): unknown {
  if (text.trim() === '') return undefined;
  if (jsonTooDeep(text, maxDepth)) throw badRequest(`The JSON body is nested deeper than ${maxDepth} levels`);
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('The request body could not be parsed');
  }
}
