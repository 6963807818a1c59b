/**
 * `query_params` of a saved view (api-contract section 6) checked against the table: every column
 * named in where, sort, fields, groupBy, coverColumn, dateColumn/endDateColumn and the form must
 * exist among the columns the caller may read (alias or SQL name; stored by SQL name), and be of
 * the right kind (a kanban groups by a SingleSelect, a gallery's cover is an Attachment, a
 * calendar's dates are Date or DateTime). Any fault answers 400 naming the column. Keys the
 * contract does not name (UI state) are kept as they are. A where may use `$user.id` and
 * `$user.email` as values, filled in per reader (view-query.ts).
 */
import { z } from 'zod';
import type { ColumnModel, TableModel, UiType } from '../../schema/model';
import type { ViewQueryParams, ViewType } from '../../meta/views-repo';
import { badRequest, isAppError } from '../../lib/errors';
import { findColumn } from '../../data/columns';
import { parseWhere } from '../../data/where-parser';
import { bindUserPlaceholders } from '../../data/access';
import { mapWhereColumns } from '../../../common/where-columns';
import { parseArgs } from '../dashboard/op';
import { LIMITS } from '../../config/limits';

const QUERY_PARAMS_MAX_CHARS = LIMITS.viewQueryParamsMaxChars;

const httpUrl = z
  .string()
  .max(2000)
  .refine((u) => u === '' || /^https?:\/\/[^\s]+$/i.test(u), 'must be an http(s) URL');
const columnName = z.string().min(1).max(255);
const Field = z.object({ cn: columnName, show: z.boolean().default(true), width: z.number().min(10).max(5000).transform(Math.round).optional() });
const FormField = z.object({
  cn: columnName,
  label: z.string().max(255).optional(),
  help: z.string().max(2000).optional(),
  required: z.boolean().optional(),
});
const Form = z.looseObject({
  heading: z.string().max(255).optional(),
  subheading: z.string().max(2000).optional(),
  submitMessage: z.string().max(2000).optional(),
  redirectUrl: httpUrl.nullish(),
  fields: z.array(FormField).max(1000).optional(),
});
/** The shape of query_params (columns are checked against the table afterwards). */
export const QueryParamsSchema = z.looseObject({
  // As long as a filter the grid can send (a long (Id,in,...) list), so a view keeps what its grid shows.
  where: z.string().max(LIMITS.viewWhereMaxChars).nullish(),
  sort: z.string().max(2000).nullish(),
  fields: z.array(Field).max(2000).optional(),
  rowHeight: z.enum(['short', 'medium', 'tall']).nullish(),
  groupBy: columnName.nullish(),
  coverColumn: columnName.nullish(),
  dateColumn: columnName.nullish(),
  endDateColumn: columnName.nullish(),
  form: Form.nullish(),
});

/** The name a view stores for a column: the SQL name (a computed column's alias). */
const stored = (c: ColumnModel) => (c.virtual ? c._cn : c.cn);

function column(t: TableModel, name: string, where: string): ColumnModel {
  const c = findColumn(t, name.trim());
  if (!c) throw badRequest(`query_params.${where}: Column '${name.trim()}' not found`);
  return c;
}

function ofKind(t: TableModel, name: string, where: string, kinds: UiType[], what: string): string {
  const c = column(t, name, where);
  if (!kinds.includes(c.uidt)) throw badRequest(`query_params.${where}: Column '${c._cn}' is not ${what}`);
  return stored(c);
}

function sortText(t: TableModel, sort: string): string {
  const items = sort.split(',').map((s) => s.trim()).filter(Boolean);
  return items
    .map((s) => {
      const desc = s.startsWith('-');
      const c = column(t, desc || s.startsWith('+') ? s.slice(1) : s, 'sort');
      return `${desc ? '-' : ''}${stored(c)}`;
    })
    .join(',');
}

function noTwice<T>(items: T[], name: (x: T) => string, where: string): void {
  const seen = new Set<string>();
  for (const x of items) {
    const n = name(x);
    if (seen.has(n)) throw badRequest(`query_params.${where}: Column '${n}' is listed twice`);
    seen.add(n);
  }
}

/**
 * Checks `raw` for a view of `type` over `t` (the table as the caller may read it) and answers it
 * with columns by SQL name; null / empty values are dropped.
 */
export function normalizeQueryParams(t: TableModel, type: ViewType, raw: unknown): ViewQueryParams {
  // An empty string clears a setting, as null does.
  const given = raw && typeof raw === 'object' && !Array.isArray(raw) ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== '')) : raw;
  const qp = parseArgs(QueryParamsSchema, given ?? {});
  if (JSON.stringify(qp).length > QUERY_PARAMS_MAX_CHARS) throw badRequest(`query_params is too large (at most ${QUERY_PARAMS_MAX_CHARS} characters)`);
  const out: ViewQueryParams = {};
  for (const [k, v] of Object.entries(qp)) if (v !== null && v !== undefined && v !== '') out[k] = v;
  if (qp.where?.trim()) {
    try {
      parseWhere(bindUserPlaceholders(qp.where, { userId: 'id', email: 'user@example.com' }) ?? qp.where, t);
    } catch (e) {
      throw isAppError(e) ? badRequest(`query_params.where: ${e.message}`) : e;
    }
    out.where = mapWhereColumns(qp.where.trim(), (n) => stored(column(t, n, 'where')));
  } else delete out.where;
  if (qp.sort?.trim()) out.sort = sortText(t, qp.sort);
  else delete out.sort;
  if (qp.fields) {
    const fields = qp.fields.map((f) => ({ ...f, cn: stored(column(t, f.cn, 'fields')) }));
    noTwice(fields, (f) => f.cn, 'fields');
    out.fields = fields;
  }
  if (qp.groupBy) out.groupBy = type === 'kanban' ? ofKind(t, qp.groupBy, 'groupBy', ['SingleSelect'], 'a SingleSelect column (a kanban groups by one)') : stored(column(t, qp.groupBy, 'groupBy'));
  if (qp.coverColumn) out.coverColumn = ofKind(t, qp.coverColumn, 'coverColumn', ['Attachment'], 'an Attachment column');
  if (qp.dateColumn) out.dateColumn = ofKind(t, qp.dateColumn, 'dateColumn', ['Date', 'DateTime'], 'a Date or DateTime column');
  if (qp.endDateColumn) out.endDateColumn = ofKind(t, qp.endDateColumn, 'endDateColumn', ['Date', 'DateTime'], 'a Date or DateTime column');
  if (qp.form) {
    const { redirectUrl, ...rest } = qp.form;
    const form: NonNullable<ViewQueryParams['form']> = redirectUrl ? { ...rest, redirectUrl } : rest;
    if (form.fields) {
      form.fields = form.fields.map((f) => {
        const c = column(t, f.cn, 'form.fields');
        if (c.virtual) throw badRequest(`query_params.form.fields: Column '${c._cn}' is a computed column and cannot be filled in a form`);
        return { ...f, cn: c.cn };
      });
      noTwice(form.fields, (f) => f.cn, 'form.fields');
    }
    out.form = form;
  }
  return out;
}
