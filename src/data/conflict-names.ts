/**
 * Conflict messages (409) in the words of the grid: the driver names SQL columns and tables
 * ("A row with the same user_email already exists"); the data core puts the display names of the
 * model in their place ("A row with the same UserEmail already exists").
 */
import { AppError } from '../lib/errors';
import type { TableModel } from '../schema/model';
import type { ProjectDb } from '../schema/project-db';

/**
 * Display names for a comma-separated list of SQL column names (unknown names stay as they are);
 * MariaDB names the primary key's index, PRIMARY, for its columns.
 */
function columnNames(t: TableModel, what: string): string {
  if (what === 'PRIMARY' && t.pks.length && !t.columns.some((c) => c.cn === 'PRIMARY')) what = t.pks.join(', ');
  return what
    .split(/,\s*/)
    .map((n) => {
      const bare = n.replace(/^["`[]|["`\]]$/g, '');
      const c = t.columns.find((x) => x.cn === bare) ?? t.columns.find((x) => x.cn.toLowerCase() === bare.toLowerCase());
      return c ? c._cn : n;
    })
    .join(', ');
}

/** The same error with the display names of `t` (and of the referring table) in a conflict's message. */
export function withDisplayNames(pdb: ProjectDb, t: TableModel, e: unknown): unknown {
  if (!(e instanceof AppError) || e.status !== 409) return e;
  e.message = e.message
    .replace(/^((?:Row \d+: )?A row with the same )(.+)( already exists)$/, (_, a: string, what: string, b: string) => a + columnNames(t, what) + b)
    .replace(/^((?:Row \d+: )?The value of )(.+)( does not match any row it refers to)$/, (_, a: string, what: string, b: string) => a + columnNames(t, what) + b)
    .replace(/\(table (.+)\)$/, (_, tn: string) => `(table ${pdb.table(tn)?._tn ?? tn})`);
  return e;
}

/** Runs a write of `t`, answering its conflicts with display names. */
export async function namingConflicts<T>(pdb: ProjectDb, t: TableModel, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw withDisplayNames(pdb, t, e);
  }
}
