/**
 * A saved view's `query_params` and the UI state built from it, both ways: filter rows from the
 * where language, sort rows from the sort parameter, the table's columns in the view's order with
 * shown/hidden and widths, row heights. Pure functions (unit tested).
 */
import type { QueryParams, RowHeight, ViewField } from '../../api/views';
import { FILTER_OPS, type FilterRow, type SortRow } from '../grid/query-builder';
import { mapWhereColumns } from '../../../../common/where-columns';
import { containedText } from '../../lib/like-pattern';

/** Pixel height of a grid row per row height. */
export const ROW_HEIGHTS: Record<RowHeight, number> = { short: 32, medium: 56, tall: 96 };

/** Default width of a grid column in px, and its limits. */
export const DEFAULT_WIDTH = 180;
/** Narrowest column in px. */
export const MIN_WIDTH = 60;
/** Widest column in px. */
export const MAX_WIDTH = 800;

/**
 * The where language back into builder rows: only terms joined by `~and` with operators of the
 * builder; anything else (or, not, groups, in, btw) answers null and stays raw text.
 */
export function parseWhere(where: string | undefined): FilterRow[] | null {
  const text = (where ?? '').trim();
  if (!text) return [];
  const terms = text.split('~and');
  const rows: FilterRow[] = [];
  for (const term of terms) {
    const m = /^\(([^(),~]+),([a-z]+)(?:,([^()~]*))?\)$/.exec(term.trim());
    if (!m) return null;
    const [, column, op, raw] = m as unknown as [string, string, string, string | undefined];
    const known = FILTER_OPS.find((o) => o.op === op);
    if (!known || known.needsValue !== (raw !== undefined)) return null;
    let value = raw ?? '';
    if (op === 'like' || op === 'nlike') {
      const text = containedText(value);
      if (text === null) return null;
      value = text;
    }
    rows.push({ column, op, value });
  }
  return rows;
}

/** `-a,b` -> [{a, desc}, {b, asc}]. */
export function parseSort(sort: string | undefined): SortRow[] {
  return (sort ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (s.startsWith('-') ? { column: s.slice(1), desc: true } : { column: s.replace(/^\+/, ''), desc: false }));
}

/** A column as a view lays it out. */
export interface LaidOutField {
  name: string;
  show: boolean;
  width: number;
}

/**
 * The table's columns (by name, in table order) in the view's order: the view's fields that still
 * exist first, in its order, then columns the view does not know yet (shown).
 */
export function layoutFields(columns: string[], fields: ViewField[] | undefined): LaidOutField[] {
  const known = new Set(columns);
  const seen = new Set<string>();
  const out: LaidOutField[] = [];
  for (const f of fields ?? []) {
    if (!known.has(f.cn) || seen.has(f.cn)) continue;
    seen.add(f.cn);
    out.push({ name: f.cn, show: f.show, width: clampWidth(f.width ?? DEFAULT_WIDTH) });
  }
  for (const c of columns) if (!seen.has(c)) out.push({ name: c, show: true, width: DEFAULT_WIDTH });
  return out;
}

/** Back to `query_params.fields`. */
export function toViewFields(fields: LaidOutField[]): ViewField[] {
  return fields.map((f) => ({ cn: f.name, show: f.show, ...(f.width !== DEFAULT_WIDTH ? { width: f.width } : {}) }));
}

/** A width kept inside the limits, whole px. */
export function clampWidth(px: number): number {
  return Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, Math.round(px)));
}

/** Moves the item at `from` to `to` (both indexes in the list before the move). */
export function moveItem<T>(list: T[], from: number, to: number): T[] {
  if (from === to || from < 0 || from >= list.length) return list;
  const next = list.slice();
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(next.length, to)), 0, item as T);
  return next;
}

/** The shown fields' names, in order. */
export const shownFields = (fields: LaidOutField[]) => fields.filter((f) => f.show).map((f) => f.name);

/** The row height of a view (short by default). */
export const rowHeightOf = (q: QueryParams): RowHeight => (q.rowHeight === 'medium' || q.rowHeight === 'tall' ? q.rowHeight : 'short');

/** ANDs where clauses, each kept whole inside its own group when it joins several terms. */
export function andWhere(...parts: (string | undefined | null)[]): string {
  const kept = parts.map((p) => (p ?? '').trim()).filter(Boolean);
  if (kept.length <= 1) return kept[0] ?? '';
  return kept.map((p) => (/~(and|or|not)/.test(p) ? `(${p})` : p)).join('~and');
}

/**
 * How many fields a card shows when its view never chose them, per kind: the dashboard and the
 * shared page read the same number, so a link shows what the view's makers see.
 */
export const CARD_FIELDS_BY_DEFAULT = { gallery: 4, kanban: 5, calendar: 3 } as const;

/**
 * The fields of a card (gallery, kanban, calendar): the view's, or, for a view that never chose,
 * the first `shownByDefault` columns.
 */
export function cardFields(columns: string[], fields: ViewField[] | undefined, shownByDefault = 5, keys: string[] = []): LaidOutField[] {
  const laid = layoutFields(columns, fields);
  if (fields?.length) return laid;
  // Keys say little on a card: the first other columns are shown.
  const shown = new Set(columns.filter((c) => !keys.includes(c)).slice(0, shownByDefault));
  return laid.map((f) => ({ ...f, show: shown.has(f.name) }));
}

/**
 * A view's query_params with every column by its API name (`_cn`): the server stores SQL names
 * (`cn`); the web app's rows, filters and menus use the API names.
 */
export function aliasQueryParams(q: QueryParams, columns: { cn: string; _cn: string }[]): QueryParams {
  const alias = new Map<string, string>();
  for (const c of columns) alias.set(c._cn, c._cn);
  for (const c of columns) if (!alias.has(c.cn)) alias.set(c.cn, c._cn);
  const name = (n: string) => alias.get(n) ?? alias.get(n.trim()) ?? n;
  const out: QueryParams = { ...q };
  if (q.where) out.where = mapWhereColumns(q.where, name);
  if (q.sort) out.sort = q.sort.split(',').filter(Boolean).map((s) => (s.startsWith('-') ? `-${name(s.slice(1))}` : name(s.replace(/^\+/, '')))).join(',');
  if (q.fields) out.fields = q.fields.map((f) => ({ ...f, cn: name(f.cn) }));
  for (const k of ['groupBy', 'coverColumn', 'dateColumn', 'endDateColumn'] as const) if (q[k]) out[k] = name(q[k]!);
  if (q.form) out.form = { ...q.form, ...(q.form.fields ? { fields: q.form.fields.map((f) => ({ ...f, cn: name(f.cn) })) } : {}) };
  return out;
}

/**
 * Card fields without the columns a view lays itself out by (lane, date, cover): those never show
 * as card text and are always kept shown, since a shared link reaches only shown columns.
 */
export function cardMenu(fields: LaidOutField[], layout: (string | undefined)[]): { menu: LaidOutField[]; save: (menu: LaidOutField[]) => ViewField[] } {
  const kept = layout.filter((n): n is string => !!n);
  return {
    menu: fields.filter((f) => !kept.includes(f.name)),
    save: (menu) => toViewFields([...menu, ...kept.map((name) => ({ name, show: true, width: DEFAULT_WIDTH }))]),
  };
}
