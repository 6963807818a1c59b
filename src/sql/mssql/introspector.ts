/** SQL Server catalogue (INFORMATION_SCHEMA and sys views) for one schema (default dbo). */
import type { Executor } from '../dialect';
import { num, type Introspector, type RawSchema } from '../introspection';

const q = (exec: Executor, sql: string, schema: string) => exec.query<Record<string, any>>({ sql, params: [schema] });

export const mssqlIntrospector: Introspector = {
  async read(exec, opts): Promise<RawSchema> {
    const schema = opts.schema ?? 'dbo';
    const tables = await q(exec, `SELECT TABLE_NAME AS name, TABLE_TYPE AS type FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = @p1 ORDER BY TABLE_NAME`, schema);
    const columns = await q(
      exec,
      `SELECT c.TABLE_NAME AS tbl, c.COLUMN_NAME AS name, c.DATA_TYPE AS data_type, c.IS_NULLABLE AS is_nullable,
              c.COLUMN_DEFAULT AS column_default, c.CHARACTER_MAXIMUM_LENGTH AS len, c.NUMERIC_PRECISION AS prec,
              c.NUMERIC_SCALE AS scale, c.ORDINAL_POSITION AS pos,
              COLUMNPROPERTY(OBJECT_ID(QUOTENAME(c.TABLE_SCHEMA) + '.' + QUOTENAME(c.TABLE_NAME)), c.COLUMN_NAME, 'IsIdentity') AS is_identity
       FROM INFORMATION_SCHEMA.COLUMNS c WHERE c.TABLE_SCHEMA = @p1 ORDER BY c.TABLE_NAME, c.ORDINAL_POSITION`,
      schema,
    );
    const pks = await q(
      exec,
      `SELECT k.TABLE_NAME AS tbl, k.COLUMN_NAME AS col, k.ORDINAL_POSITION AS position
       FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS t JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE k
         ON k.CONSTRAINT_NAME = t.CONSTRAINT_NAME AND k.TABLE_SCHEMA = t.TABLE_SCHEMA
       WHERE t.TABLE_SCHEMA = @p1 AND t.CONSTRAINT_TYPE = 'PRIMARY KEY'`,
      schema,
    );
    const fks = await q(
      exec,
      `SELECT fk.name AS name, tp.name AS tbl, cp.name AS col, tr.name AS ref_table, cr.name AS ref_col, fkc.constraint_column_id AS position
       FROM sys.foreign_keys fk
       JOIN sys.foreign_key_columns fkc ON fkc.constraint_object_id = fk.object_id
       JOIN sys.tables tp ON tp.object_id = fkc.parent_object_id
       JOIN sys.columns cp ON cp.object_id = fkc.parent_object_id AND cp.column_id = fkc.parent_column_id
       JOIN sys.tables tr ON tr.object_id = fkc.referenced_object_id
       JOIN sys.columns cr ON cr.object_id = fkc.referenced_object_id AND cr.column_id = fkc.referenced_column_id
       WHERE SCHEMA_NAME(tp.schema_id) = @p1`,
      schema,
    );
    const routines = await q(
      exec,
      `SELECT ROUTINE_NAME AS name, ROUTINE_TYPE AS type, ROUTINE_DEFINITION AS definition FROM INFORMATION_SCHEMA.ROUTINES WHERE ROUTINE_SCHEMA = @p1`,
      schema,
    );
    const uniques = await q(
      exec,
      `SELECT t.name AS tbl, MIN(c.name) AS col FROM sys.indexes i
       JOIN sys.tables t ON t.object_id = i.object_id
       JOIN sys.index_columns ic ON ic.object_id = i.object_id AND ic.index_id = i.index_id AND ic.is_included_column = 0
       JOIN sys.columns c ON c.object_id = ic.object_id AND c.column_id = ic.column_id
       WHERE SCHEMA_NAME(t.schema_id) = @p1 AND i.is_unique = 1 AND i.is_primary_key = 0
       GROUP BY t.name, i.name HAVING COUNT(*) = 1`,
      schema,
    );
    const sequences = await q(
      exec,
      `SELECT s.name AS name, TYPE_NAME(s.user_type_id) AS data_type, CAST(s.start_value AS nvarchar(40)) AS start_value,
              CAST(s.increment AS nvarchar(40)) AS increment, CAST(s.minimum_value AS nvarchar(40)) AS minimum_value,
              CAST(s.maximum_value AS nvarchar(40)) AS maximum_value, s.is_cycling AS is_cycling
       FROM sys.sequences s WHERE SCHEMA_NAME(s.schema_id) = @p1 ORDER BY s.name`,
      schema,
    );
    return {
      tables: tables.map((t) => ({ name: t.name, type: t.type === 'VIEW' ? 'view' : 'table' })),
      columns: columns.map((c) => ({
        table: c.tbl,
        name: c.name,
        type: String(c.data_type).toLowerCase(),
        fullType: c.len ? `${c.data_type}(${Number(c.len) === -1 ? 'max' : c.len})` : String(c.data_type),
        nullable: c.is_nullable === 'YES',
        default: c.column_default ?? null,
        ai: Number(c.is_identity) === 1,
        length: num(c.len),
        precision: num(c.prec),
        scale: num(c.scale),
        position: Number(c.pos),
      })),
      pks: pks.map((k) => ({ table: k.tbl, column: k.col, position: Number(k.position) })),
      fks: fks.map((k) => ({ name: k.name, table: k.tbl, column: k.col, refTable: k.ref_table, refColumn: k.ref_col, position: Number(k.position) })),
      uniques: uniques.map((u) => ({ table: u.tbl, column: u.col, position: 1 })),
      functions: routines.filter((r) => r.type === 'FUNCTION').map((r) => ({ name: r.name, definition: r.definition ?? null })),
      procedures: routines.filter((r) => r.type === 'PROCEDURE').map((r) => ({ name: r.name, definition: r.definition ?? null })),
      sequences: sequences.map((s) => ({
        name: s.name,
        definition: `CREATE SEQUENCE [${s.name}] AS ${s.data_type} START WITH ${s.start_value} INCREMENT BY ${s.increment} MINVALUE ${s.minimum_value} MAXVALUE ${s.maximum_value}${s.is_cycling ? ' CYCLE' : ' NO CYCLE'};`,
      })),
    };
  },
};
