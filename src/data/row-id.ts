/** Row ids in URLs: the primary key values, joined by `___` for composite keys. */
import type { Cond } from '../sql/ast';
import type { TableModel } from '../schema/model';
import { badRequest } from '../lib/errors';
import { resolveColumn } from './columns';
import { coerceValue } from './values';

export const ID_SEPARATOR = '___';

/** Refuses writes to tables without a primary key with a clear message. */
export function requirePk(t: TableModel): void {
  if (t.pks.length === 0) throw badRequest(`'${t._tn}' has no primary key: its rows can be read but not changed through the API`);
  if (t.type === 'view') throw badRequest(`'${t._tn}' is a SQL view: it is read-only`);
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

/** The WHERE of one row by its id (every key column). */
export function idCondition(t: TableModel, id: string, table?: string): Cond {
  return keyCondition(t, idValues(t, id), table);
}

/** The id of an output row (keyed by aliases). */
export function rowId(t: TableModel, row: Record<string, unknown>): string {
  return t.pks.map((pk) => String(row[t.columns.find((c) => c.cn === pk)!._cn])).join(ID_SEPARATOR);
}
