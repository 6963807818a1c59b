/** The grid's columns: the table's database columns, then its virtual columns (read-only, computed). */
import type { ColumnMeta, TableMeta, VirtualMeta } from '../../api/dashboard';

/** A grid column; `virtual` is set for a formula, rollup or lookup (rows carry it under its alias). */
export type GridColumn = ColumnMeta & { virtual?: VirtualMeta };

/** The columns the grid shows, in order. */
export function gridColumns(meta: TableMeta): GridColumn[] {
  const virtuals = (meta.virtuals ?? []).map(
    (v): GridColumn => ({ cn: v._cn, _cn: v._cn, uidt: v.uidt, kind: 'virtual', dt: v.uidt.toLowerCase(), pk: false, ai: false, nullable: true, enumValues: null, hidden: false, virtual: v }),
  );
  return [...meta.columns, ...virtuals];
}
