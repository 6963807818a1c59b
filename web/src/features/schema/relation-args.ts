/** How a relation shown in a grid is named to relationDelete. */
import type { RelationMeta, TableMeta } from '../../api/dashboard';
import type { DbScope } from '../../api/schema';

/** A relation shown as a column of the grid of `meta`. */
export interface RelationTarget {
  scope: DbScope;
  meta: TableMeta;
  relation: RelationMeta;
}

/** The relationDelete arguments of a relation seen from `meta` (a belongs-to is its parent's has-many). */
export function relationDeleteArgs(t: RelationTarget): { type: 'hm' | 'mm'; parentTn: string; childTn: string } {
  const r = t.relation;
  if (r.type === 'bt') return { type: 'hm', parentTn: r.table, childTn: t.meta.tn };
  return { type: r.type, parentTn: t.meta.tn, childTn: r.table };
}
