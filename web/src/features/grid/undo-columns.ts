/**
 * The columns of undo steps by their SQL names. A step keeps values under the columns' display names
 * as they were when it was taken; when someone renamed a column since, an undo is refused (the row no
 * longer reads as the step left it), and the refusal names the column as it is called now.
 */
import { dashboardApi, type TableMeta } from '../../api/dashboard';

/** Where a step's table is, and the SQL name of each of its columns (by display name), when it was taken. */
export interface StepOrigin {
  dbAlias: string;
  tn: string;
  cns: Record<string, string>;
}

/** The grids' tables as last read, by project and display name. */
const tables = new Map<string, { dbAlias: string; tn: string; cnOf: Map<string, string> }>();
const keyOf = (projectId: string, table: string) => `${projectId}\u0000${table}`;

/** A grid's table as read now (again after a schema change): steps taken from now on know its columns. */
export function knowTable(projectId: string, dbAlias: string, meta: Pick<TableMeta, 'tn' | '_tn' | 'columns'>): void {
  tables.set(keyOf(projectId, meta._tn), { dbAlias, tn: meta.tn, cnOf: new Map(meta.columns.map((c) => [c._cn, c.cn])) });
}

/** The origin of a step of `table` writing `columns`, when a grid showed that table. */
export function originOf(projectId: string, table: string, columns: string[]): StepOrigin | undefined {
  const known = tables.get(keyOf(projectId, table));
  if (!known) return undefined;
  const cns: Record<string, string> = {};
  for (const c of columns) {
    const cn = known.cnOf.get(c);
    if (cn !== undefined) cns[c] = cn;
  }
  return { dbAlias: known.dbAlias, tn: known.tn, cns };
}

/**
 * The names `columns` (as the step knew them) have now: a column the row read now lacks was renamed
 * (or removed) since, and is named as the table calls it now, found by its SQL name.
 */
export async function namesNow(projectId: string, origin: StepOrigin | undefined, columns: string[], current: Record<string, unknown>): Promise<string[]> {
  const renamed = columns.filter((c) => !(c in current) && origin?.cns[c] !== undefined);
  if (!origin || !renamed.length) return columns;
  const meta = await dashboardApi.tableMeta(projectId, origin.dbAlias, origin.tn).catch(() => null);
  if (!meta) return columns;
  return columns.map((c) => (renamed.includes(c) ? (meta.columns.find((m) => m.cn === origin.cns[c])?._cn ?? c) : c));
}
