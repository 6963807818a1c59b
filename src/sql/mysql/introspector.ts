/** MySQL/MariaDB catalogue (information_schema) for the connection's database. */
import type { Executor } from '../dialect';
import { num, parseEnumValues, type Introspector, type RawSchema } from '../introspection';

const q = (exec: Executor, sql: string) => exec.query<Record<string, any>>({ sql, params: [] });

/** MariaDB reports a NULL default as the text 'NULL' and quotes string defaults. */
function cleanDefault(d: unknown): string | null {
  if (d === null || d === undefined || d === 'NULL') return null;
  return String(d);
}

/** Why a view without columns cannot be read (the server says it in a warning only). */
const BROKEN_VIEW = 'the view references a table, column or function that no longer exists, or its definer lacks rights to use them';

export const mysqlIntrospector: Introspector = {
  async read(exec): Promise<RawSchema> {
    const tables = await q(
      exec,
      `SELECT TABLE_NAME AS name, TABLE_TYPE AS type FROM information_schema.TABLES
       WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME`,
    );
    const columns = await q(
      exec,
      `SELECT TABLE_NAME AS tbl, COLUMN_NAME AS name, DATA_TYPE AS data_type, COLUMN_TYPE AS column_type,
              IS_NULLABLE AS is_nullable, COLUMN_DEFAULT AS column_default, EXTRA AS extra,
              CHARACTER_MAXIMUM_LENGTH AS len, NUMERIC_PRECISION AS prec, NUMERIC_SCALE AS scale, ORDINAL_POSITION AS pos
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    );
    const keys = await q(
      exec,
      `SELECT CONSTRAINT_NAME AS name, TABLE_NAME AS tbl, COLUMN_NAME AS col, REFERENCED_TABLE_NAME AS ref_table,
              REFERENCED_COLUMN_NAME AS ref_col, ORDINAL_POSITION AS position
       FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`,
    );
    const uniques = await q(
      exec,
      `SELECT TABLE_NAME AS tbl, MIN(COLUMN_NAME) AS col FROM information_schema.STATISTICS
       WHERE TABLE_SCHEMA = DATABASE() AND NON_UNIQUE = 0 AND INDEX_NAME <> 'PRIMARY'
       GROUP BY TABLE_NAME, INDEX_NAME HAVING COUNT(*) = 1`,
    );
    const routines = await q(
      exec,
      `SELECT ROUTINE_NAME AS name, ROUTINE_TYPE AS type, ROUTINE_DEFINITION AS definition
       FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = DATABASE() ORDER BY ROUTINE_NAME`,
    );
    // MariaDB keeps JSON as LONGTEXT guarded by CHECK (json_valid(col)); MySQL has a real json type.
    const jsonCols = new Set<string>();
    const checks = await q(
      exec,
      `SELECT TABLE_NAME AS tbl, CHECK_CLAUSE AS clause FROM information_schema.CHECK_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE()`,
    ).catch(() => [] as Record<string, any>[]);
    for (const ch of checks) {
      const m = /^json_valid\(`([^`]+)`\)$/i.exec(String(ch.clause ?? '').trim());
      if (m) jsonCols.add(`${ch.tbl}\u0000${m[1]}`);
    }
    return {
      // MariaDB and MySQL list no columns for a view over a dropped table or column.
      tables: tables.map((t) => {
        const view = t.type === 'VIEW';
        return view && !columns.some((c) => c.tbl === t.name) ? { name: t.name, type: 'view' as const, broken: BROKEN_VIEW } : { name: t.name, type: view ? ('view' as const) : ('table' as const) };
      }),
      columns: columns.map((c) => {
        const type = String(c.data_type).toLowerCase();
        const full = String(c.column_type);
        return {
          table: c.tbl,
          name: c.name,
          // tinyint(1) is MySQL's boolean; wider tinyints are numbers.
          type: jsonCols.has(`${c.tbl}\u0000${c.name}`) ? 'json' : type === 'tinyint' && !/^tinyint\(1\)/i.test(full) ? 'smallint' : type,
          fullType: full,
          nullable: c.is_nullable === 'YES',
          default: cleanDefault(c.column_default),
          ai: /auto_increment/i.test(String(c.extra ?? '')),
          length: num(c.len),
          precision: num(c.prec),
          scale: num(c.scale),
          enumValues: type === 'enum' || type === 'set' ? parseEnumValues(full) : undefined,
          position: Number(c.pos),
        };
      }),
      pks: keys.filter((k) => k.name === 'PRIMARY').map((k) => ({ table: k.tbl, column: k.col, position: Number(k.position) })),
      fks: keys
        .filter((k) => k.ref_table)
        .map((k) => ({ name: k.name, table: k.tbl, column: k.col, refTable: k.ref_table, refColumn: k.ref_col, position: Number(k.position) })),
      uniques: uniques.map((u) => ({ table: u.tbl, column: u.col, position: 1 })),
      functions: routines.filter((r) => r.type === 'FUNCTION').map((r) => ({ name: r.name, definition: r.definition ?? null })),
      procedures: routines.filter((r) => r.type === 'PROCEDURE').map((r) => ({ name: r.name, definition: r.definition ?? null })),
      sequences: [],
    };
  },
};
