/**
 * The name of the unique constraint (MySQL: unique index) that covers exactly one column, read
 * from the catalogue, so a schema change can drop a constraint it did not create.
 */
import type { Database } from './dialect';

const QUERIES: Partial<Record<Database['dialect']['engine'], string>> = {
  pg: `SELECT tc.constraint_name AS name FROM information_schema.table_constraints tc
       JOIN information_schema.key_column_usage k ON k.constraint_name = tc.constraint_name AND k.table_schema = tc.table_schema AND k.table_name = tc.table_name
       WHERE tc.constraint_type = 'UNIQUE' AND tc.table_schema = current_schema() AND tc.table_name = $1 AND k.column_name = $2
         AND (SELECT COUNT(*) FROM information_schema.key_column_usage k2 WHERE k2.constraint_name = tc.constraint_name AND k2.table_schema = tc.table_schema) = 1`,
  mysql: `SELECT s.INDEX_NAME AS name FROM information_schema.STATISTICS s
          WHERE s.TABLE_SCHEMA = DATABASE() AND s.TABLE_NAME = ? AND s.COLUMN_NAME = ? AND s.NON_UNIQUE = 0 AND s.INDEX_NAME <> 'PRIMARY'
            AND (SELECT COUNT(*) FROM information_schema.STATISTICS s2 WHERE s2.TABLE_SCHEMA = s.TABLE_SCHEMA AND s2.TABLE_NAME = s.TABLE_NAME AND s2.INDEX_NAME = s.INDEX_NAME) = 1`,
  mssql: `SELECT kc.name AS name FROM sys.key_constraints kc
          JOIN sys.index_columns ic ON ic.object_id = kc.parent_object_id AND ic.index_id = kc.unique_index_id
          JOIN sys.columns c ON c.object_id = ic.object_id AND c.column_id = ic.column_id
          WHERE kc.type = 'UQ' AND kc.parent_object_id = OBJECT_ID(@p1) AND c.name = @p2`,
};

/** The constraint name, or null when none covers exactly this column (or the engine is SQLite). */
export async function findUniqueConstraint(db: Database, table: string, column: string): Promise<string | null> {
  const sql = QUERIES[db.dialect.engine];
  if (!sql) return null;
  const [row] = await db.driver.query<{ name: string }>({ sql, params: [table, column] });
  return row ? String(row.name) : null;
}
