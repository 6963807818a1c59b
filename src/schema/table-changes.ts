/**
 * Plans of table changes: create (default columns id, title, created_at, updated_at set on each change), rename
 * (display name in metadata; SQL name only when asked) and delete.
 */
import type { ColumnDef, ForeignKeyDef } from '../sql/ddl';
import { badRequest, conflict } from '../lib/errors';
import { columnDefOf, columnDefOfModel, typeMetaOf, type ColumnInput } from './column-input';
import { typeMetaChange } from './column-type-meta';
import { assertNoTable, checkSqlName, ref, shapeOf, tableOf, type ChangePlan, type PlanContext } from './change-plan';
import type { TableModel } from './model';
import { caseOnlyRenameRefusal, lowerCaseTableNames } from '../sql/mysql/table-name-case';

/** The columns of a table created without a list; updated_at is set to the time of each change (`touch`). */
export const DEFAULT_TABLE_COLUMNS: ColumnInput[] = [
  { cn: 'id', uidt: 'ID' },
  { cn: 'title', uidt: 'SingleLineText' },
  { cn: 'created_at', uidt: 'DateTime', default: 'now' },
  { cn: 'updated_at', uidt: 'DateTime', default: 'now', meta: { touch: true } },
];

/** Creates a table; display names and logical types go to metadata. */
export async function planTableCreate(ctx: PlanContext, a: { tn: string; _tn?: string; columns?: ColumnInput[] }): Promise<ChangePlan> {
  const tn = checkSqlName(a.tn, 'table');
  await assertNoTable(ctx, tn);
  const inputs = a.columns?.length ? a.columns : DEFAULT_TABLE_COLUMNS;
  const seen = new Set<string>();
  for (const c of inputs) {
    const n = checkSqlName(c.cn, 'column').toLowerCase();
    if (seen.has(n)) throw badRequest(`Column '${c.cn}' is listed twice`);
    seen.add(n);
  }
  if (inputs.filter((c) => c.uidt === 'ID' || c.ai).length > 1) throw badRequest('A table has at most one auto-increment column');
  const defs = inputs.map((c) => columnDefOf(ctx.engine, c));
  const metas = inputs.map((c) => typeMetaChange(c.uidt, c.meta, c.options));
  return {
    title: `Create table '${tn}'`,
    up: ctx.ddl.createTable(ref(tn), defs),
    down: ctx.ddl.dropTable(ref(tn)),
    table: tn,
    meta: async (edits) => {
      const columns: NonNullable<Awaited<ReturnType<typeof edits.get>>['columns']> = {};
      inputs.forEach((c, i) => {
        const tm = metas[i]!;
        const typed = typeMetaOf(ctx.engine, defs[i]!.type!, c.uidt, tm.choices);
        if (c._cn || typed.uidt || typed.options || tm.meta) columns[c.cn] = { ...(c._cn ? { _cn: c._cn } : {}), ...typed, ...(tm.meta ? { meta: tm.meta } : {}) };
      });
      await edits.set(tn, { ...(a._tn ? { _tn: a._tn } : {}), columns });
    },
  };
}

/** Renames a table: `newTn` renames it in SQL (display names follow the new name). */
export async function planTableRename(ctx: PlanContext, a: { tn: string; newTn: string }): Promise<ChangePlan> {
  const t = tableOf(ctx.pdb, a.tn);
  const to = checkSqlName(a.newTn, 'table');
  if (to === t.tn) throw badRequest(`The table is already called '${to}'`);
  if (to.toLowerCase() !== t.tn.toLowerCase()) await assertNoTable(ctx, to);
  else if (ctx.engine === 'mysql') {
    // Asked at rename time: the setting is fixed at the server's start, and such renames are rare.
    const refusal = caseOnlyRenameRefusal(await lowerCaseTableNames(ctx.db.driver));
    if (refusal) throw badRequest(refusal);
  }
  return {
    title: `Rename table '${t.tn}' to '${to}'`,
    up: ctx.ddl.renameTable(ref(t.tn), to),
    down: ctx.ddl.renameTable(ref(to), t.tn),
    table: to,
    meta: async (edits) => {
      const m = await edits.get(t.tn);
      await edits.remove(t.tn);
      await edits.set(to, m);
    },
    events: [{ kind: 'tableRenamed', from: t.tn, to }],
  };
}

/** How `t` can be created again (its rows are not kept): the undo of a delete. */
async function recreate(ctx: PlanContext, t: TableModel): Promise<string[]> {
  const shape = await shapeOf(ctx, t.tn);
  if (shape) return [...ctx.ddl.createTable(ref(t.tn), shape.columns, shape.fks, shape.uniques), ...shape.recreate];
  const columns: ColumnDef[] = t.columns.map(columnDefOfModel);
  const fks: ForeignKeyDef[] = t.relations
    .filter((r) => r.type === 'bt')
    .map((r, i) => ({ name: r.fkName ?? `fk_${t.tn}_${i}`, columns: r.childColumns, refTable: r.parentTable, refColumns: r.parentColumns }));
  return ctx.ddl.createTable(ref(t.tn), columns, fks);
}

/** Deletes a table; refused while another table's foreign key refers to it. */
export async function planTableDelete(ctx: PlanContext, a: { tn: string }): Promise<ChangePlan> {
  const t = tableOf(ctx.pdb, a.tn);
  const referrer = t.relations.find((r) => r.type === 'hm' && r.childTable !== t.tn);
  if (referrer) throw conflict(`Table '${t._tn}' is referred to by '${referrer.childTable}'; delete that relation first`);
  return {
    title: `Delete table '${t.tn}'`,
    up: ctx.ddl.dropTable(ref(t.tn)),
    down: await recreate(ctx, t),
    // Its metadata stays: a rollback brings the table back with its display names.
    events: [{ kind: 'tableDropped', tn: t.tn }],
  };
}
