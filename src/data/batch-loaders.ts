/**
 * Batch entry points for callers that resolve relations row by row (GraphQL): related rows and
 * child counts for MANY parent rows at once, one query per relation, built on the same nested
 * loader the REST API uses.
 */
import type { Cond } from '../sql/ast';
import type { RelationModel, TableModel } from '../schema/model';
import { andCond, readScope, scopeNested } from './read-scope';
import { executorOf, tableOf, type DataContext } from './data-context';
import { loadNested, tupleIn } from './nested';
import { keyString, keyValues, tableRef } from './select-builder';
import type { NestedQuery } from './list-query';

/** Related rows for each parent row, in the order given (hm/mm lists, bt single row or null). */
export async function loadRelatedFor(dc: DataContext, t: TableModel, parents: Record<string, unknown>[], n: NestedQuery): Promise<unknown[]> {
  const scoped = scopeNested(dc, n);
  // The parents are only read; the related rows land in holders of their own.
  const holders = parents.map(() => ({}) as Record<string, unknown>);
  await loadNested(dc, t, parents, holders, [scoped]);
  const key = n.as ?? (n.relation.type === 'hm' ? `${n.relation.alias}List` : n.relation.type === 'mm' ? `${n.relation.alias}MMList` : `${n.relation.alias}Read`);
  return holders.map((c) => (c as Record<string | symbol, unknown>)[key]);
}

/** Number of has-many children of each parent row, with one GROUP BY query. */
export async function countChildrenFor(dc: DataContext, t: TableModel, parents: Record<string, unknown>[], rel: RelationModel, where?: Cond): Promise<number[]> {
  const child = tableOf(dc, rel.childTable);
  const scope = readScope(dc, child);
  where = andCond(where, scope.where);
  const tuples = parents.map((p) => keyValues(t, p, rel.parentColumns)).filter((k) => k.every((v) => v !== null && v !== undefined));
  const counts = new Map<string, number>();
  if (tuples.length) {
    const link = tupleIn(rel.childColumns, undefined, tuples, rel.childColumns.map((cn) => child.columns.find((c) => c.cn === cn)!));
    const q = dc.pdb.db.dialect.compile({
      kind: 'select',
      from: tableRef(child),
      columns: [...rel.childColumns.map((cn, i) => ({ expr: { kind: 'col', name: cn } as const, as: `__k${i}` })), { expr: { kind: 'fn', name: 'count', args: [{ kind: 'star' }] }, as: '__n' }],
      where: where ? { kind: 'and', items: [link, where] } : link,
      groupBy: rel.childColumns.map((cn) => ({ kind: 'col', name: cn })),
    });
    for (const r of await executorOf(dc).query<Record<string, unknown>>(q)) counts.set(keyString(rel.childColumns.map((_, i) => r[`__k${i}`])), Number(r.__n));
  }
  return parents.map((p) => counts.get(keyString(keyValues(t, p, rel.parentColumns))) ?? 0);
}
