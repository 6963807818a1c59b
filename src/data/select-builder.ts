/**
 * Builds SELECTs over one table from a ListQuery and turns driver rows into API rows keyed by
 * column aliases. Key columns that nesting needs are selected under internal names and dropped
 * from the answer.
 */
import type { Cond, OrderItem, Select, SelectItem } from '../sql/ast';
import type { ColumnModel, TableModel } from '../schema/model';
import { outputValue } from './values';
import { columnExpr } from './columns';

const keyAliases = new Map<string, string>();
/** Internal name of a key column selected for nesting. */
export const keyAlias = (cn: string): string => {
  let a = keyAliases.get(cn);
  if (a === undefined) {
    a = `__k_${cn}`;
    if (keyAliases.size >= 10_000) keyAliases.clear();
    keyAliases.set(cn, a);
  }
  return a;
};

export function tableRef(t: TableModel, alias?: string) {
  return { name: t.tn, schema: t.schema, alias };
}

export function selectItems(t: TableModel, fields: ColumnModel[], extraKeys: string[] = [], table?: string): SelectItem[] {
  const items: SelectItem[] = fields.map((c) => ({ expr: columnExpr(c, table), as: c._cn }));
  for (const k of new Set(extraKeys)) items.push({ expr: { kind: 'col', name: k, table }, as: keyAlias(k) });
  return items;
}

/**
 * The key columns not already selected as plain fields: those are read under their alias
 * (keyValues looks there), so the SELECT does not carry them twice.
 */
export function keysToAdd(fields: ColumnModel[], keys: string[]): string[] {
  return keys.filter((k) => !fields.some((c) => !c.virtual && c.cn === k));
}

export function buildSelect(
  t: TableModel,
  q: { fields: ColumnModel[]; where?: Cond; sort?: OrderItem[]; limit?: number; offset?: number },
  extraKeys: string[] = [],
): Select {
  return {
    kind: 'select',
    from: tableRef(t),
    columns: selectItems(t, q.fields, keysToAdd(q.fields, extraKeys)),
    where: q.where,
    orderBy: q.sort,
    limit: q.limit,
    offset: q.offset,
  };
}

const aliasesOf = new WeakMap<TableModel, Map<string, string>>();
/** The API alias of a column by SQL name (remembered per table model). */
function aliasOf(t: TableModel, cn: string): string {
  let byCn = aliasesOf.get(t);
  if (!byCn) aliasesOf.set(t, (byCn = new Map(t.columns.map((c) => [c.cn, c._cn]))));
  return byCn.get(cn)!;
}

/** The raw key values of a row (internal key columns, else the aliased field). */
export function keyValues(t: TableModel, raw: Record<string, unknown>, cns: string[]): unknown[] {
  const out = new Array<unknown>(cns.length);
  for (let i = 0; i < cns.length; i++) {
    const cn = cns[i]!;
    const alias = keyAlias(cn);
    out[i] = alias in raw ? raw[alias] : raw[aliasOf(t, cn)];
  }
  return out;
}

/** Reads one key column of rows: the internal key column when the row has it, else the aliased field. */
export function keyReader(t: TableModel, cn: string): (raw: Record<string, unknown>) => unknown {
  const internal = keyAlias(cn);
  const alias = aliasOf(t, cn);
  return (raw) => (internal in raw ? raw[internal] : raw[alias]);
}

/**
 * A map key for one key value, equal for two values exactly when their strings are (as keyString),
 * without making a string of a number: a number stays itself, a string that is a number's own
 * spelling becomes that number, anything else its string.
 */
export function valueKey(v: unknown): unknown {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const n = Number(v);
    return v !== '' && String(n) === v ? n : v;
  }
  if (typeof v === 'bigint') return v >= -MAX_SAFE && v <= MAX_SAFE ? Number(v) : String(v);
  return v === null || v === undefined ? '\u0000' : String(v);
}
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

const keyPart = (v: unknown) => (v === null || v === undefined ? '\u0000' : String(v));
/** A stable string for a tuple of key values (numbers and numeric strings compare equal). */
export const keyString = (values: unknown[]): string => (values.length === 1 ? keyPart(values[0]) : values.map(keyPart).join('\u0001'));

/** Whether exact 64-bit integers must be asked of the driver for these columns. */
export const needsExact = (fields: ColumnModel[]) => fields.some((c) => c.kind === 'bigint');
