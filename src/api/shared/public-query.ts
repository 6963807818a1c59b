/**
 * What a shared link lets a stranger ask and see: the parameters of its rows (only `limit`,
 * `offset`, `where`, `sort`, `fields` and `search`, each naming only shown columns: a hidden
 * column is an unknown column), the columns it describes and the parts of the view's
 * query_params that name shown columns only (never the view's own where, which may name others).
 */
import type { ColumnModel, TableModel } from '../../schema/model';
import type { Params } from '../../data/list-query';
import type { ViewQueryParams } from '../../meta/views-repo';
import { parseSort } from '../../data/list-query';
import { parseWhere } from '../../data/where-parser';
import { findColumn, resolveColumn } from '../../data/columns';
import { resolveViewQuery } from '../../data/view-query';
import { badRequest } from '../../lib/errors';
import { shownTypeMeta } from '../../schema/column-type-meta';
import type { SharedLink } from './link-context';
import { containsPattern } from '../../data/like-pattern';

/** Query parameters a shared link's rows accept. */
const ALLOWED = new Set(['limit', 'offset', 'where', 'sort', 'fields', 'search']);
/** Logical types a search looks into. */
const TEXT_TYPES = new Set(['SingleLineText', 'LongText', 'Email', 'URL', 'PhoneNumber', 'SingleSelect', 'MultiSelect', 'SpecificDBType']);

/** The table as a link reaches it: its shown, readable columns only. */
export function shownTable(s: SharedLink): TableModel {
  const stored = new Set(s.columns.filter((c) => !c.virtual).map((c) => c.cn));
  const virtual = new Set(s.columns.filter((c) => c.virtual).map((c) => c._cn));
  return { ...s.table, columns: s.table.columns.filter((c) => stored.has(c.cn)), virtuals: s.table.virtuals?.filter((v) => virtual.has(v._cn)), relations: [] };
}

/** The request's query string as one value per name; names outside ALLOWED and repeated names answer 400. */
export function publicParams(request: Request): Params {
  const out: Params = {};
  for (const [k, v] of new URL(request.url).searchParams) {
    if (!ALLOWED.has(k)) throw badRequest(`Parameter '${k}' is not available on a shared view`);
    if (k in out) throw badRequest(`Parameter '${k}' is given twice`);
    out[k] = v;
  }
  return out;
}

/**
 * The data-core parameters of a read through a link: the caller's where, sort and fields checked
 * against the shown columns, then the view folded in (its where always applies), and `search` as a
 * filter over the shown text columns. Undefined when a search has no text column to look into.
 */
export function linkReadParams(s: SharedLink, p: Params): Params | undefined {
  const t = shownTable(s);
  parseWhere(p.where, t);
  if (p.sort) parseSort(t, p.sort);
  if (p.fields) for (const name of p.fields.split(',')) if (name.trim()) resolveColumn(t, name);
  const params: Params = { limit: p.limit, offset: p.offset, where: p.where, sort: p.sort, fields: p.fields };
  const search = p.search?.trim();
  if (search) {
    const text = s.columns.filter((c) => TEXT_TYPES.has(c.uidt) && !c.virtual);
    if (text.length === 0) return undefined;
    params.condition = JSON.stringify({ _or: text.map((c) => ({ [c._cn]: { like: containsPattern(search) } })) });
  }
  return resolveViewQuery(s.dc, s.table, s.view, params, 'list');
}

/**
 * A column as a link describes it, with what the web app's cells and form inputs are chosen by, as
 * the dashboard's table meta gives it: the value kind (a checkbox, a number, a date picker) and the
 * type's options with their defaults and choice colours.
 */
export function publicColumn(c: ColumnModel) {
  return {
    cn: c.virtual ? c._cn : c.cn, _cn: c._cn, uidt: c.uidt, kind: c.kind, dt: c.dtx ?? c.dt, pk: c.pk, ai: c.ai, nullable: c.nullable, virtual: !!c.virtual,
    meta: c.virtual ? (c.meta ?? null) : shownTypeMeta(c), enumValues: c.enumValues ?? null,
  };
}

/** Settings that hold values of the lane column (kanban lanes in order, collapsed ones): they pass only with it. */
const LANE_SETTINGS = ['laneOrder', 'collapsedLanes'] as const;

/**
 * The view's settings that name shown columns only; its where is left out, and so is every setting
 * not listed here (query_params keeps any key a client stores, which a stranger has no business reading).
 */
export function publicQueryParams(s: SharedLink): ViewQueryParams {
  const qp = s.view.query_params;
  const { sort, fields, groupBy, coverColumn, dateColumn, endDateColumn, form } = qp;
  const shown = (name: string | undefined) => {
    const c = name ? findColumn(s.table, name) : undefined;
    return !!c && s.columns.includes(c);
  };
  // Row height and calendar range name no column and hold no value of one.
  const out: ViewQueryParams = {};
  if (qp.rowHeight !== undefined) out.rowHeight = qp.rowHeight;
  if (qp.calendarRange !== undefined) out.calendarRange = qp.calendarRange;
  const sortItems = (sort ?? '').split(',').filter((x) => x && shown(x.replace(/^[-+]/, '')));
  if (sortItems.length) out.sort = sortItems.join(',');
  if (fields) out.fields = fields.filter((f) => shown(f.cn));
  for (const [k, v] of Object.entries({ groupBy, coverColumn, dateColumn, endDateColumn })) if (v && shown(v)) out[k] = v;
  if (out.groupBy) for (const k of LANE_SETTINGS) if (qp[k] !== undefined) out[k] = qp[k];
  if (form) out.form = { ...form, fields: form.fields?.filter((f) => shown(f.cn)) };
  return out;
}

/**
 * The column that titles the table's cards (as the dashboard's table meta names it) when the link shows it,
 * else null: the shared cards are titled as the owner's, and never by a value the link hides.
 */
export function shownDisplayColumn(s: SharedLink): string | null {
  const c = s.table.displayColumn ? s.columns.find((x) => !x.virtual && x.cn === s.table.displayColumn) : undefined;
  return c?._cn ?? null;
}
