/**
 * `GET /nc/{projectId}/api/v1/{Table}/export/csv` and `/export/xlsx`: every row of the table (or of
 * what `where`, `sort`, `fields` and the other list parameters ask) as a streamed file, with the
 * caller's rights. `bom=true` starts a CSV with a UTF-8 byte order mark (for Excel).
 */
import { Elysia } from 'elysia';
import type { AppContext } from '../../context';
import type { Params } from '../../data/list-query';
import { notFound } from '../../lib/errors';
import { dataContext, tableByName } from '../rest/context';
import { exportResponse } from './export';

export function exportRoutes(ctx: AppContext) {
  return new Elysia({ name: 'export', prefix: '/nc/:projectId/api/v1' }).get('/:table/export/:format', async ({ request, params, query }) => {
    const format = params.format;
    if (format !== 'csv' && format !== 'xlsx') throw notFound(`Unknown export format '${format}' (csv or xlsx)`);
    const dc = await dataContext(ctx, request, params.projectId);
    const t = tableByName(dc.pdb, params.table);
    return exportResponse(dc, t, query as Params, format, ctx.log);
  });
}
