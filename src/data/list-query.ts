/**
 * Query parameters of list, findOne, count and nested reads (api-contract section 2) parsed into
 * a typed ListQuery: where / condition / conditionGraph, sort, fields, limit, offset, and the
 * relations to nest with their per-relation options (hfields1, hwhere1, hlimit1, hsort1, ...).
 */
import type { Cond, OrderItem } from '../sql/ast';
import type { ColumnModel, RelationModel, TableModel } from '../schema/model';
import { badRequest } from '../lib/errors';
import { LIMITS } from '../config/limits';
import { allColumns, columnExpr, findColumn, resolveColumn } from './columns';
import { parseWhere } from './where-parser';
import { parseCondition, parseConditionGraph, type FilterTable } from './condition';

export type Params = Record<string, string | undefined>;

export interface NestedQuery {
  relation: RelationModel;
  fields?: ColumnModel[];
  where?: Cond;
  sort?: OrderItem[];
  limit: number;
  /** Rows of each parent to skip (GraphQL's CList offset). */
  offset?: number;
  /** Where the related rows land on each row: by default `{Alias}List`, `{Alias}Read` or `{Alias}MMList`. */
  as?: string | symbol;
  /** Makes each related row from its driver row, instead of toApiRow (see RowMaker). */
  makeRow?: RowMaker;
}

/**
 * Makes a caller's row straight from a driver row (columns by alias), in place of toApiRow: for
 * callers that shape rows themselves (GraphQL), so a row is made once. It must pass each value
 * through outputValue, as toApiRow does.
 */
export type RowMaker = (raw: Record<string, unknown>) => Record<string, unknown>;

export interface ListQuery {
  where?: Cond;
  sort: OrderItem[];
  fields: ColumnModel[];
  limit: number;
  offset: number;
  nested: NestedQuery[];
}

/** The first of `names` the caller sent (a parameter and its short alias: `limit`, `l`). */
export const pick = (p: Params, ...names: string[]) => names.map((n) => p[n]).find((v) => v !== undefined);

/** limit: default 25, clamped to 1..max; 0 or junk -> default. */
export function parseLimit(v: string | undefined, max: number, dflt: number = LIMITS.defaultPageSize): number {
  const n = Number(v);
  if (v === undefined || !Number.isInteger(n) || n <= 0) return dflt;
  return Math.min(n, max);
}

/**
 * offset: default 0; negative or junk -> 0. One past 2^53 is no exact number: it is read as the
 * largest that is (the page is empty either way), where SQLite refused 1e20 and PostgreSQL a bigint overflow.
 */
export function parseOffset(v: string | undefined): number {
  const n = Number(v);
  return v !== undefined && Number.isInteger(n) && n > 0 ? Math.min(n, Number.MAX_SAFE_INTEGER) : 0;
}

/** The columns of a comma list (each once: `Name,Name` is Name), or every column. */
export function parseFields(t: TableModel, v: string | undefined): ColumnModel[] {
  if (!v || !v.trim()) return allColumns(t);
  const out: ColumnModel[] = [];
  for (const name of columnNames(t, v)) {
    const c = resolveColumn(t, name);
    if (!out.includes(c)) out.push(c);
  }
  // Only commas ('fields=,'): no column named, as for an empty list (it answered rows of no column, {}).
  return out.length ? out : allColumns(t);
}

/**
 * The names of a comma list of columns (`fields`, `sort`). A display name may hold a comma itself
 * ('Price, net', as a CSV header imports it): a piece that names no column is joined with the next
 * ones until they name one together, so `Name,Price, net` is two columns. A list whose every piece
 * names a column reads as before.
 */
export function columnNames(t: TableModel, v: string): string[] {
  const parts = v.split(',');
  const names: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (!parts[i]!.trim()) continue;
    const bare = (s: string) => s.trim().replace(/^[-+]/, '');
    let name = parts[i]!;
    for (let j = i + 1; !findColumn(t, bare(name)) && j < parts.length; j++) {
      const joined = parts.slice(i, j + 1).join(',');
      if (findColumn(t, bare(joined))) {
        name = joined;
        i = j;
        break;
      }
    }
    names.push(name);
  }
  return names;
}

