/**
 * The one place errors become answers: AppError -> its status and `{msg}`; framework errors
 * (unknown route, unparsable body, validation) -> 404/400 `{msg}`; anything else -> 500 `{msg}`
 * without details, logged with its stack. Also rejects bodies over the limit with 413 (chunked ones
 * while reading a copy), JSON nested too deep with 400, a path with a malformed % escape with 400,
 * and writes one log line per request with
 * secret tokens masked (log-mask.ts).
 */
import { Elysia } from 'elysia';
import { AppError, isAppError } from '../lib/errors';
import { errorCode } from '../lib/error-codes';
import type { Logger } from '../lib/log';
import { jsonTooDeep, readBodyText } from './body';
import { LIMITS } from '../config/limits';
import { maskedPath } from './log-mask';

/** JSON media types Tablo parses itself (bounded read, depth limit). */
const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\b/i;

/** `{msg}`, with the message's stable `code` when it has one (lib/error-codes.ts). */
const json = (status: number, msg: string, headers: Record<string, string> = {}) => {
  const code = errorCode(msg);
  return new Response(JSON.stringify(code ? { msg, code } : { msg }), { status, headers: { 'content-type': 'application/json', ...headers } });
};

/** Turns any thrown value into the `{msg}` answer of api-contract section 1. */
export function errorResponse(error: unknown, code: string | number | undefined, log: Logger, where: string): Response {
  if (isAppError(error)) {
    if (error.status >= 500 && error.status !== 503 && error.status !== 504) log.error(`internal error on ${where}`, (error as { cause?: unknown }).cause ?? error);
    return json(error.status, error.message, error.headers);
  }
  switch (code) {
    case 'NOT_FOUND':
      return json(404, 'Not found');
    case 'PARSE':
      return json(400, 'The request body could not be parsed');
    case 'VALIDATION': {
      const e = error as { message?: string; all?: { summary?: string; message?: string; path?: string }[] };
      const first = e.all?.[0];
      const detail = first?.summary ?? first?.message ?? 'Invalid request';
      return json(400, detail);
    }
    case 'INVALID_COOKIE_SIGNATURE':
      return json(400, 'Invalid cookie');
  }
  const status = (error as { status?: unknown })?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return json(status, (error as Error).message || 'Bad request');
  }
  log.error(`unhandled error on ${where}`, error);
  return json(500, 'Something went wrong on the server; it has been logged.');
}

const started = new WeakMap<Request, number>();

/** The answer to a path with a malformed percent escape. */
export const MSG_MALFORMED_ESCAPE = 'The URL holds a malformed escape (%)';

/**
 * Whether a URL's path holds a malformed percent escape (`%ZZ`, a cut UTF-8 sequence): the router
 * hands such a parameter on as null, which routes used as a token or a project id (500s, 'null').
 */
function malformedPath(url: string): boolean {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const end = url.indexOf('?', start);
  const path = end < 0 ? url.slice(start) : url.slice(start, end);
  if (!path.includes('%')) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/** Reads a copy of a body with the byte limit (and, for JSON, the depth limit): an answer when refused. */
async function checkBody(request: Request, limit: number): Promise<Response | undefined> {
  try {
    const text = await readBodyText(request.clone(), limit);
    if (JSON_TYPE.test(request.headers.get('content-type') ?? '') && jsonTooDeep(text)) {
      return json(400, `The JSON body is nested deeper than ${LIMITS.jsonMaxDepth} levels`);
    }
  } catch (e) {
    if (isAppError(e)) return json(e.status, e.message);
    throw e;
  }
  return undefined;
}
/** A multipart dashboard call (an upload). */
export const isUpload = (request: Request) =>
  request.method === 'POST' && (request.headers.get('content-type') ?? '').startsWith('multipart/form-data') && new URL(request.url).pathname === '/dashboard';

/**
 * A multipart upload of attachment files (`.../attachments/{column}` of the REST API or of a shared
 * form): its body may be as large as one file of the attachment limit, which may be set above the
 * body limit.
 */
export const isAttachmentUpload = (request: Request) =>
  request.method === 'POST' && (request.headers.get('content-type') ?? '').startsWith('multipart/form-data') && /\/attachments\/[^/]+\/?$/.test(new URL(request.url).pathname);

/** Room for the multipart framing around a file (boundaries, headers of the part). */
const MULTIPART_FRAMING_BYTES = 64 * 1024;

/** Error mapping, body limit and request log, applied to the whole app. */
export function errorEdge(opts: { log: Logger; bodyLimitBytes: number; attachmentMaxBytes?: number; logRequests: boolean }) {
  const { log, bodyLimitBytes, logRequests } = opts;
  const attachmentLimit = Math.max(bodyLimitBytes, (opts.attachmentMaxBytes ?? 0) + MULTIPART_FRAMING_BYTES);
  const tooLarge = (request: Request, limit: number) =>
    isAttachmentUpload(request)
      ? json(413, `The upload is larger than the limit of ${limit} bytes: a file may have up to ${opts.attachmentMaxBytes ?? limit} bytes (send large files one per request)`)
      : json(413, `The request body is larger than the limit of ${limit} bytes`);
  const edge = new Elysia({ name: 'error-edge' })
    .onRequest(async ({ request }) => {
      if (logRequests) started.set(request, performance.now());
      if (request.url.includes('%') && malformedPath(request.url)) return json(400, MSG_MALFORMED_ESCAPE);
      const length = request.headers.get('content-length');
      // Multipart dashboard calls (imports) stream to disk: they have a limit of their own.
      const limit = isUpload(request) ? LIMITS.importMaxBytes : isAttachmentUpload(request) ? attachmentLimit : bodyLimitBytes;
      if (length !== null && Number(length) > limit) return tooLarge(request, limit);
      // Chunked bodies (no Content-Length) and JSON bodies are read on a copy before any route reads
      // them: over the limit answers 413 here, JSON nested too deep 400; the route reads the original.
      if (request.body && !isUpload(request) && (length === null || JSON_TYPE.test(request.headers.get('content-type') ?? ''))) {
        const refused = await checkBody(request, limit);
        return refused?.status === 413 ? tooLarge(request, limit) : refused;
      }
    })

    .onError({ as: 'global' }, ({ error, code, request, set }) => {
      // The client went away (e.g. a load generator stopping): nothing to answer or report.
      if (request.signal.aborted) return new Response(null, { status: 499 });
      const url = new URL(request.url);
      const res = errorResponse(error, code, log, `${request.method} ${maskedPath(url.pathname)}`);
      set.status = res.status;
      return res;
    });
  // The request log hook only when it writes: an after-response hook costs on every request.
  if (!logRequests) return edge;
  return edge.onAfterResponse({ as: 'global' }, ({ request, set, response }) => {
    const t0 = started.get(request);
    const ms = t0 === undefined ? 0 : performance.now() - t0;
    const url = new URL(request.url);
    const status = response instanceof Response ? response.status : (set.status ?? 200);
    log.info(`${request.method} ${maskedPath(url.pathname)} ${status} ${ms.toFixed(1)}ms`);
  });
}

export { AppError };
