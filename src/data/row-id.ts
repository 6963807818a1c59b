/** Row ids in URLs: the primary key values, joined by `___` for composite keys. */
import type { Cond } from '../sql/ast';
import type { TableModel } from '../schema/model';
import { badRequest } from '../lib/errors';
import { resolveColumn } from './columns';
import { coerceValue } from './values';

export const ID_SEPARATOR = '___';

/** Refuses writes to tables without a primary key with a clear message. */
export function requirePk(t: TableModel): void {
  // A view first: it has no primary key either, and 'has no primary key' sent its callers looking for one.
  if (t.type === 'view') throw badRequest(`'${t._tn}' is a SQL view: it is read-only`);
  if (t.pks.length === 0) throw badRequest(`'${t._tn}' has no primary key: its rows can be read but not changed through the API`);
}

/** The key values of a row id, each converted to its column's type (400 when one does not fit). */
export function idValues(t: TableModel, id: string): unknown[] {
  if (t.pks.length === 0) throw badRequest(`'${t._tn}' has no primary key: rows cannot be addressed by id`);
  const parts = t.pks.length === 1 ? [id] : id.split(ID_SEPARATOR);
  if (parts.length !== t.pks.length) throw badRequest(`'${id}' is not a valid id of '${t._tn}': expected ${t.pks.length} values joined by ${ID_SEPARATOR}`);
  return t.pks.map((pk, i) => coerceValue(resolveColumn(t, pk), parts[i]));
}

/** The WHERE of one row by its key values (every key column, in the order of `t.pks`). */
export function keyCondition(t: TableModel, values: readonly unknown[], table?: string): Cond {
  const items: Cond[] = t.pks.map((pk, i) => ({ kind: 'cmp', op: '=', left: { kind: 'col', name: resolveColumn(t, pk).cn, table }, right: { kind: 'val', value: values[i] as never } }));
  return items.length === 1 ? items[0]! : { kind: 'and', items };
}

/**
 * Most ids in one idsCondition of a composite key: an OR of that many key matches (SQLite refuses an
 * expression tree deeper than 1000).
 */
export const MAX_COMPOSITE_IDS = 200;

/** The WHERE of several rows by their ids: `key IN (...)` for one key column, else an OR of key matches. */
export function idsCondition(t: TableModel, ids: readonly string[], table?: string): Cond {
  if (ids.length === 1) return idCondition(t, ids[0]!, table);
  if (t.pks.length === 1) {
    const c = resolveColumn(t, t.pks[0]!);
    return { kind: 'in', left: { kind: 'col', name: c.cn, table }, values: ids.map((id) => ({ kind: 'val', value: idValues(t, id)[0] as never })) };
  }
  return { kind: 'or', items: ids.map((id) => idCondition(t, id, table)) };
}

/** The WHERE of one row by its id (every key column). */
export function idCondition(t: TableModel, id: string, table?: string): Cond {
  return keyCondition(t, idValues(t, id), table);
}

/** The id of an output row (keyed by aliases). */
export function rowId(t: TableModel, row: Record<string, unknown>): string {
  const aliases = pkAliases(t);
  if (aliases.length === 1) return String(row[aliases[0]!]);
  return aliases.map((a) => String(row[a])).join(ID_SEPARATOR);
}

const aliasCache = new WeakMap<TableModel, string[]>();
/** The API aliases of a table's key columns, in key order. */
function pkAliases(t: TableModel): string[] {
  let aliases = aliasCache.get(t);
  if (!aliases) aliasCache.set(t, (aliases = t.pks.map((pk) => t.columns.find((c) => c.cn === pk)!._cn)));
  return aliases;
}
