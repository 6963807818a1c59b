/**
 * Column look-up through the model: API alias or SQL name, else 400 `Column '<name>' not found`.
 * Virtual columns (formula, rollup, lookup) are found by alias too, as read-only columns whose
 * `virtual` holds their definition; `columnExpr` gives the SQL of any column.
 */
import type { Expr } from '../sql/ast';
import type { ColumnModel, TableModel } from '../schema/model';
import { badRequest } from '../lib/errors';

const virtualCache = new WeakMap<TableModel, { virtuals: TableModel['virtuals']; cols: ColumnModel[] }>();

/** The virtual columns of a table as (read-only) columns, in their order (kept until its virtual columns are set again). */
export function virtualColumns(t: TableModel): ColumnModel[] {
  if (!t.virtuals?.length) return [];
  let cached = virtualCache.get(t);
  if (!cached || cached.virtuals !== t.virtuals) {
    const cols = t.virtuals.map((v) => ({
      cn: v._cn, _cn: v._cn, dt: v.uidt, uidt: v.uidt, kind: v.kind ?? 'string',
      pk: false, ai: false, nullable: true, default: null, virtual: v,
    }));
    virtualCache.set(t, (cached = { virtuals: t.virtuals, cols }));
  }
  return cached.cols;
}

/** Every column a row carries by default: the table's, then its virtual columns. */
export const allColumns = (t: TableModel): ColumnModel[] => (t.virtuals?.length ? [...t.columns, ...virtualColumns(t)] : t.columns);

const byName = new WeakMap<TableModel, { virtuals: TableModel['virtuals']; names: Map<string, ColumnModel> }>();

/**
 * A column by API alias, else SQL name, else a virtual column's alias (looked up in a map kept per table
 * model, made again when its virtual columns are set).
 */
export function findColumn(t: TableModel, name: string): ColumnModel | undefined {
  let cached = byName.get(t);
  if (!cached || cached.virtuals !== t.virtuals) {
    const names = new Map<string, ColumnModel>();
    for (const c of t.columns) if (!names.has(c._cn)) names.set(c._cn, c);
    for (const c of t.columns) if (!names.has(c.cn)) names.set(c.cn, c);
    for (const c of virtualColumns(t)) if (!names.has(c._cn)) names.set(c._cn, c);
    byName.set(t, (cached = { virtuals: t.virtuals, names }));
  }
  return cached.names.get(name);
}

export function resolveColumn(t: TableModel, name: string): ColumnModel {
  const c = findColumn(t, name) ?? findColumn(t, name.trim());
  if (!c) throw badRequest(`Column '${name.trim()}' not found`);
  return c;
}

/** The SQL of a column's value: the column itself, or a virtual column's expression. */
export function columnExpr(c: ColumnModel, table?: string): Expr {
  if (c.virtual) return c.virtual.expr ? c.virtual.expr(table) : { kind: 'dangerousRaw', sql: 'NULL' };
  return { kind: 'col', name: c.cn, table };
}

/** Which columns a caller knows of (see knownToWriter in read-scope.ts); undefined = every column. */
export type KnownColumn = ((c: ColumnModel) => boolean) | undefined;

/**
 * A new row cannot be made when a column it needs (required, without a default) is hidden from the
 * caller: said without naming the column, as for a column the table does not have.
 */
export const HIDDEN_REQUIRED = 'A new row needs values you may not set';

/**
 * A stored column a write may set; virtual columns answer 400. A column outside `known` (hidden from
 * the caller) answers as a column the table does not have.
 */
export function writableColumn(t: TableModel, name: string, known?: KnownColumn): ColumnModel {
  const c = resolveColumn(t, name);
  if (known && !known(c)) throw badRequest(`Column '${name.trim()}' not found`);
  if (c.virtual) throw badRequest(`'${c._cn}' is a computed column`);
  return c;
}
