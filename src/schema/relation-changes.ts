/**
 * Plans of relation changes: has-many adds a foreign key column to the child (named
 * `<parent>_id` unless given) and its constraint; many-to-many creates the junction table
 * `<parent>_<child>` whose key is its two foreign key columns. Removing undoes either.
 */
import type { ColumnDef, ForeignKeyDef } from '../sql/ddl';
import { badRequest, conflict, notFound } from '../lib/errors';
import { columnDefOfModel, sameNativeType } from './column-input';
import { firstNonNumber } from './column-changes';
import { assertNoTable, checkSqlName, constraintName, mentions, ref, shapeOf, tableOf, type ChangePlan, type PlanContext } from './change-plan';
import type { ColumnModel, RelationModel, TableModel } from './model';

/** The ON DELETE action of a new foreign key. */
export type OnDelete = NonNullable<ForeignKeyDef['onDelete']>;

const singleKey = (t: TableModel): ColumnModel => {
  if (t.pks.length !== 1) throw badRequest(`Table '${t._tn}' needs a primary key of one column to be linked`);
  return t.columns.find((c) => c.cn === t.pks[0])!;
};

/** A column that refers to `key`: the same native type, never auto-increment. */
const referring = (name: string, key: ColumnModel, nullable: boolean): ColumnDef => ({ name, type: key.dtx ?? key.dt, nullable, pk: !nullable });

/** has-many: a foreign key column on the child; many-to-many: a junction table. */
export async function planRelationCreate(
  ctx: PlanContext,
  a: { type: 'hm' | 'mm'; parentTn: string; childTn: string; childColumn?: string; onDelete?: OnDelete },
): Promise<ChangePlan> {
  const parent = tableOf(ctx.pdb, a.parentTn);
  const child = tableOf(ctx.pdb, a.childTn);
  const pkey = singleKey(parent);
  if (a.type === 'mm') {
    const ckey = singleKey(child);
    const jt = checkSqlName(`${parent.tn}_${child.tn}`, 'table');
    await assertNoTable(ctx, jt);
    const pc = `${parent.tn}_id`.slice(0, 64);
    const cc = (child.tn === parent.tn ? `${child.tn}_ref_id` : `${child.tn}_id`).slice(0, 64);
    const fks: ForeignKeyDef[] = [
      { name: constraintName('fk', jt, pc), columns: [pc], refTable: parent.tn, refColumns: [pkey.cn], onDelete: a.onDelete ?? 'CASCADE' },
      { name: constraintName('fk', jt, cc), columns: [cc], refTable: child.tn, refColumns: [ckey.cn], onDelete: a.onDelete ?? 'CASCADE' },
    ];
    const cols = [{ ...referring(pc, pkey, false), pkOrder: 0 }, { ...referring(cc, ckey, false), pkOrder: 1 }];
    return {
      title: `Link '${parent.tn}' and '${child.tn}' many-to-many`,
      up: ctx.ddl.createTable(ref(jt), cols, fks),
      down: ctx.ddl.dropTable(ref(jt)),
      table: parent.tn,
    };
  }
  const cn = checkSqlName(a.childColumn ?? `${parent.tn}_id`, 'column');
  const existing = child.columns.find((c) => c.cn === cn);
  if (existing && child.relations.some((r) => r.type === 'bt' && r.childColumns.includes(cn))) throw conflict(`Column '${cn}' of '${child._tn}' is already a foreign key`);
  const fk: ForeignKeyDef = { name: constraintName('fk', child.tn, cn), columns: [cn], refTable: parent.tn, refColumns: [pkey.cn], ...(a.onDelete ? { onDelete: a.onDelete } : {}) };
  const column = referring(cn, pkey, true);
  const shape = await shapeOf(ctx, child.tn);
  let up: string[];
  let down: string[];
  if (shape) {
    const keep = shape.columns.map((c) => c.name);
    up = ctx.ddl.rebuildTable(ref(child.tn), { ...shape, columns: existing ? shape.columns : [...shape.columns, column], fks: [...shape.fks, fk] }, keep);
    down = ctx.ddl.rebuildTable(ref(child.tn), shape);
  } else {
    // MariaDB and MySQL link a column only to a key of its very type (a Number column is a bigint, a
    // key made as ID an int): an existing column of another type takes the key's type first, and
    // gets its own back when the link is undone.
    const keyType = pkey.dtx ?? pkey.dt;
    const wholeKey = pkey.kind === 'integer' || pkey.kind === 'bigint';
    // PostgreSQL links no text column to a number key (it said so naming only the constraint).
    if (existing && ctx.engine === 'pg' && existing.kind === 'string' && wholeKey) {
      throw badRequest(`Column '${existing._cn}' holds text and cannot link to '${parent._tn}', whose keys are whole numbers: make it a Number column first`);
    }
    const retyped = existing && ctx.engine === 'mysql' && !sameNativeType(existing.dtx ?? existing.dt, keyType) ? columnDefOfModel(existing) : null;
    // A text that is not a whole number would stop the change of type, in MariaDB's words: named here first.
    if (retyped && existing?.kind === 'string' && wholeKey) {
      const v = await firstNonNumber(ctx, child.tn, cn, true);
      if (v !== undefined) throw badRequest(`Column '${existing._cn}' cannot link to '${parent._tn}': ${JSON.stringify(v)} is not a whole number, as its keys are; nothing was changed`);
    }
    const keep = retyped ? { up: ctx.ddl.alterColumn(ref(child.tn), cn, { ...retyped, type: keyType }), down: ctx.ddl.alterColumn(ref(child.tn), cn, retyped) } : { up: [], down: [] };
    up = [...(existing ? keep.up : ctx.ddl.addColumn(ref(child.tn), column)), ...ctx.ddl.addForeignKey(ref(child.tn), fk)];
    down = [...ctx.ddl.dropForeignKey(ref(child.tn), fk.name), ...(existing ? keep.down : ctx.ddl.dropColumn(ref(child.tn), cn))];
  }
  return { title: `Link '${parent.tn}' has many '${child.tn}'`, up, down, table: child.tn };
}

