/** SQLite catalogue: sqlite_master and the table-valued pragma functions. */
import type { Executor } from '../dialect';
import type { Introspector, RawColumn, RawForeignKey, RawKeyColumn, RawSchema, RawTable } from '../introspection';
import { baseTypeName } from '../type-map';

const q = (exec: Executor, sql: string, params: (string | number)[] = []) => exec.query<Record<string, any>>({ sql, params });

export const sqliteIntrospector: Introspector = {
  async read(exec): Promise<RawSchema> {
    const objects = await q(
      exec,
      "SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    );
    const tables: RawTable[] = objects.map((o) => ({ name: o.name, type: o.type === 'view' ? 'view' : 'table' }));
    const columns: RawColumn[] = [];
    const pks: RawKeyColumn[] = [];
    const fks: RawForeignKey[] = [];
    const uniques: RawKeyColumn[] = [];
    for (const [i, o] of objects.entries()) {
      let info: Record<string, any>[];
      try {
        info = await q(exec, 'SELECT cid, name, type, "notnull" AS nn, dflt_value, pk FROM pragma_table_info(?)', [o.name]);
      } catch (e) {
        // A view over a dropped table (or column) cannot be described: kept, marked, without columns.
        if (o.type !== 'view') throw e;
        tables[i]!.broken = (e as Error).message;
        continue;
      }
      const pkCount = info.filter((c) => Number(c.pk) > 0).length;
      for (const c of info) {
        const declared = String(c.type || '');
        const isPk = Number(c.pk) > 0;
        // A lone INTEGER PRIMARY KEY is the rowid: it auto-increments.
        const ai = isPk && pkCount === 1 && baseTypeName(declared) === 'integer';
        const len = /\((\d+)(?:\s*,\s*(\d+))?\)/.exec(declared);
        columns.push({
          table: o.name,
          name: c.name,
          type: baseTypeName(declared) || 'text',
          fullType: declared || 'text',
          nullable: Number(c.nn) === 0 && !isPk,
          default: c.dflt_value ?? null,
          ai,
          length: len && !len[2] ? Number(len[1]) : null,
          precision: len && len[2] ? Number(len[1]) : null,
          scale: len && len[2] ? Number(len[2]) : null,
          position: Number(c.cid) + 1,
        });
        if (isPk) pks.push({ table: o.name, column: c.name, position: Number(c.pk) });
      }
      if (o.type !== 'table') continue;
      const fkRows = await q(exec, 'SELECT id, seq, "table" AS ref_table, "from" AS col, "to" AS ref_col FROM pragma_foreign_key_list(?)', [o.name]);
      for (const f of fkRows) {
        // `to` is null when the FK references the parent's primary key implicitly.
        let refCol = f.ref_col;
        if (refCol === null || refCol === undefined) {
          const parentPk = await q(exec, 'SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk', [f.ref_table]);
          refCol = parentPk[Number(f.seq)]?.name ?? 'rowid';
        }
        fks.push({ name: `fk_${o.name}_${f.id}`, table: o.name, column: f.col, refTable: f.ref_table, refColumn: refCol, position: Number(f.seq) + 1 });
      }
      const indexes = await q(exec, 'SELECT name, "unique" AS u, origin FROM pragma_index_list(?)', [o.name]);
      for (const ix of indexes) {
        if (Number(ix.u) !== 1 || ix.origin === 'pk') continue;
        const cols = await q(exec, 'SELECT name FROM pragma_index_info(?)', [ix.name]);
        if (cols.length === 1 && cols[0]!.name) uniques.push({ table: o.name, column: cols[0]!.name, position: 1 });
      }
    }
    return { tables, columns, pks, fks, uniques, functions: [], procedures: [], sequences: [] };
  },
};
