/**
 * MySQL/MariaDB with lower_case_table_names 1 (Windows' default) or 2 (macOS') fold table names to
 * lower case: `RENAME TABLE orders TO Orders` cannot change the name the server keeps, while the
 * project's metadata would move to the new one. Such a rename is refused before it runs.
 */
import type { Driver } from '../dialect';

/** Why a table rename that changes only the case cannot run on a server of this setting (null: it can). */
export function caseOnlyRenameRefusal(lowerCaseTableNames: number): string | null {
  if (lowerCaseTableNames === 0) return null;
  return `This MySQL server stores table names in lower case (lower_case_table_names=${lowerCaseTableNames}): a rename that changes only the case is not possible`;
}

/** The server's lower_case_table_names (0: names kept as written). */
export async function lowerCaseTableNames(driver: Driver): Promise<number> {
  const [row] = await driver.query<{ v: unknown }>({ sql: 'SELECT @@lower_case_table_names AS v', params: [] });
  return Number(row?.v) || 0;
}
