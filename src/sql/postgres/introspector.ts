/** PostgreSQL catalogue for one schema (default public): information_schema and pg_catalog. */
import type { Executor } from '../dialect';
import { num, type Introspector, type RawSchema } from '../introspection';

const q = (exec: Executor, sql: string, params: string[]) => exec.query<Record<string, any>>({ sql, params });

const KEYS = `
SELECT con.conname AS name, cl.relname AS tbl, att.attname AS col, fcl.relname AS ref_table, fatt.attname AS ref_col, k.ord AS position
FROM pg_constraint con
JOIN pg_class cl ON cl.oid = con.conrelid
JOIN pg_namespace ns ON ns.oid = cl.relnamespace
LEFT JOIN pg_class fcl ON fcl.oid = con.confrelid
CROSS JOIN LATERAL unnest(con.conkey, COALESCE(con.confkey, con.conkey)) WITH ORDINALITY AS k(attnum, fattnum, ord)
JOIN pg_attribute att ON att.attrelid = con.conrelid AND att.attnum = k.attnum
LEFT JOIN pg_attribute fatt ON fatt.attrelid = con.confrelid AND fatt.attnum = k.fattnum
WHERE ns.nspname = $1 AND con.contype = $2 AND (con.contype <> 'u' OR array_length(con.conkey, 1) = 1)
ORDER BY cl.relname, con.conname, k.ord`;

export const postgresIntrospector: Introspector = {
  async read(exec, opts): Promise<RawSchema> {
    const schema = opts.schema ?? 'public';
    const tables = await q(
      exec,
      `SELECT table_name AS name, table_type AS type FROM information_schema.tables
       WHERE table_schema = $1 AND table_type IN ('BASE TABLE', 'VIEW') ORDER BY table_name`,
      [schema],
    );
    const columns = await q(
      exec,
      `SELECT c.table_name AS tbl, c.column_name AS name, c.data_type, c.udt_name, c.is_nullable, c.column_default,
              c.character_maximum_length AS len, c.numeric_precision AS prec, c.numeric_scale AS scale,
              c.ordinal_position AS pos, c.is_identity,
              (SELECT array_to_json(array_agg(e.enumlabel ORDER BY e.enumsortorder)) FROM pg_type t
                 JOIN pg_enum e ON e.enumtypid = t.oid WHERE t.typname = c.udt_name) AS enum_values,
              format_type(a.atttypid, a.atttypmod) AS full_type
       FROM information_schema.columns c
       LEFT JOIN pg_namespace n ON n.nspname = c.table_schema
       LEFT JOIN pg_class cl ON cl.relname = c.table_name AND cl.relnamespace = n.oid
       LEFT JOIN pg_attribute a ON a.attrelid = cl.oid AND a.attname = c.column_name
       WHERE c.table_schema = $1 ORDER BY c.table_name, c.ordinal_position`,
      [schema],
    );
    const pks = await q(exec, KEYS, [schema, 'p']);
    const fks = await q(exec, KEYS, [schema, 'f']);
    const uniques = await q(exec, KEYS, [schema, 'u']);
    const routines = await q(
      exec,
      `SELECT p.proname AS name, p.prokind AS kind, pg_get_functiondef(p.oid) AS definition
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
       LEFT JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
       WHERE n.nspname = $1 AND p.prokind IN ('f', 'p') AND d.objid IS NULL ORDER BY p.proname`,
      [schema],
    );
    const sequences = await q(
      exec,
      `SELECT sequence_name AS name, data_type, start_value, minimum_value, maximum_value, increment, cycle_option
       FROM information_schema.sequences WHERE sequence_schema = $1 ORDER BY sequence_name`,
      [schema],
    );
    return {
      tables: tables.map((t) => ({ name: t.name, type: t.type === 'VIEW' ? 'view' : 'table' })),
      columns: columns.map((c) => {
        const enumValues = Array.isArray(c.enum_values) ? c.enum_values : c.enum_values ? JSON.parse(c.enum_values) : undefined;
        const def: string | null = c.column_default ?? null;
        return {
          table: c.tbl,
          name: c.name,
          type: enumValues ? 'enum' : c.data_type === 'USER-DEFINED' ? c.udt_name : c.data_type,
          fullType: c.full_type ?? c.data_type,
          nullable: c.is_nullable === 'YES',
          default: def,
          ai: c.is_identity === 'YES' || (def?.startsWith('nextval(') ?? false),
          length: num(c.len),
          precision: num(c.prec),
          scale: num(c.scale),
          enumValues: enumValues ?? undefined,
          position: Number(c.pos),
        };
      }),
      pks: pks.map((k) => ({ table: k.tbl, column: k.col, position: Number(k.position) })),
      fks: fks.map((k) => ({ name: k.name, table: k.tbl, column: k.col, refTable: k.ref_table, refColumn: k.ref_col, position: Number(k.position) })),
      uniques: uniques.map((k) => ({ table: k.tbl, column: k.col, position: 1 })),
      functions: routines.filter((r) => r.kind === 'f').map((r) => ({ name: r.name, definition: r.definition })),
      procedures: routines.filter((r) => r.kind === 'p').map((r) => ({ name: r.name, definition: r.definition })),
      sequences: sequences.map((s) => ({
        name: s.name,
        definition: `CREATE SEQUENCE ${s.name} AS ${s.data_type} INCREMENT BY ${s.increment} MINVALUE ${s.minimum_value} MAXVALUE ${s.maximum_value} START WITH ${s.start_value}${s.cycle_option === 'YES' ? ' CYCLE' : ' NO CYCLE'};`,
      })),
    };
  },
};
