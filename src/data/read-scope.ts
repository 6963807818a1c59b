/**
 * What a caller may see of a table, applied to every read: the table model cut to the readable
 * columns (fields, filters and sorts resolve against it), the row condition ANDed into the query,
 * and nested relations limited the same way on their own tables.
 */
import type { Cond } from '../sql/ast';
import type { ColumnModel, TableModel } from '../schema/model';
import { forbidden } from '../lib/errors';
import { assertCan, grantCondition, grantOf, grantsColumn, isUnrestricted, restrictTable, type Grant } from './access';
import { tableOf, type DataContext } from './data-context';
import type { NestedQuery } from './list-query';
import { virtualColumns, type KnownColumn } from './columns';
import { defaultNestedFields } from './nested';
import { scopeVirtuals } from './virtual-scope';

export interface ReadScope {
  grant: Grant;
  /** The table with only the readable columns. */
  table: TableModel;
  /** The row condition, or undefined for every row. */
  where?: Cond;
}

/** The table cut to what a grant lets the caller read: columns, and computed columns (virtual-scope.ts). */
export function visibleTable(dc: DataContext, t: TableModel, grant: Grant): TableModel {
  if (isUnrestricted(dc.actor)) return t;
  return scopeVirtuals(dc, t, restrictTable(t, grant));
}

/** The caller's read scope of a table, or 403. */
export function readScope(dc: DataContext, t: TableModel, alias?: string): ReadScope {
  const grant = assertCan(dc.actor, t, 'read', dc.acl);
  return { grant, table: visibleTable(dc, t, grant), where: grantCondition(grant, t, alias) };
}

/** The readable version of a table for look-ups that must not refuse (relations of a list). */
export function readableTable(dc: DataContext, t: TableModel): TableModel {
  const g = grantOf(dc.actor, dc.acl, t, 'read');
  return g ? visibleTable(dc, t, g) : t;
}

/**
 * The project's model as the caller may read it: the tables they may read, each with its readable
 * columns and the relations to tables they may read (what generated documents and schemas name:
 * the OpenAPI document, the GraphQL schema). Unrestricted callers get the model itself.
 */
export function readableModel(dc: DataContext): DataContext['pdb']['model'] {
  if (isUnrestricted(dc.actor)) return dc.pdb.model;
  const tables = dc.pdb.model.tables.filter((t) => grantOf(dc.actor, dc.acl, t, 'read')).map((t) => readableTable(dc, t));
  const kept = new Set(tables.map((t) => t.tn));
  return { ...dc.pdb.model, tables: tables.map((t) => ({ ...t, relations: t.relations.filter((r) => kept.has(r.rtn)) })) };
}

/**
 * A related table as a filter across relations may use it (conditionGraph): its readable columns
 * and its row condition on the alias the filter gives it; undefined when the caller may not read it.
 */
export function filterableTable(dc: DataContext, t: TableModel, alias: string): { table: TableModel; where?: Cond } | undefined {
  const g = grantOf(dc.actor, dc.acl, t, 'read');
  return g ? { table: visibleTable(dc, t, g), where: grantCondition(g, t, alias) } : undefined;
}

/** ANDs conditions, skipping absent ones. */
export function andCond(...conds: (Cond | undefined)[]): Cond | undefined {
  const items = conds.filter((c): c is Cond => !!c);
  return items.length === 0 ? undefined : items.length === 1 ? items[0] : { kind: 'and', items };
}

/** Refuses (403 naming it) the first of `cols` the caller may not read, computed columns included. */
export function assertReadable(dc: DataContext, t: TableModel, cols: ColumnModel[]): void {
  if (!cols.length || isUnrestricted(dc.actor)) return;
  const s = readScope(dc, t);
  for (const c of cols) {
    const ok = c.virtual ? !!s.table.virtuals?.some((v) => v._cn === c._cn) : grantsColumn(s.grant, c);
    if (!ok) throw forbidden(`Not allowed to read column '${c._cn}' of '${t._tn}'`);
  }
}

/** A nested relation limited to what the caller may read of the related table (403 if nothing). */
export function scopeNested(dc: DataContext, n: NestedQuery): NestedQuery {
  const target = tableOf(dc, n.relation.rtn);
  const s = readScope(dc, target);
  // Computed columns are taken from the scoped table: hidden ones drop out, the rest see only readable rows.
  const fields = (n.fields ?? defaultNestedFields(s.table)).flatMap((c) => (c.virtual ? virtualColumns(s.table).filter((v) => v._cn === c._cn) : grantsColumn(s.grant, c) ? [c] : []));
  return { ...n, fields: fields.length ? fields : s.table.columns, where: andCond(n.where, s.where) };
}

/** A row as the caller may see it after a write: readable columns only (the key alone when none). */
export function visibleRow(dc: DataContext, t: TableModel, row: Record<string, unknown>): Record<string, unknown> {
  const g = grantOf(dc.actor, dc.acl, t, 'read');
  if (g && g.columns === null) return row;
  const out: Record<string, unknown> = {};
  for (const c of t.columns) if ((g ? grantsColumn(g, c) : c.pk) && c._cn in row) out[c._cn] = row[c._cn];
  return out;
}

/**
 * The columns a write by the caller may name (`g`, the write's grant): those they may read or set, and
 * the computed columns they may read. Any other column is hidden from them: a write naming it answers
 * as for a column the table does not have, so it does not tell that the column exists. Undefined
 * when every column may be named.
 */
export function knownToWriter(dc: DataContext, t: TableModel, g: Grant): KnownColumn {
  if (isUnrestricted(dc.actor)) return undefined;
  const read = grantOf(dc.actor, dc.acl, t, 'read');
  if (read?.columns === null && !t.virtuals?.length) return undefined;
  let computed: Set<string> | undefined;
  return (c) => {
    if (!c.virtual) return grantsColumn(g, c) || (!!read && grantsColumn(read, c));
    computed ??= new Set(read ? (visibleTable(dc, t, read).virtuals ?? []).map((v) => v._cn) : []);
    return computed.has(c._cn);
  };
}
