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

/** The WHERE of one row by its id (every key column). */
export function idCondition(t: TableModel, id: string, table?: string): Cond {
  if (t.pks.length === 0) throw badRequest(`'${t._tn}' has no primary key: rows cannot be addressed by id`);
  const parts = t.pks.length === 1 ? [id] : id.split(ID_SEPARATOR);
  if (parts.length !== t.pks.length) throw badRequest(`'${id}' is not a valid id of '${t._tn}': expected ${t.pks.length} values joined by ${ID_SEPARATOR}`);
  const items: Cond[] = t.pks.map((pk, i) => {
    const c = resolveColumn(t, pk);
    return { kind: 'cmp', op: '=', left: { kind: 'col', name: c.cn, table }, right: { kind: 'val', value: coerceValue(c, parts[i]) } };
  });
  return items.length === 1 ? items[0]! : { kind: 'and', items };
}

/** The id of an output row (keyed by aliases). */
export function rowId(t: TableModel, row: Record<string, unknown>): string {
  return t.pks.map((pk) => String(row[t.columns.find((c) => c.cn === pk)!._cn])).join(ID_SEPARATOR);
}
