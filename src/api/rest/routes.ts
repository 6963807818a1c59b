/**
 * The generated REST API of api-contract section 2, under /nc/{projectId}/api/v1/{Table}: thin
 * handlers that parse the request and call the data-access core.
 */
import { Elysia } from 'elysia';
import type { AppContext } from '../../context';
import * as data from '../../data/records-service';
import type { Params } from '../../data/list-query';
import { cachedDataContext, dataContext, tableByName } from './context';
import { withView } from '../views/rest-view';

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
    .post('/:table', ({ request, params, body }) => withTable(request, params.projectId, params.table, (dc, t) => data.create(dc, t, body)))
    .get('/:table/findOne', ({ request, params, query }) => withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'list', (p) => data.findOne(dc, t, p))))
    .get('/:table/count', ({ request, params, query }) => withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'filter', (p) => data.count(dc, t, p))))
    .get('/:table/groupby', ({ request, params, query }) => withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'filter', (p) => data.groupBy(dc, t, p))))
    .get('/:table/groupby/:column', ({ request, params, query }) =>
      withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'filter', (p) => data.groupBy(dc, t, p, decodeURIComponent(params.column)))),
    )
    .get('/:table/aggregate', ({ request, params, query }) => withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'filter', (p) => data.aggregate(dc, t, p))))
    .get('/:table/distinct', ({ request, params, query }) => withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'filter', (p) => data.distinct(dc, t, p))))
    .get('/:table/distribute', ({ request, params, query }) => withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'filter', (p) => data.distribute(dc, t, p))))
    .get('/:table/m2mNotChildren/:assoc/:parentId', ({ request, params, query }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.m2mNotChildren(dc, t, decodeURIComponent(params.assoc), decodeURIComponent(params.parentId), q(query))),
    )
    .post('/:table/bulk', ({ request, params, body }) => withTable(request, params.projectId, params.table, (dc, t) => data.bulkCreate(dc, t, body)))
    .put('/:table/bulk', ({ request, params, body }) => withTable(request, params.projectId, params.table, (dc, t) => data.bulkUpdate(dc, t, body)))
    .delete('/:table/bulk', ({ request, params, body }) => withTable(request, params.projectId, params.table, (dc, t) => data.bulkDelete(dc, t, body)))
    .get('/:table/has/:child', ({ request, params, query }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.list(dc, t, { ...q(query), hm: decodeURIComponent(params.child) })),
    )
    .get('/:table/belongs/:child', ({ request, params, query }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.list(dc, t, { ...q(query), bt: decodeURIComponent(params.child) })),
    )
    .get('/:table/:id', ({ request, params, query }) => withTable(request, params.projectId, params.table, (dc, t) => withView(ctx, params.projectId, dc, t, q(query), 'read', (p) => data.read(dc, t, decodeURIComponent(params.id), p))))
    .get('/:table/:id/exists', ({ request, params }) => withTable(request, params.projectId, params.table, (dc, t) => data.exists(dc, t, decodeURIComponent(params.id))))
    .put('/:table/:id', ({ request, params, body }) => withTable(request, params.projectId, params.table, (dc, t) => data.update(dc, t, decodeURIComponent(params.id), body)))
    .delete('/:table/:id', ({ request, params }) => withTable(request, params.projectId, params.table, (dc, t) => data.remove(dc, t, decodeURIComponent(params.id))))
    .get('/:table/:id/:child', ({ request, params, query }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.listChildren(dc, t, decodeURIComponent(params.id), decodeURIComponent(params.child), q(query))),
    )
    .post('/:table/:id/:child', ({ request, params, body }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.createChild(dc, t, decodeURIComponent(params.id), decodeURIComponent(params.child), body)),
    )
    .get('/:table/:id/:child/:childId', ({ request, params }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.readChild(dc, t, decodeURIComponent(params.id), decodeURIComponent(params.child), decodeURIComponent(params.childId))),
    )
    .put('/:table/:id/:child/:childId', ({ request, params, body }) =>
      withTable(request, params.projectId, params.table, (dc, t) =>
        data.updateChild(dc, t, decodeURIComponent(params.id), decodeURIComponent(params.child), decodeURIComponent(params.childId), body),
      ),
    )
    .delete('/:table/:id/:child/:childId', ({ request, params }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.deleteChild(dc, t, decodeURIComponent(params.id), decodeURIComponent(params.child), decodeURIComponent(params.childId))),
    )
    .post('/:table/:id/mm/:target/:targetId', ({ request, params }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.link(dc, t, decodeURIComponent(params.id), decodeURIComponent(params.target), decodeURIComponent(params.targetId))),
    )
    .delete('/:table/:id/mm/:target/:targetId', ({ request, params }) =>
      withTable(request, params.projectId, params.table, (dc, t) => data.unlink(dc, t, decodeURIComponent(params.id), decodeURIComponent(params.target), decodeURIComponent(params.targetId))),
    );
}
