/**
 * Saved views (api-contract section 6):
 *
 * - `xcVirtualTableList` `{ tn }` -> `{ data: { list: [ { id, title, type, tn, order, query_params, is_default } ] } }`;
 *   the table's default "Grid view" is made on first list.
 * - `xcVirtualTableCreate` `{ tn, title, type, copy_from_id?, query_params? }` -> `{ id, title, type }`;
 *   a copy keeps the source's type and query_params (query_params given too replace keys of the copy).
 * - `xcVirtualTableUpdate` `{ id, title?, order?, query_params? }` -> `{ ok: true }` (query_params replace the stored ones).
 * - `xcVirtualTableDelete` `{ id }` -> `{ ok: true }`; the default view cannot be deleted.
 *
 * Every member who can read the table lists; owners, creators and editors change. query_params are
 * checked against the table (query-params.ts); on a refusal nothing is stored.
 */
import { z } from 'zod';
import type { DashboardOp } from '../op';
import { parseArgs } from '../op';
import { badRequest, conflict } from '../../../lib/errors';
import { VIEW_TYPES, viewsRepo, type ViewQueryParams, type ViewRow } from '../../../meta/views-repo';
import type { TableModel } from '../../../schema/model';
import { findColumn } from '../../../data/columns';
import { readScope } from '../../../data/read-scope';
import { normalizeQueryParams } from '../../views/query-params';
import { assertViewEditor, callerContext, readableTableOf, viewOf } from '../../views/view-access';
import { followViewSchemaEvents } from '../../views/view-schema-events';
import { viewsChanged } from '../../views/view-events';

// Views follow tables and columns renamed or dropped through Tablo.
followViewSchemaEvents();

const title = z.string().trim().min(1, 'A view needs a title').max(255);
const ListArgs = z.object({ tn: z.string().min(1) });
const CreateArgs = z.object({
  tn: z.string().min(1),
  title,
  type: z.enum(VIEW_TYPES).optional(),
  copy_from_id: z.string().min(1).nullish(),
  query_params: z.record(z.string(), z.unknown()).nullish(),
});
const UpdateArgs = z.object({ id: z.string().min(1), title: title.optional(), order: z.number().finite().optional(), query_params: z.record(z.string(), z.unknown()).nullish() });
const IdArgs = z.object({ id: z.string().min(1) });

/** A view as the list answers it. */
export const viewAnswer = (v: ViewRow) => ({ id: v.id, title: v.title, type: v.type, tn: v.tn, order: v.order, query_params: v.query_params, is_default: v.is_default });

/** 400 unless rows can be added to `t`: a form on a SQL view or a table without a key would refuse every submission. */
function assertTakesRows(t: TableModel): void {
  if (t.type === 'view') throw badRequest('A form adds rows, so it needs a table (not a SQL view)');
  if (!t.pks.length) throw badRequest(`A form adds rows, so it needs a table with a primary key: '${t._tn}' has none`);
}

/** 409 when another view of the table has this title (case-insensitive). */
function assertFreeTitle(views: ViewRow[], t: string, tableName: string, except?: string): void {
  const taken = views.find((v) => v.id !== except && v.title.toLowerCase() === t.toLowerCase());
  if (taken) throw conflict(`A view named '${taken.title}' already exists on '${tableName}'`);
}

/**
 * A caller who cannot see some columns cannot list them: their stored entries in `fields` (shown or
 * hidden, with widths) are kept after the caller's list rather than dropped (unlisted columns show).
 * Without a list from the caller the stored one stays as it is: no list would show every column, the
 * ones hidden from the caller included, to whoever reads the view with more rights (its owner's link).
 */
function keepUnseenFields(view: ViewRow, table: TableModel, next: ViewQueryParams, visible: TableModel): ViewQueryParams {
  if (!view.query_params.fields || visible === table) return next;
  const unseen = view.query_params.fields.filter((f) => !findColumn(visible, f.cn) && findColumn(table, f.cn));
  if (!unseen.length) return next;
  const listed = next.fields ?? view.query_params.fields.filter((f) => !unseen.includes(f));
  return { ...next, fields: [...listed, ...unseen] };
}

export const xcVirtualTableList: DashboardOp = {
  name: 'xcVirtualTableList',
  access: 'projectMember',
  async run({ ctx, request, projectId, dbAlias, args }) {
    const { tn } = parseArgs(ListArgs, args);
    const dc = await callerContext(ctx, request, projectId, dbAlias);
    const t = readableTableOf(dc, tn);
    const repo = viewsRepo(ctx.meta);
    let views = await repo.list(projectId, dc.pdb.dbAlias, t.tn);
    if (!views.some((v) => v.is_default)) {
      await repo.ensureDefault(projectId, dc.pdb.dbAlias, t.tn, dc.actor.userId ?? null);
      views = await repo.list(projectId, dc.pdb.dbAlias, t.tn);
    }
    return { data: { list: views.map(viewAnswer) } };
  },
};

