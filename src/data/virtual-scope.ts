/**
 * Virtual columns as a restricted caller may read them. A computed column is readable only when
 * everything it depends on is: a formula when every column and computed column it uses
 * (transitively, formula of formula) is readable; a rollup or lookup when the related table, its
 * column, this table's linking columns (and, for many-to-many, the junction table) are readable.
 * Readable rollups and lookups are computed over the related rows the caller's row condition of
 * the related table admits. Columns that fail the rule are left out of the table, so fields,
 * filters and sorts naming them answer as for an unknown column.
 */
import type { Cond, Expr } from '../sql/ast';
import type { TableModel, VirtualColumnModel } from '../schema/model';
import { formulaTyped } from '../schema/virtual-columns';
import { grantCondition, grantOf, grantsColumn, linkColumnsOf } from './access';
import type { DataContext } from './data-context';

/** What deciding needs of a data context: the model, the caller and the stored rules. */
type Scope = Pick<DataContext, 'pdb' | 'actor' | 'acl'>;

/** The related table's row condition ANDed into a rollup's or lookup's sub-select. */
function withRowCondition(e: Expr, cond: Cond): Expr {
  if (e.kind !== 'subquery') return e;
  const where: Cond = e.query.where ? { kind: 'and', items: [e.query.where, cond] } : cond;
  return { ...e, query: { ...e.query, where } };
}

/** A rollup or lookup as the caller may read it, or undefined when it depends on something hidden. */
function scopeRelational(dc: Scope, t: TableModel, cut: TableModel, v: VirtualColumnModel): VirtualColumnModel | undefined {
  const spec = v.rollup ?? v.lookup;
  if (!spec || !v.expr) return undefined;
  const rel = t.relations.find((r) => r.alias === spec.relation && (!spec.type || r.type === spec.type) && (!spec.rtn || r.rtn === spec.rtn));
  const target = rel && dc.pdb.model.tables.find((x) => x.tn === rel.rtn);
  if (!rel || !target) return undefined;
  const g = grantOf(dc.actor, dc.acl, target, 'read');
  const col = target.columns.find((c) => c._cn === spec.column);
  if (!g || !col || !grantsColumn(g, col)) return undefined;
  if (linkColumnsOf(rel).some((cn) => !cut.columns.some((c) => c.cn === cn))) return undefined;
  if (rel.type === 'mm') {
    const j = dc.pdb.model.tables.find((x) => x.tn === rel.junction!.tn);
    if (j && !grantOf(dc.actor, dc.acl, j, 'read')) return undefined;
  }
  let cond: Cond | undefined;
  try {
    cond = grantCondition(g, target, '__r');
  } catch {
    return undefined; // the related table's row condition is broken: nothing of it is readable
  }
  if (!cond) return v;
  const expr = v.expr;
  return { ...v, expr: (table) => withRowCondition(expr(table), cond) };
}

/**
 * `cut` (the table cut to the readable columns) with only the virtual columns the caller may
 * read, rollups and lookups limited to the related rows the caller may see.
 */
export function scopeVirtuals(dc: Scope, t: TableModel, cut: TableModel): TableModel {
  if (!t.virtuals?.length) return cut;
  const kept = new Map<string, VirtualColumnModel>();
  for (const v of t.virtuals) {
    if (v.uidt === 'Formula') continue;
    // A column that cannot be computed reads NULL: it shows nothing of anything.
    const s = v.error ? v : scopeRelational(dc, t, cut, v);
    if (s) kept.set(v._cn, s);
  }
  // Formulas expand the formulas they use from their text, against the readable columns only.
  const scoped: TableModel = { ...cut, virtuals: t.virtuals.map((v) => kept.get(v._cn) ?? v).filter((v) => v.uidt === 'Formula' || kept.has(v._cn)) };
  for (const v of t.virtuals) {
    if (v.uidt !== 'Formula') continue;
    const text = v.formula?.expr;
    if (v.formula?.error || !text) {
      kept.set(v._cn, v);
      continue;
    }
    try {
      formulaTyped(scoped, text, undefined, [v._cn]);
      kept.set(v._cn, { ...v, expr: (table) => formulaTyped(scoped, text, table, [v._cn]).expr });
    } catch {
      // It uses a column or computed column the caller may not read.
    }
  }
  return { ...cut, virtuals: t.virtuals.map((v) => kept.get(v._cn)).filter((v): v is VirtualColumnModel => !!v) };
}
