/**
 * The generated REST API of api-contract section 2, under /nc/{projectId}/api/v1/{Table}: thin
 * handlers that parse the request and call the data-access core.
 */
import { Elysia } from 'elysia';
import type { AppContext } from '../../context';
import * as data from '../../data/records-service';
import type { Params } from '../../data/list-query';
import { cachedDataContext, dataContext, tableByName } from './context';
import { badRequest } from '../../lib/errors';
import { createWithUploads } from '../../attachments/form-uploads';
import { bulkCreateWithFiles, bulkUpdateWithFiles, updateWithFiles } from '../../attachments/file-writes';

/**
 * A path segment as the router decoded it (once): row ids, relation and table names are used as
 * they arrive, never decoded a second time (`1%25` is the id `1%`). A malformed escape reaches us
 * as null and answers 400.
 */
const seg = (v: string | null | undefined): string => {
  if (typeof v !== 'string') throw badRequest('The URL holds a malformed escape (%)');
  return v;
};
import { withView } from '../views/rest-view';

/** The types a write's body is read from (JSON, and the forms and uploads of attachments). */
const BODY_TYPE = /^(?:application\/(?:[\w.+-]*\+)?json|application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/**
 * A write's parsed body. One sent as another type (a JSON text with `text/plain`, which `fetch` sends
 * for a string body) reaches the route as text or as no body, and was answered "must be a JSON object": said as it is.
 */
const bodyOf = (request: Request, body: unknown): unknown => {
  if (body !== undefined && typeof body !== 'string') return body;
  const sent = body !== undefined || request.body !== null || Number(request.headers.get('content-length') ?? 0) > 0;
  if (sent && !BODY_TYPE.test(request.headers.get('content-type') ?? '')) throw badRequest('The body was not sent as JSON: send it with Content-Type: application/json');
  return body;
};

type Q = Record<string, string | undefined>;

export function restRoutes(ctx: AppContext) {
  /** Resolves the caller, the project database and the table (without awaiting when all is cached), then runs `fn`. */
  const withTable = <T>(request: Request, projectId: string, table: string, fn: (dc: data.DataContext, t: ReturnType<typeof tableByName>) => Promise<T>): Promise<T> => {
    const now = cachedDataContext(ctx, request, projectId);
    if (now) return fn(now, tableByName(now.pdb, table));
    return dataContext(ctx, request, projectId).then((dc) => fn(dc, tableByName(dc.pdb, table)));
  };
  const q = (query: unknown) => query as Params & Q;

  return new Elysia({ name: 'rest', prefix: '/nc/:projectId/api/v1' })
    .get('/:table', ({ request, params, query }) => withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'list', (p) => data.list(dc, t, p))))
    .post('/:table', ({ request, params, body }) => withTable(request, params.projectId, params.table, (dc, t) => createWithUploads(ctx, dc, t, bodyOf(request, body))))
    .get('/:table/findOne', ({ request, params, query }) => withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'list', (p) => data.findOne(dc, t, p))))
    .get('/:table/count', ({ request, params, query }) => withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'filter', (p) => data.count(dc, t, p))))
    .get('/:table/groupby', ({ request, params, query }) => withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'filter', (p) => data.groupBy(dc, t, p))))
    .get('/:table/groupby/:column', ({ request, params, query }) =>
      withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'filter', (p) => data.groupBy(dc, t, p, seg(params.column)))),
    )
    .get('/:table/aggregate', ({ request, params, query }) => withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'filter', (p) => data.aggregate(dc, t, p))))
    .get('/:table/distinct', ({ request, params, query }) => withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'filter', (p) => data.distinct(dc, t, p))))
    .get('/:table/distribute', ({ request, params, query }) => withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'filter', (p) => data.distribute(dc, t, p))))
    .get('/:table/m2mNotChildren/:assoc/:parentId', ({ request, params, query }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.m2mNotChildren(dc, t, seg(params.assoc), seg(params.parentId), q(query))),
    )
    .post('/:table/bulk', ({ request, params, body }) => withTable(request, params.projectId, params.table, (dc, t) => bulkCreateWithFiles(ctx, dc, t, bodyOf(request, body))))
    .put('/:table/bulk', ({ request, params, body }) => withTable(request, params.projectId, params.table, (dc, t) => bulkUpdateWithFiles(ctx, dc, t, bodyOf(request, body))))
    .delete('/:table/bulk', ({ request, params, body }) => withTable(request, params.projectId, params.table, (dc, t) => data.bulkDelete(dc, t, bodyOf(request, body))))
    .get('/:table/has/:child', ({ request, params, query }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.listWithRelation(dc, t, 'hm', seg(params.child), q(query))),
    )
    .get('/:table/belongs/:child', ({ request, params, query }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.listWithRelation(dc, t, 'bt', seg(params.child), q(query))),
    )
    .get('/:table/:id', ({ request, params, query }) => withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'read', (p) => data.read(dc, t, seg(params.id), p))))
    .get('/:table/:id/exists', ({ request, params }) => withTable(request, params.projectId, params.table, (dc, t) => data.exists(dc, t, seg(params.id))))
    .put('/:table/:id', ({ request, params, body }) => withTable(request, params.projectId, params.table, (dc, t) => updateWithFiles(ctx, dc, t, seg(params.id), bodyOf(request, body))))
    .delete('/:table/:id', ({ request, params }) => withTable(request, params.projectId, params.table, (dc, t) => data.remove(dc, t, seg(params.id))))
    .get('/:table/:id/:child', ({ request, params, query }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.listChildren(dc, t, seg(params.id), seg(params.child), q(query))),
    )
    .post('/:table/:id/:child', ({ request, params, body }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.createChild(dc, t, seg(params.id), seg(params.child), bodyOf(request, body))),
    )
    .get('/:table/:id/:child/:childId', ({ request, params }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.readChild(dc, t, seg(params.id), seg(params.child), seg(params.childId))),
    )
    .put('/:table/:id/:child/:childId', ({ request, params, body }) =>
      withTable(request, params.projectId, params.table, (dc, t) =>
        data.updateChild(dc, t, seg(params.id), seg(params.child), seg(params.childId), bodyOf(request, body)),
      ),
    )
    .delete('/:table/:id/:child/:childId', ({ request, params }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.deleteChild(dc, t, seg(params.id), seg(params.child), seg(params.childId))),
    )
    .post('/:table/:id/mm/:target/:targetId', ({ request, params }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.link(dc, t, seg(params.id), seg(params.target), seg(params.targetId))),
    )
    .delete('/:table/:id/mm/:target/:targetId', ({ request, params }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.unlink(dc, t, seg(params.id), seg(params.target), seg(params.targetId))),
    );
}
