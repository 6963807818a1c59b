/**
 * A short road for the REST writes integrations send most: `POST /nc/{projectId}/api/v1/{Table}`
 * (create), `PUT` and `DELETE .../{Table}/{id}` (update, delete one row) and `POST`, `PUT`, `DELETE`
 * `.../{Table}/bulk`, answered before the router and its hooks, the body read once (the routes read
 * it twice: a bounded copy for the limits, then the router's own parse).
 *
 * It takes only requests it can answer exactly as the routes do: plain path segments, no query string,
 * a body of type `application/json` (read with the same byte and depth limits; a delete of one row:
 * no body), and a caller held in the caches (a session or an API token). Everything else goes to the routes untouched.
 * Once taken, a write is never handed on (it is not safe to run twice): its errors become the same
 * `{msg}` answers the routes give (http/error-edge.ts).
 */
import type { AppContext } from '../../context';
import type { Logger } from '../../lib/log';
import * as data from '../../data/records-service';
import { cachedDataContext } from './context';
import { createWithUploads } from '../../attachments/form-uploads';
import { bulkCreateWithFiles, bulkUpdateWithFiles, updateWithFiles } from '../../attachments/file-writes';
import { OWN_ROUTES } from './fast-path';
import { errorResponse } from '../../http/error-edge';
import { badRequest } from '../../lib/errors';
import { parseJsonBody, readBodyText } from '../../http/body';
import { LIMITS } from '../../config/limits';
import { maskedPath } from '../../http/log-mask';
import type { DataContext } from '../../data/data-context';
import type { TableModel } from '../../schema/model';

/** `/nc/{projectId}/api/v1/{Table}` with an optional `/{id}` (or `/bulk`), all plain segments, no query. */
const PATH = /^https?:\/\/[^/]+\/nc\/([\w-]+)\/api\/v1\/(\w+)(?:\/([\w-]+))?$/;
/** The JSON media type (other types, `+json` ones included, go to the routes). */
const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

type Write = (dc: DataContext, t: TableModel, id: string | undefined, body: unknown) => Promise<unknown>;

/** The write a method and path ask for, or undefined when the routes must answer. */
function writeOf(ctx: AppContext, method: string, id: string | undefined): Write | undefined {
  if (id === 'bulk') {
    if (method === 'POST') return (dc, t, _id, body) => bulkCreateWithFiles(ctx, dc, t, body);
    if (method === 'PUT') return (dc, t, _id, body) => bulkUpdateWithFiles(ctx, dc, t, body);
    if (method === 'DELETE') return (dc, t, _id, body) => data.bulkDelete(dc, t, body);
    return undefined;
  }
  if (id === undefined) return method === 'POST' ? (dc, t, _id, body) => createWithUploads(ctx, dc, t, body) : undefined;
  if (OWN_ROUTES.has(id)) return undefined;
  if (method === 'PUT') return (dc, t, rowId, body) => updateWithFiles(ctx, dc, t, rowId!, body);
  if (method === 'DELETE') return (dc, t, rowId) => data.remove(dc, t, rowId!);
  return undefined;
}

/** The answer to a write's result, as the router makes it (objects as JSON, numbers as text). */
const answerOf = (value: unknown): Response => (typeof value === 'number' ? new Response(String(value)) : Response.json(value));

/** The fast write path of an app: the answer to `request`, or undefined when the routes take it as it is. */
export type FastWrite = (request: Request) => Promise<Response> | undefined;

/** Builds the REST fast write path; with `logRequests`, it writes the same request line as the app. */
export function fastWrite(ctx: AppContext, log: Logger, logRequests: boolean): FastWrite {
  const limit = LIMITS.bodyLimitBytes;
  return (request) => {
    const method = request.method;
    if (method !== 'POST' && method !== 'PUT' && method !== 'DELETE') return undefined;
    const m = PATH.exec(request.url);
    if (!m) return undefined;
    const [, projectId, table, id] = m as unknown as [string, string, string, string | undefined];
    const write = writeOf(ctx, method, id);
    if (!write) return undefined;
    const withBody = !(method === 'DELETE' && id !== 'bulk');
    // A JSON body (read below with the byte limit: 413 past it, as the routes), and none on a delete of one row.
    if (withBody ? !JSON_TYPE.test(request.headers.get('content-type') ?? '') : request.body !== null) return undefined;
    const dc = cachedDataContext(ctx, request, projectId);
    if (!dc) return undefined;
    const t = dc.pdb.table(table);
    if (!t) return undefined;
    return run(dc, t, write, id, request, withBody);
  };

  async function run(dc: DataContext, t: TableModel, write: Write, id: string | undefined, request: Request, withBody: boolean): Promise<Response> {
    const t0 = logRequests ? performance.now() : 0;
    const where = () => `${request.method} ${maskedPath(new URL(request.url).pathname)}`;
    let res: Response;
    try {
      const body = withBody ? parsed(await readBodyText(request, limit)) : undefined;
      res = answerOf(await write(dc, t, id, body));
    } catch (e) {
      // The client went away: nothing to answer or report (as the routes).
      if (request.signal.aborted) return new Response(null, { status: 499 });
      res = errorResponse(e, undefined, log, where());
    }
    if (logRequests) log.info(`${where()} ${res.status} ${(performance.now() - t0).toFixed(1)}ms`);
    return res;
  }
}

/** A JSON body as the routes read it: 400 when nested too deep, not JSON, or empty (the router's parse refuses an empty JSON body). */
function parsed(text: string): unknown {
  const value = parseJsonBody(text);
  if (value === undefined) throw badRequest('The request body could not be parsed');
  return value;
}