export const xcVirtualTableCreate: DashboardOp = {
  name: 'xcVirtualTableCreate',
  access: 'projectMember',
  async run({ ctx, request, projectId, dbAlias, args }) {
    const a = parseArgs(CreateArgs, args);
    const dc = await callerContext(ctx, request, projectId, dbAlias);
    assertViewEditor(dc);
    const t = readableTableOf(dc, a.tn);
    const repo = viewsRepo(ctx.meta);
    let type = a.type;
    let raw: Record<string, unknown> = a.query_params ?? {};
    if (a.copy_from_id) {
      const { view: source } = await viewOf(ctx, dc, projectId, a.copy_from_id);
      if (source.tn !== t.tn) throw badRequest(`View '${source.title}' belongs to another table`);
      type ??= source.type;
      raw = { ...structuredClone(source.query_params), ...raw };
    }
    if (!type) throw badRequest(`type: one of ${VIEW_TYPES.join(', ')}`);
    if (type === 'form') assertTakesRows(t);
    const queryParams = normalizeQueryParams(readScope(dc, t).table, type, raw);
    await repo.ensureDefault(projectId, dc.pdb.dbAlias, t.tn, dc.actor.userId ?? null);
    const views = await repo.list(projectId, dc.pdb.dbAlias, t.tn);
    assertFreeTitle(views, a.title, t._tn);
    const order = Math.max(0, ...views.map((v) => v.order)) + 1;
    let created: ViewRow;
    try {
      created = await repo.create({ projectId, dbAlias: dc.pdb.dbAlias, tn: t.tn, title: a.title, type, order, queryParams, createdBy: dc.actor.userId ?? null });
    } catch (e) {
      // Two creates raced for one title: the unique index kept one.
      assertFreeTitle(await repo.list(projectId, dc.pdb.dbAlias, t.tn), a.title, t._tn);
      throw e;
    }
    viewsChanged({ meta: ctx.meta, projectId, dbAlias: dc.pdb.dbAlias, tn: t.tn });
    return { id: created.id, title: created.title, type: created.type };
  },
};

export const xcVirtualTableUpdate: DashboardOp = {
  name: 'xcVirtualTableUpdate',
  access: 'projectMember',
  async run({ ctx, request, projectId, dbAlias, args }) {
    const a = parseArgs(UpdateArgs, args);
    const dc = await callerContext(ctx, request, projectId, dbAlias);
    assertViewEditor(dc);
    const { view, table } = await viewOf(ctx, dc, projectId, a.id);
    const repo = viewsRepo(ctx.meta);
    if (a.title !== undefined && a.title !== view.title) assertFreeTitle(await repo.list(projectId, dc.pdb.dbAlias, view.tn), a.title, table._tn, view.id);
    const queryParams = a.query_params != null ? keepUnseenFields(view, table, normalizeQueryParams(readScope(dc, table).table, view.type, a.query_params), readScope(dc, table).table) : undefined;
    try {
      await repo.update(view.id, { title: a.title, order: a.order, queryParams });
    } catch (e) {
      if (a.title !== undefined) assertFreeTitle(await repo.list(projectId, dc.pdb.dbAlias, view.tn), a.title, table._tn, view.id);
      throw e;
    }
    viewsChanged({ meta: ctx.meta, projectId, dbAlias: dc.pdb.dbAlias, tn: view.tn });
    return { ok: true };
  },
};

export const xcVirtualTableDelete: DashboardOp = {
  name: 'xcVirtualTableDelete',
  access: 'projectMember',
  async run({ ctx, request, projectId, dbAlias, args }) {
    const { id } = parseArgs(IdArgs, args);
    const dc = await callerContext(ctx, request, projectId, dbAlias);
    assertViewEditor(dc);
    const { view } = await viewOf(ctx, dc, projectId, id);
    if (view.is_default) throw badRequest(`'${view.title}' is the table's default view and cannot be deleted`);
    await viewsRepo(ctx.meta).delete(view.id);
    viewsChanged({ meta: ctx.meta, projectId, dbAlias: dc.pdb.dbAlias, tn: view.tn });
    return { ok: true };
  },
};

/** The saved-view operations, for the registry. */
export const VIEW_OPS: DashboardOp[] = [xcVirtualTableList, xcVirtualTableCreate, xcVirtualTableUpdate, xcVirtualTableDelete];
