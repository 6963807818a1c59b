/**
 * Builds SELECTs over one table from a ListQuery and turns driver rows into API rows keyed by
 * column aliases. Key columns that nesting needs are selected under internal names and dropped
 * from the answer.
 */
import type { Cond, OrderItem, Select, SelectItem } from '../sql/ast';
import type { ColumnModel, TableModel } from '../schema/model';
import { outputValue } from './values';
import { columnExpr } from './columns';

/** Internal name of a key column selected for nesting. */
export const keyAlias = (cn: string) => `__k_${cn}`;

export function tableRef(t: TableModel, alias?: string) {
  return { name: t.tn, schema: t.schema, alias };
}

export function selectItems(t: TableModel, fields: ColumnModel[], extraKeys: string[] = [], table?: string): SelectItem[] {
  const items: SelectItem[] = fields.map((c) => ({ expr: columnExpr(c, table), as: c._cn }));
  for (const k of new Set(extraKeys)) items.push({ expr: { kind: 'col', name: k, table }, as: keyAlias(k) });
  return items;
}

export function buildSelect(
  t: TableModel,
  q: { fields: ColumnModel[]; where?: Cond; sort?: OrderItem[]; limit?: number; offset?: number },
  extraKeys: string[] = [],
): Select {
  return {
    kind: 'select',
    from: tableRef(t),
    columns: selectItems(t, q.fields, extraKeys),
    where: q.where,
    orderBy: q.sort,
    limit: q.limit,
    offset: q.offset,
  };
}

/** API row from a driver row: aliases with engine-neutral values; internal keys kept apart. */
export function toApiRow(fields: ColumnModel[], raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of fields) out[c._cn] = outputValue(c, raw[c._cn]);
  return out;
}

/** The raw key values of a row (internal key columns, else the aliased field). */
export function keyValues(t: TableModel, raw: Record<string, unknown>, cns: string[]): unknown[] {
  return cns.map((cn) => (keyAlias(cn) in raw ? raw[keyAlias(cn)] : raw[t.columns.find((c) => c.cn === cn)!._cn]));
}

/** A stable string for a tuple of key values (numbers and numeric strings compare equal). */
export const keyString = (values: unknown[]) => values.map((v) => (v === null || v === undefined ? '\u0000' : String(v))).join('\u0001');

/** Whether exact 64-bit integers must be asked of the driver for these columns. */
export const needsExact = (fields: ColumnModel[]) => fields.some((c) => c.kind === 'bigint');
