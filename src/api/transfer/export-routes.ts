/**
 * `GET /nc/{projectId}/api/v1/{Table}/export/csv` and `/export/xlsx`: every row of the table (or of
 * what `view`, `where`, `sort`, `fields` and the other list parameters ask) as a streamed file, with the
 * caller's rights. `bom=true` starts a CSV with a UTF-8 byte order mark (for Excel).
 */
import { Elysia } from 'elysia';
import type { AppContext } from '../../context';
import type { Params } from '../../data/list-query';
import { notFound } from '../../lib/errors';
import { dataContext, tableByName } from '../rest/context';
import { exportResponse } from './export';
import { withView } from '../views/rest-view';

export function exportRoutes(ctx: AppContext) {
  return new Elysia({ name: 'export', prefix: '/nc/:projectId/api/v1' }).get('/:table/export/:format', async ({ request, params, query }) => {
    const format = params.format;
    if (format !== 'csv' && format !== 'xlsx') throw notFound(`Unknown export format '${format}' (csv or xlsx)`);
    const dc = await dataContext(ctx, request, params.projectId);
    const t = tableByName(dc.pdb, params.table);
    // `view=<id or title>`: the saved view's filters, sorts and shown fields (rights still on top).
    return withView(ctx, params.projectId, dc, t, query as Params, 'list', (p) => exportResponse(dc, t, p, format, ctx.log));
  });
}
