/**
 * Rollups and lookups as correlated scalar sub-selects over one relation, so a page of rows
 * computes them in its one query. The outer table is referenced by `outer` (its SQL name, or the
 * alias the enclosing query gives it); the related table is `__r` (and the junction `__j`).
 */
import type { Cond, Expr, Select } from '../sql/ast';
import type { StoredRelation } from '../meta/models-repo';
import type { ColumnModel, RelationModel, TableModel } from './model';

/** The stored identity of a relation. */
export function relationKey(r: RelationModel): StoredRelation {
  return { type: r.type, rtn: r.rtn, via: r.type === 'mm' ? [r.junction!.tn] : r.childColumns };
}

/** The relation of `t` a stored identity names, if it still exists. */
export function findStoredRelation(t: TableModel, k: StoredRelation): RelationModel | undefined {
  return t.relations.find((r) => {
    const rk = relationKey(r);
    return rk.type === k.type && rk.rtn === k.rtn && rk.via.join('\u0000') === k.via.join('\u0000');
  });
}

const link = (a: string[], aTable: string, b: string[], bTable: string): Cond => ({
  kind: 'and',
  items: a.map((c, i) => ({ kind: 'cmp', op: '=', left: { kind: 'col', name: c, table: aTable }, right: { kind: 'col', name: b[i]!, table: bTable } }) as Cond),
});

/** SELECT <value> FROM the related rows of one outer row. */
export function relatedSelect(t: TableModel, rel: RelationModel, value: Expr, outer: string): Select {
  const schema = t.schema;
  if (rel.type === 'hm') {
    return { kind: 'select', from: { name: rel.childTable, schema, alias: '__r' }, columns: [{ expr: value }], where: link(rel.childColumns, '__r', rel.parentColumns, outer) };
  }
  if (rel.type === 'bt') {
    return { kind: 'select', from: { name: rel.parentTable, schema, alias: '__r' }, columns: [{ expr: value }], where: link(rel.parentColumns, '__r', rel.childColumns, outer) };
  }
  const j = rel.junction!;
  return {
    kind: 'select',
    from: { name: rel.rtn, schema, alias: '__r' },
    joins: [{ type: 'inner', table: { name: j.tn, schema, alias: '__j' }, on: link(j.targetRefColumns, '__r', j.targetColumns, '__j') }],
    columns: [{ expr: value }],
    where: link(j.columns, '__j', j.refColumns, outer),
  };
}

type RollupFn = 'count' | 'min' | 'max' | 'avg' | 'sum' | 'countDistinct';

/** The aggregate of a child column over the related rows. */
export function rollupExpr(t: TableModel, rel: RelationModel, target: ColumnModel, fn: RollupFn, outer: string): Expr {
  const c: Expr = { kind: 'col', name: target.cn, table: '__r' };
  const agg: Expr = fn === 'countDistinct' ? { kind: 'fn', name: 'count', args: [c], distinct: true } : { kind: 'fn', name: fn, args: [c] };
  return { kind: 'subquery', query: relatedSelect(t, rel, agg, outer) };
}

/** The related row's value (belongs-to), or the related values joined by ', ' (has-many, many-to-many). */
export function lookupExpr(t: TableModel, rel: RelationModel, target: ColumnModel, outer: string): Expr {
  const c: Expr = { kind: 'col', name: target.cn, table: '__r' };
  const value: Expr = rel.type === 'bt' ? c : { kind: 'formulaFn', name: 'groupConcat', args: [c] };
  return { kind: 'subquery', query: relatedSelect(t, rel, value, outer) };
}
