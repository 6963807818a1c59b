/**
 * What a caller may see of a table, applied to every read: the table model cut to the readable
 * columns (fields, filters and sorts resolve against it), the row condition ANDed into the query,
 * and nested relations limited the same way on their own tables.
 */
import type { Cond } from '../sql/ast';
import type { TableModel } from '../schema/model';
import { assertCan, grantCondition, grantOf, grantsColumn, restrictTable, type Grant } from './access';
import { tableOf, type DataContext } from './data-context';
import type { NestedQuery } from './list-query';
import { findColumn } from './columns';
import { defaultNestedFields } from './nested';

export interface ReadScope {
  grant: Grant;
  /** The table with only the readable columns. */
  table: TableModel;
  /** The row condition, or undefined for every row. */
  where?: Cond;
}

/** The caller's read scope of a table, or 403. */
export function readScope(dc: DataContext, t: TableModel, alias?: string): ReadScope {
  const grant = assertCan(dc.actor, t, 'read', dc.acl);
  return { grant, table: restrictTable(t, grant), where: grantCondition(grant, t, alias) };
}

/** The readable version of a table for look-ups that must not refuse (relations of a list). */
export function readableTable(dc: DataContext, t: TableModel): TableModel {
  const g = grantOf(dc.actor, dc.acl, t, 'read');
  return g ? restrictTable(t, g) : t;
}

/** ANDs conditions, skipping absent ones. */
export function andCond(...conds: (Cond | undefined)[]): Cond | undefined {
  const items = conds.filter((c): c is Cond => !!c);
  return items.length === 0 ? undefined : items.length === 1 ? items[0] : { kind: 'and', items };
}

/** A `fields` list without the columns the grant hides (they are dropped, not refused). */
export function dropHiddenFields(t: TableModel, g: Grant, v: string | undefined): string | undefined {
  if (!v || g.columns === null) return v;
  const kept = v.split(',').filter((name) => {
    const c = findColumn(t, name.trim());
    return !c || grantsColumn(g, c);
  });
  return kept.length ? kept.join(',') : undefined;
}

/** A nested relation limited to what the caller may read of the related table (403 if nothing). */
export function scopeNested(dc: DataContext, n: NestedQuery): NestedQuery {
  const target = tableOf(dc, n.relation.rtn);
  const s = readScope(dc, target);
  const fields = (n.fields ?? defaultNestedFields(s.table)).filter((c) => grantsColumn(s.grant, c));
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
