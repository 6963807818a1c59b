/**
 * A saved view applied to a read: its where ANDed with the caller's, its sort unless the caller
 * sends one, and only its shown columns, always inside the caller's rights (the data core still
 * parses and scopes the result, so a view never shows a column or row the caller may not read).
 * REST (`view=`), shared links and exports call resolveViewQuery and then the usual reads.
 */
import type { ColumnModel, TableModel } from '../schema/model';
import type { ViewQueryParams, ViewType } from '../meta/views-repo';
import { forbidden } from '../lib/errors';
import type { DataContext } from './data-context';
import { columnNames, type Params } from './list-query';
import { allColumns, findColumn, resolveColumn } from './columns';
import { readScope } from './read-scope';
import { bindUserPlaceholders } from './access';
import { andWhere } from '../../common/where-columns';

/** What of a view a read needs. */
export interface ViewLike {
  title: string;
  type: ViewType;
  query_params: ViewQueryParams;
}

const key = (c: ColumnModel) => (c.virtual ? `v:${c._cn}` : `c:${c.cn}`);

/**
 * How many fields the cards of a gallery, kanban or calendar show while the view never chose its
 * fields: the first ones that are not keys, as the web app lays the cards out.
 */
export const CARD_FIELDS_BY_DEFAULT: Partial<Record<ViewType, number>> = { gallery: 4, kanban: 5, calendar: 3 };

/**
 * The columns a view shows, in its order: the listed ones marked shown, then the table's columns
 * the view does not list (added after it was saved). A form view shows its form's fields when it
 * lists any, else the columns a person can fill in (not computed, not auto-increment). A card view
 * (gallery, kanban, calendar) that never chose its fields shows what its cards show: the keys, the
 * first CARD_FIELDS_BY_DEFAULT other columns (hidden ones aside), the display column that titles a
 * card and the columns that lay the cards out (lane, cover, dates). Columns the table lost are skipped.
 */
export function shownColumns(t: TableModel, view: ViewLike): ColumnModel[] {
  const qp = view.query_params;
  const all = allColumns(t);
  const byDefault = CARD_FIELDS_BY_DEFAULT[view.type];
  if (byDefault !== undefined && !qp.fields?.length) {
    const first = new Set(all.filter((c) => !c.pk && !c.hidden).slice(0, byDefault));
    const layout = new Set(
      [qp.groupBy, qp.coverColumn, qp.dateColumn, qp.endDateColumn, t.displayColumn ?? undefined]
        .map((n) => (n ? findColumn(t, n) : undefined))
        .filter((c): c is ColumnModel => !!c),
    );
    return all.filter((c) => c.pk || first.has(c) || layout.has(c));
  }
  const hidden = new Set<string>();
  const out: ColumnModel[] = [];
  const seen = new Set<string>();
  for (const f of qp.fields ?? []) {
    const c = findColumn(t, f.cn);
    if (!c) continue;
    seen.add(key(c));
    if (f.show === false) hidden.add(key(c));
    else out.push(c);
  }
  if (view.type === 'form') {
    // A form shows its form's fields; without a list, every column a person can fill in.
    if (qp.form?.fields?.length) return qp.form.fields.map((f) => findColumn(t, f.cn)).filter((c): c is ColumnModel => !!c && !hidden.has(key(c)));
    return [...out, ...all.filter((c) => !seen.has(key(c)))].filter((c) => !c.virtual && !c.ai);
  }
  for (const c of all) if (!seen.has(key(c))) out.push(c);
  return out;
}

/** The shown columns the caller may read; 403 when the view shows none of them. */
export function readableShownColumns(dc: DataContext, t: TableModel, view: ViewLike): ColumnModel[] {
  const readable = new Set(allColumns(readScope(dc, t).table).map(key));
  const cols = shownColumns(t, view).filter((c) => readable.has(key(c)));
  if (cols.length === 0) throw forbidden(`Not allowed to read any column of view '${view.title}'`);
  return cols;
}

/**
 * The view's where for this reader: `$user.id` / `$user.email` become the caller's (bound as
 * parameters like every value); a caller without them (an API token) matches no row.
 */
function viewWhere(dc: DataContext, t: TableModel, where: string | undefined): string | undefined {
  if (!where || !where.includes('$user.')) return where;
  const bound = bindUserPlaceholders(where, dc.actor);
  if (bound !== null) return bound;
  const c = readScope(dc, t).table.columns[0] ?? t.columns[0]!;
  return `(${c._cn},is,null)~and(${c._cn},isnot,null)`;
}

/** `list`: where, sort and fields; `filter`: the where alone (counts, grouping, aggregates); `read`: the fields alone. */
export type ViewQueryMode = 'list' | 'filter' | 'read';

const pick = (p: Params, ...names: string[]) => names.map((n) => p[n]).find((v) => v !== undefined && v !== '');

/**
 * The parameters of a read through a view: the caller's `params` with the view's where ANDed in,
 * its sort when the caller sends none and `fields` limited to the view's shown columns (a caller's
 * `fields` narrows them further; readable names outside the view are dropped, unknown or hidden ones
 * answer 400). The result goes to the data
 * core's reads as any request's parameters.
 */
export function resolveViewQuery(dc: DataContext, t: TableModel, view: ViewLike, params: Params, mode: ViewQueryMode = 'list'): Params {
  const out: Params = { ...params, view: undefined };
  const qp = view.query_params;
  if (mode !== 'read') {
    out.where = andWhere(viewWhere(dc, t, qp.where), pick(params, 'where', 'w'));
    out.w = undefined;
  }
  if (mode === 'list' && !pick(params, 'sort', 's') && qp.sort) {
    out.sort = qp.sort;
    out.s = undefined;
  }
  if (mode !== 'filter') {
    const shown = readableShownColumns(dc, t, view);
    const asked = pick(params, 'fields', 'f');
    let cols = shown;
    if (asked) {
      // A name the caller may not read, or that does not exist, is a 400 as everywhere; a readable one outside the view is dropped.
      const readable = readScope(dc, t).table;
      const wanted = new Set(columnNames(readable, asked).map((n) => resolveColumn(readable, n)).map(key));
      cols = shown.filter((c) => wanted.has(key(c)));
      if (cols.length === 0) cols = shown;
    }
    out.fields = cols.map((c) => c._cn).join(',');
    out.f = undefined;
  }
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}