/**
 * `-a,b` -> a DESC, b ASC; then the primary key (or every column) so pages never overlap. The key
 * follows the direction of the last sort key: `ORDER BY created_at DESC, id DESC` can walk an index
 * on `(…, created_at)` backwards, where `created_at DESC, id ASC` makes the engine sort. Either is a
 * total order.
 */
export function parseSort(t: TableModel, v: string | undefined, table?: string): OrderItem[] {
  const items: OrderItem[] = [];
  const used = new Set<string>();
  for (const raw of v ? columnNames(t, v) : []) {
    const s = raw.trim();
    if (!s) continue;
    const desc = s.startsWith('-');
    const c = resolveColumn(t, desc || s.startsWith('+') ? s.slice(1) : s);
    if (used.has(c.cn)) continue;
    used.add(c.cn);
    items.push({ expr: columnExpr(c, table), desc });
  }
  const tiebreak = t.pks.length ? t.pks : t.columns.filter((c) => c.kind !== 'json' && c.kind !== 'binary').map((c) => c.cn);
  const desc = items.length > 0 && items[items.length - 1]!.desc === true;
  for (const k of tiebreak) if (!used.has(k)) items.push(desc ? { expr: { kind: 'col', name: k, table }, desc } : { expr: { kind: 'col', name: k, table } });
  return items;
}

function and(...conds: (Cond | undefined)[]): Cond | undefined {
  const items = conds.filter((c): c is Cond => !!c);
  return items.length === 0 ? undefined : items.length === 1 ? items[0] : { kind: 'and', items };
}

function findRelation(t: TableModel, type: RelationModel['type'], name: string, tables: (tn: string) => TableModel | undefined): RelationModel {
  const rel = t.relations.find((r) => r.type === type && (r.alias === name || r.rtn === name || tables(r.rtn)?._tn === name));
  if (!rel) {
    const label = { hm: 'has-many', bt: 'belongs-to', mm: 'many-to-many' }[type];
    throw badRequest(`'${t._tn}' has no ${label} relation '${name}'`);
  }
  return rel;
}

/** Parses every list parameter for a table. */
export function parseListQuery(
  t: TableModel,
  p: Params,
  opts: { maxLimit: number; table: (tn: string) => TableModel | undefined; filterTable?: FilterTable; alias?: string },
): ListQuery {
  const filterTable: FilterTable = opts.filterTable ?? ((tn) => {
    const x = opts.table(tn);
    return x && { table: x };
  });
  const where = and(
    parseWhere(pick(p, 'where', 'w'), t, opts.alias),
    parseCondition(pick(p, 'condition', 'c'), t, opts.alias),
    parseConditionGraph(p.conditionGraph, t, filterTable, opts.alias),
  );
  const nested: NestedQuery[] = [];
  const prefix = { hm: 'h', bt: 'b', mm: 'm' } as const;
  for (const type of ['hm', 'bt', 'mm'] as const) {
    const names = (p[type] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    names.forEach((name, i) => {
      const relation = findRelation(t, type, name, opts.table);
      const target = opts.table(relation.rtn)!;
      const k = `${i + 1}`;
      const pre = prefix[type];
      nested.push({
        relation,
        fields: p[`${pre}fields${k}`] ? parseFields(target, p[`${pre}fields${k}`]) : undefined,
        where: parseWhere(p[`${pre}where${k}`], target),
        // A many-to-many read joins the junction under `__t` (the target) and `__j` (see loadNested).
        sort: p[`${pre}sort${k}`] ? parseSort(target, p[`${pre}sort${k}`], type === 'mm' ? '__t' : undefined) : undefined,
        limit: parseLimit(p[`${pre}limit${k}`], opts.maxLimit),
      });
    });
  }
  return {
    where,
    sort: parseSort(t, pick(p, 'sort', 's'), opts.alias),
    fields: parseFields(t, pick(p, 'fields', 'f')),
    limit: parseLimit(pick(p, 'limit', 'l'), opts.maxLimit),
    offset: parseOffset(pick(p, 'offset', 'o')),
    nested,
  };
}
