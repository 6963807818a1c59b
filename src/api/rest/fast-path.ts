/**
 * A short road for the most common REST reads: `GET /nc/{projectId}/api/v1/{Table}` (list) and
 * `GET .../{Table}/{id}` (read one row), answered before the router, its hooks and its query and
 * response handling. It takes only plain requests: a path of word characters, a query of distinct
 * `key=value` pairs without escapes, no body, and a caller held in the caches (a session or an API
 * token; the data core applies the caller's rights as on every road). Everything else, and any read that fails (unknown table, bad parameter, missing
 * row), goes to the normal routes, which answer as they always do; a read changes nothing, so
 * running it again there is harmless. What a URL asks is remembered for the next request of the
 * same URL (a bounded map), parameters included.
 */
import type { AppContext } from '../../context';
import type { Logger } from '../../lib/log';
import * as data from '../../data/records-service';
import type { Params } from '../../data/list-query';
import { cachedDataContext } from './context';
import type { DataContext } from '../../data/data-context';
import type { TableModel } from '../../schema/model';

/** `/nc/{projectId}/api/v1/{Table}` with an optional `/{id}`, all plain segments. */
const PATH = /^\/nc\/([\w-]+)\/api\/v1\/(\w+)(?:\/([\w-]+))?$/;
/** One plain `key=value` pair (no escapes, no `+`, no brackets). */
const PAIR = /^([A-Za-z]\w*)=([\w.,()~:-]*)$/;
/** Second segments that are routes of their own, not row ids. */
export const OWN_ROUTES = new Set(['findOne', 'count', 'groupby', 'aggregate', 'distinct', 'distribute', 'bulk']);

/** The query parameters of a plain query string, or null when the routes must parse it. */
function plainQuery(search: string): Params | null {
  const params: Record<string, string> = {};
  if (search === '') return params;
  for (const pair of search.split('&')) {
    const m = PAIR.exec(pair);
    // `view=` reads a saved view from the metadata: the routes resolve it.
    if (!m || m[1]! in params || m[1] === 'view') return null;
    params[m[1]!] = m[2]!;
  }
  return params;
}

/** The fast path of an app: the answer to `request`, or undefined when the routes take it as it is; a read that fails goes to `routed`. */
export type FastRest = (request: Request, routed: (request: Request) => Promise<Response>) => Promise<Response> | undefined;

/** A plain read as its URL asks it: the parameters frozen, so the read plans remember their key. */
interface PlainRead {
  path: string;
  projectId: string;
  table: string;
  id: string | undefined;
  params: Params;
}

/** URLs read lately, with what they ask (null: not a plain read). */
const READS_MAX = 1_000;

/** What a URL asks, or null when it is not a plain read (see the file's comment). */
function parseRead(url: string): PlainRead | null {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return null;
  const mark = url.indexOf('?', start);
  const path = mark < 0 ? url.slice(start) : url.slice(start, mark);
  const m = PATH.exec(path);
  if (!m) return null;
  const [, projectId, table, id] = m as unknown as [string, string, string, string | undefined];
  if (id !== undefined && OWN_ROUTES.has(id)) return null;
  const params = plainQuery(mark < 0 ? '' : url.slice(mark + 1));
  return params ? { path, projectId, table, id, params: Object.freeze(params) } : null;
}

/** Builds the REST fast path; with `logRequests`, it writes the same request line as the app. */
export function fastRest(ctx: AppContext, log: Logger, logRequests: boolean): FastRest {
  const reads = new Map<string, PlainRead | null>();
  return (request, routed) => {
    if (request.method !== 'GET' || request.headers.has('content-length')) return undefined;
    const url = request.url;
    let read = reads.get(url);
    if (read === undefined) {
      read = parseRead(url);
      if (reads.size >= READS_MAX) reads.delete(reads.keys().next().value!);
      reads.set(url, read);
    }
    if (!read) return undefined;
    const dc = cachedDataContext(ctx, request, read.projectId);
    if (!dc) return undefined;
    const t = dc.pdb.table(read.table);
    if (!t) return undefined;
    return answer(dc, t, read.id, read.params, request, routed, read.path);
  };

  /** One promise for the read and its answer (the routes answer a read that fails, with its error). */
  async function answer(dc: DataContext, t: TableModel, id: string | undefined, params: Params, request: Request, routed: (request: Request) => Promise<Response>, path: string): Promise<Response> {
    const t0 = logRequests ? performance.now() : 0;
    let value: unknown;
    try {
      value = await (id === undefined ? data.list(dc, t, params) : data.read(dc, t, id, params));
    } catch {
      return routed(request);
    }
    if (logRequests) log.info(`GET ${path} 200 ${(performance.now() - t0).toFixed(1)}ms`);
    return Response.json(value);
  }
}