/** Removes a has-many (its constraint and column) or a many-to-many (its junction table). */
export async function planRelationDelete(ctx: PlanContext, a: { type: 'hm' | 'mm'; parentTn: string; childTn: string }): Promise<ChangePlan> {
  const parent = tableOf(ctx.pdb, a.parentTn);
  const child = tableOf(ctx.pdb, a.childTn);
  if (a.type === 'mm') {
    const r = parent.relations.find((x): x is RelationModel & { junction: NonNullable<RelationModel['junction']> } => x.type === 'mm' && x.rtn === child.tn && !!x.junction);
    if (!r) throw notFound(`No many-to-many relation between '${parent._tn}' and '${child._tn}'`);
    const jt = tableOf(ctx.pdb, r.junction.tn);
    const shape = await shapeOf(ctx, jt.tn);
    const fks: ForeignKeyDef[] = jt.relations
      .filter((x) => x.type === 'bt')
      .map((x, i) => ({ name: x.fkName ?? `fk_${jt.tn}_${i}`, columns: x.childColumns, refTable: x.parentTable, refColumns: x.parentColumns }));
    const down = shape
      ? [...ctx.ddl.createTable(ref(jt.tn), shape.columns, shape.fks, shape.uniques), ...shape.recreate]
      : ctx.ddl.createTable(ref(jt.tn), jt.columns.map(columnDefOfModel), fks);
    return {
      title: `Unlink '${parent.tn}' and '${child.tn}' many-to-many`,
      up: ctx.ddl.dropTable(ref(jt.tn)),
      down,
      table: parent.tn,
      events: [{ kind: 'tableDropped', tn: jt.tn }],
    };
  }
  const r = child.relations.find((x) => x.type === 'bt' && x.parentTable === parent.tn);
  if (!r) throw notFound(`No has-many relation from '${parent._tn}' to '${child._tn}'`);
  const cols = child.columns.filter((c) => r.childColumns.includes(c.cn));
  if (cols.some((c) => c.pk)) throw badRequest(`The foreign key of '${child._tn}' is part of its primary key and cannot be removed`);
  const shape = await shapeOf(ctx, child.tn);
  let up: string[];
  let down: string[];
  if (shape) {
    const fk = shape.fks.find((f) => f.refTable === parent.tn && f.columns.join() === r.childColumns.join());
    const rest = {
      columns: shape.columns.filter((c) => !r.childColumns.includes(c.name)),
      uniques: shape.uniques.filter((u) => !u.some((c) => r.childColumns.includes(c))),
      fks: shape.fks.filter((f) => f !== fk),
      recreate: shape.recreate.filter((s) => !r.childColumns.some((c) => mentions(s, c))),
    };
    up = ctx.ddl.rebuildTable(ref(child.tn), rest);
    const original = { ...shape, columns: shape.columns.map((c) => (r.childColumns.includes(c.name) ? { ...c, nullable: true } : c)) };
    down = ctx.ddl.rebuildTable(ref(child.tn), original, rest.columns.map((c) => c.name));
  } else {
    const name = r.fkName ?? constraintName('fk', child.tn, r.childColumns[0]!);
    const fk: ForeignKeyDef = { name, columns: r.childColumns, refTable: parent.tn, refColumns: r.parentColumns };
    up = [...ctx.ddl.dropForeignKey(ref(child.tn), name), ...cols.flatMap((c) => ctx.ddl.dropColumn(ref(child.tn), c.cn))];
    down = [...cols.flatMap((c) => ctx.ddl.addColumn(ref(child.tn), { ...columnDefOfModel(c), nullable: true, unique: undefined })), ...ctx.ddl.addForeignKey(ref(child.tn), fk)];
  }
  return {
    title: `Unlink '${parent.tn}' has many '${child.tn}'`,
    up,
    down,
    table: child.tn,
    events: r.childColumns.map((cn) => ({ kind: 'columnDropped' as const, tn: child.tn, cn })),
  };
}
