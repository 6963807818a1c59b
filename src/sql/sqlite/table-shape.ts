/**
 * Reads what a SQLite table rebuild must recreate (columns with their declared types and
 * defaults, unique constraints, foreign keys, indexes and triggers) from the catalogue.
 */
import type { Executor } from '../dialect';
import type { ColumnDef, ForeignKeyDef, TableShape } from '../ddl';

type Row = Record<string, any>;
const q = (exec: Executor, sql: string, params: string[]) => exec.query<Row>({ sql, params });
const ACTIONS = new Set(['CASCADE', 'SET NULL', 'RESTRICT', 'NO ACTION']);
const action = (v: unknown) => (ACTIONS.has(String(v)) && v !== 'NO ACTION' ? (v as ForeignKeyDef['onDelete']) : undefined);

/** The shape of `table` as SQLite holds it; foreign keys are named fk_<table>_<n> as introspection names them. */
export async function readSqliteTableShape(exec: Executor, table: string): Promise<TableShape> {
  const [master] = await q(exec, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [table]);
  const autoincrement = /\bAUTOINCREMENT\b/i.test(String(master?.sql ?? ''));
  const info = await q(exec, 'SELECT name, type, "notnull" AS nn, dflt_value, pk FROM pragma_table_info(?) ORDER BY cid', [table]);
  const pkCount = info.filter((c) => Number(c.pk) > 0).length;

  const uniques: string[][] = [];
  const single = new Set<string>();
  for (const ix of await q(exec, 'SELECT name, origin FROM pragma_index_list(?) WHERE "unique" = 1', [table])) {
    if (ix.origin !== 'u') continue; // 'c' indexes are replayed from their SQL; 'pk' is the key
    const cols = (await q(exec, 'SELECT name FROM pragma_index_info(?) ORDER BY seqno', [ix.name])).map((r) => String(r.name));
    if (cols.length === 1) single.add(cols[0]!);
    else uniques.push(cols);
  }

  const columns: ColumnDef[] = info.map((c) => {
    const isPk = Number(c.pk) > 0;
    return {
      name: String(c.name),
      type: String(c.type || ''),
      nullable: Number(c.nn) === 0,
      pk: isPk,
      ...(isPk ? { pkOrder: Number(c.pk) - 1 } : {}),
      ai: isPk && pkCount === 1 && autoincrement && /^integer$/i.test(String(c.type)),
      unique: single.has(String(c.name)) || undefined,
      ...(c.dflt_value === null || c.dflt_value === undefined ? {} : { dangerousDefaultSql: String(c.dflt_value) }),
    };
  });

  const fks = new Map<number, ForeignKeyDef>();
  for (const f of await q(exec, 'SELECT id, seq, "table" AS ref, "from" AS col, "to" AS ref_col, on_delete, on_update FROM pragma_foreign_key_list(?) ORDER BY id, seq', [table])) {
    const id = Number(f.id);
    const fk = fks.get(id) ?? { name: `fk_${table}_${id}`, columns: [], refTable: String(f.ref), refColumns: [], onDelete: action(f.on_delete), onUpdate: action(f.on_update) };
    fk.columns.push(String(f.col));
    if (f.ref_col !== null && f.ref_col !== undefined) fk.refColumns.push(String(f.ref_col));
    fks.set(id, fk);
  }
  // A foreign key written without its parent columns refers to the parent's key.
  for (const fk of fks.values()) {
    if (fk.refColumns.length === 0) {
      fk.refColumns = (await q(exec, 'SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk', [fk.refTable])).map((r) => String(r.name));
    }
  }

  const recreate = (
    await q(exec, "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name", [table])
  ).map((r) => String(r.sql));
  return { columns, uniques, fks: [...fks.values()], recreate };
}
