/**
 * The public routes of shared views (api-contract section 6), without any auth header; a
 * password-protected link wants `xc-password`:
 *
 * - `GET /api/v1/shared/{uuid}`: `{ title, type, columns, query_params, allowCsvDownload, displayColumn }`, shown columns only;
 * - `GET /api/v1/shared/{uuid}/rows`: `{ list, pageInfo: { totalRows?, limit, offset } }` (not for forms); each
 *   uploaded file of a shown Attachment cell carries `signedUrl`, a short-lived link to it (shared-files.ts);
 * - `POST /api/v1/shared/{uuid}/rows`: form views: creates one row, `{ ok: true, message }` (rate limited per address);
 * - `POST /api/v1/shared/{uuid}/attachments/{column}`: form views: files for an Attachment field, `{ uploaded }` (form-upload.ts);
 * - `GET /api/v1/shared/{uuid}/rows.csv`: the view's rows as CSV when the link allows it;
 * - `GET /api/v1/shared/{uuid}/groups`: a grid grouped by a shown column: `{ column, groups: [{ value, count }] }`,
 *   the groups of the rows the visitor's `where` and `search` find, in the column's order (at most SHARED_GROUPS).
 *
 * Every read goes through the data core with the link creator's rights, cut to the view.
 */
import { Elysia } from 'elysia';
import type { AppContext } from '../../context';
import * as data from '../../data/records-service';
import { parseLimit, parseOffset } from '../../data/list-query';
import { badRequest, forbidden, isAppError } from '../../lib/errors';
import { openLink, type SharedLink } from './link-context';
import { PasswordGuard } from './password-guard';
import { linkReadParams, publicColumn, publicParams, publicQueryParams, shownDisplayColumn } from './public-query';
import { formMissesRequired, submitForm } from './form-submit';
import { uploadToSharedForm } from './form-upload';
import { csvResponse } from './csv';
import { keysForFiles, withFileLinks, withKeys } from './shared-files';
import { RateLimiter } from '../../http/rate-limit';
import { clientIp } from '../../http/principal';
import { LIMITS } from '../../config/limits';

/** Most groups a grouped shared grid lists (as the dashboard's grid). */
const SHARED_GROUPS = 1000;

/** A link whose rows may be read: not a form (people filling in a form never see other answers). */
function readable(s: SharedLink): SharedLink {
  if (s.view.type === 'form') throw forbidden('A shared form does not show its rows');
  return s;
}

/** The public shared-view routes (see the file comment); one password guard and submission limiter per app. */
export function sharedViewRoutes(ctx: AppContext) {
  const guard = new PasswordGuard(LIMITS.sharedViewPasswordRateLimit.max, LIMITS.sharedViewPasswordRateLimit.windowMs, ctx.meta);
  const submissions = new RateLimiter(LIMITS.sharedFormSubmitRateLimit.max, LIMITS.sharedFormSubmitRateLimit.windowMs, ctx.meta);
  const uploads = new RateLimiter(LIMITS.sharedFormUploadRateLimit.max, LIMITS.sharedFormUploadRateLimit.windowMs, ctx.meta);
  const open = (request: Request, uuid: string) => openLink(ctx, guard, request, uuid);

  return new Elysia({ name: 'shared-views', prefix: '/api/v1/shared' })
    .get('/:uuid', async ({ request, params }) => {
      const s = await open(request, params.uuid);
      const blocked = s.view.type === 'form' && formMissesRequired(s);
      return { title: s.view.title, type: s.view.type, columns: s.columns.map(publicColumn), query_params: publicQueryParams(s), allowCsvDownload: s.link.allow_csv_download, displayColumn: shownDisplayColumn(s), isDefault: s.view.is_default, ...(blocked ? { formMissesRequired: true } : {}) };
    })
    .get('/:uuid/rows', async ({ request, params }) => {
      const s = readable(await open(request, params.uuid));
      const p = publicParams(request);
      const limit = parseLimit(p.limit, s.dc.maxLimit);
      const offset = parseOffset(p.offset);
      const read = linkReadParams(s, p);
      if (!read) return { list: [], pageInfo: { totalRows: 0, limit, offset } };
      const keys = keysForFiles(s, read);
      const list = await withFileLinks(ctx, s, await data.list(s.dc, s.table, withKeys(read, keys)), keys, request);
      let totalRows: number | undefined;
      try {
        totalRows = (await data.count(s.dc, s.table, read)).count;
      } catch (e) {
        if (!isAppError(e) || e.code !== 'TIMEOUT') throw e;
      }
      return { list, pageInfo: { ...(totalRows === undefined ? {} : { totalRows }), limit, offset } };
    })
    .post('/:uuid/rows', async ({ request, params, body }) => {
      const s = await open(request, params.uuid);
      await submissions.hit(`shared-form:${s.link.uuid}:${clientIp(ctx, request)}`);
      return submitForm(ctx, s, body);
    })
    .post('/:uuid/attachments/:column', async ({ request, params, body }) => {
      const s = await open(request, params.uuid);
      await uploads.hit(`shared-upload:${s.link.uuid}:${clientIp(ctx, request)}`);
      return uploadToSharedForm(ctx, s, request, params.column, body);
    })
    .get('/:uuid/groups', async ({ request, params }) => {
      const s = readable(await open(request, params.uuid));
      const column = s.view.type === 'grid' ? publicQueryParams(s).groupBy : undefined;
      if (!column) throw badRequest('This shared view is not grouped');
      const p = publicParams(request);
      const other = Object.keys(p).find((k) => k !== 'where' && k !== 'search');
      if (other) throw badRequest(`Parameter '${other}' is not available on the groups of a shared view`);
      const read = linkReadParams(s, { where: p.where, search: p.search });
      if (!read) return { column, groups: [] };
      const list = await data.groupBy(s.dc, s.table, { ...read, fields: undefined, sort: column, limit: String(SHARED_GROUPS), offset: undefined }, column);
      const name = s.columns.find((c) => c._cn === column || c.cn === column)?._cn ?? column;
      return { column: name, groups: list.map((g) => ({ value: g[name] ?? null, count: g.count })) };
    })
    .get('/:uuid/rows.csv', async ({ request, params }) => {
      const s = readable(await open(request, params.uuid));
      if (!s.link.allow_csv_download) throw forbidden('CSV download is not allowed for this shared view');
      const p = publicParams(request);
      const read = linkReadParams(s, { ...p, limit: undefined, offset: undefined });
      return csvResponse(s.dc, s.table, s.columns, read ?? null, s.view.title);
    });
}
