/**
 * Plans of column changes: add, change (SQL name, type, nullability, default, uniqueness; display
 * name and logical type in metadata) and delete. SQLite rebuilds the table where ALTER TABLE
 * cannot, keeping rows, indexes and foreign keys; a type change whose values do not convert fails
 * and changes nothing.
 */
import type { ColumnDef, TableShape } from '../sql/ddl';
import { ENGINES } from '../sql/engines';
import { lookupNative } from '../sql/type-map';
import { findUniqueConstraint } from '../sql/unique-constraints';
import { firstRow, severalChoicesProbe, typeChangeLosses } from '../sql/type-change-losses';
import { badRequest, conflict } from '../lib/errors';
import { columnDefOf, columnDefOfModel, defaultOf, nativeTypeOf, sameNativeType, typeMetaOf, type ColumnInput, type DdlUiType, type DefaultInput } from './column-input';
import { checkSqlName, columnOf, constraintName, mentions, ref, shapeOf, tableOf, type ChangePlan, type PlanContext } from './change-plan';
import { typeMetaChange } from './column-type-meta';
import type { ColumnModel, ColumnTypeMeta, TableModel } from './model';

/** Keeps a column's display name, logical type and its options in metadata under `cn`, replacing `from`'s entry. */
const columnMeta = (tn: string, from: string | null, cn: string, entry: { _cn?: string; uidt?: ColumnModel['uidt']; options?: string[]; meta?: ColumnTypeMeta }, replaceType: boolean) =>
  async (edits: Parameters<NonNullable<ChangePlan['meta']>>[0]) => {
    const m = await edits.get(tn);
    const columns = { ...(m.columns ?? {}) };
    const prev = from ? columns[from] : undefined;
    if (from) delete columns[from];
    const next = { ...prev, ...(entry._cn ? { _cn: entry._cn } : {}) };
    if (replaceType) {
      delete next.uidt;
      delete next.options;
      delete next.meta;
      Object.assign(next, entry.uidt ? { uidt: entry.uidt } : {}, entry.options ? { options: entry.options } : {}, entry.meta ? { meta: entry.meta } : {});
    }
    columns[cn] = next;
    await edits.set(tn, { ...m, columns });
  };

const assertFreeColumn = (t: TableModel, cn: string, except?: ColumnModel) => {
  if (t.columns.some((c) => c !== except && c.cn.toLowerCase() === cn.toLowerCase())) throw conflict(`Column '${cn}' already exists in '${t._tn}'`);
};

/** Whether a row of the table matches `where` (SQL built from the model). */
const hasRow = async (ctx: PlanContext, tn: string, where: string) =>
  (await ctx.db.driver.query({ sql: firstRow(ctx.engine, ref(tn), '1 AS one', where), params: [] })).length > 0;

/**
 * PostgreSQL and MariaDB/MySQL: the text of a number their type change reads (integers: digits with a
 * sign and blanks around them; decimals also a point and an exponent), as a regular expression of the engine.
 */
const NUMBER_TEXT = { integer: '^[[:space:]]*[+-]?[0-9]+[[:space:]]*$', decimal: '^[[:space:]]*[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?[[:space:]]*$' };

/** The first value of a text column that a change to a number type would refuse, or undefined (PostgreSQL, MariaDB/MySQL). */
export async function firstNonNumber(ctx: PlanContext, tn: string, cn: string, integer: boolean): Promise<unknown> {
  if (ctx.engine !== 'pg' && ctx.engine !== 'mysql') return undefined;
  const q = ctx.db.dialect.quoteId;
  const pattern = `'${integer ? NUMBER_TEXT.integer : NUMBER_TEXT.decimal}'`;
  const unfit = ctx.engine === 'pg' ? `${q(cn)} !~ ${pattern}` : `${q(cn)} NOT REGEXP ${pattern}`;
  const [row] = await ctx.db.driver.query<{ v: unknown }>({ sql: firstRow(ctx.engine, ref(tn), `${q(cn)} AS v`, `${q(cn)} IS NOT NULL AND ${unfit}`), params: [] });
  return row?.v;
}

/** MariaDB/MySQL: the type a text is read as by CAST, per value kind (NULL when it cannot be read). */
const MYSQL_CAST: Record<string, string> = { date: 'DATE', datetime: 'DATETIME', time: 'TIME' };

/**
 * The first value of a text column that a change to a date or time type would refuse, or undefined
 * (PostgreSQL, MariaDB/MySQL). PostgreSQL casts every value as the change would and names the first it
 * cannot read; MariaDB finds a value its CAST cannot read (one it reads only in part, '2024-01-05x', is
 * refused by the change itself: driver-errors names it there).
 */
async function firstNonTemporal(ctx: PlanContext, tn: string, cn: string, kind: string, type: string): Promise<unknown> {
  const q = ctx.db.dialect.quoteId;
  if (ctx.engine === 'mysql') {
    const [row] = await ctx.db.driver.query<{ v: unknown }>({ sql: firstRow(ctx.engine, ref(tn), `${q(cn)} AS v`, `${q(cn)} IS NOT NULL AND CAST(${q(cn)} AS ${MYSQL_CAST[kind]}) IS NULL`), params: [] });
    return row?.v;
  }
  if (ctx.engine !== 'pg') return undefined;
  try {
    await ctx.db.driver.query({ sql: `SELECT count(CAST(${q(cn)} AS ${type})) AS n FROM ${ENGINES.pg.compiler.table(ref(tn))}`, params: [] });
    return undefined;
  } catch (e) {
    // 'invalid input syntax for type date: "Angus Young"', 'date/time field value out of range: "2024-02-30"'
    const v = /: "([\s\S]*)"$/.exec((e as Error).message)?.[1];
    if (v === undefined) throw e;
    return v;
  }
}

/** SQLite: can ADD COLUMN do it, or must the table be rebuilt? */
const sqliteAddNeedsRebuild = (d: ColumnDef) => !!(d.unique || d.pk || (d.nullable === false && d.default === undefined) || (d.default && typeof d.default === 'object'));

/** Adds a column. */
export async function planColumnAdd(ctx: PlanContext, a: { tn: string; column: ColumnInput }): Promise<ChangePlan> {
  const t = tableOf(ctx.pdb, a.tn);
  const cn = checkSqlName(a.column.cn, 'column');
  assertFreeColumn(t, cn);
  const def = columnDefOf(ctx.engine, { ...a.column, cn });
  const tm = typeMetaChange(a.column.uidt, a.column.meta, a.column.options);
  if (def.ai || def.pk) throw badRequest('A key or auto-increment column can only be added when the table is created');
  if (def.nullable === false && def.default === undefined && (await hasRow(ctx, t.tn, '1 = 1'))) {
    throw badRequest(`Column '${a.column._cn ?? cn}' cannot be required without a default: the rows '${t._tn}' already has would hold no value`);
  }
  const shape = await shapeOf(ctx, t.tn);
  let up: string[];
  let down: string[];
  if (shape && sqliteAddNeedsRebuild(def)) {
    const keep = shape.columns.map((c) => c.name);
    up = ctx.ddl.rebuildTable(ref(t.tn), { ...shape, columns: [...shape.columns, def] }, keep);
    down = ctx.ddl.rebuildTable(ref(t.tn), shape);
  } else if (def.unique) {
    // A named constraint, so that undoing the change can drop it first (SQL Server needs that).
    const name = constraintName('uq', t.tn, cn);
    up = [...ctx.ddl.addColumn(ref(t.tn), { ...def, unique: undefined }), ...ctx.ddl.addUnique(ref(t.tn), name, cn)];
    down = [...ctx.ddl.dropUnique(ref(t.tn), name), ...ctx.ddl.dropColumn(ref(t.tn), cn)];
  } else {
    up = ctx.ddl.addColumn(ref(t.tn), def);
    down = ctx.ddl.dropColumn(ref(t.tn), cn);
  }
  return {
    title: `Add column '${cn}' to '${t.tn}'`,
    up,
    down,
    table: t.tn,
    meta: columnMeta(t.tn, null, cn, { _cn: a.column._cn, ...typeMetaOf(ctx.engine, def.type!, a.column.uidt, tm.choices), meta: tm.meta }, true),
  };
}

/** What columnUpdate may change; fields left out keep their value. */
export interface ColumnChange {
  cn?: string;
  _cn?: string;
  uidt?: DdlUiType;
  dtxp?: string;
  nullable?: boolean;
  default?: DefaultInput;
  unique?: boolean;
  options?: string[];
  /** Options of the logical type: merged over the current ones, or replacing them when the type changes. */
  meta?: Record<string, unknown>;
}

const NUMERIC_KINDS = new Set(['integer', 'bigint', 'decimal', 'float']);
/** SQLite's function that reads a text as a value of a date or time kind (NULL when it cannot). */
const DATE_FUNCTIONS: Record<string, string> = { date: 'date', datetime: 'datetime', time: 'time' };

/** Changes a column; a change of display name, choices, type options or logical type alone touches only metadata. */
export async function planColumnUpdate(ctx: PlanContext, a: { tn: string; cn: string; column: ColumnChange }): Promise<ChangePlan> {
  const t = tableOf(ctx.pdb, a.tn);
  const c = columnOf(t, a.cn);
  const ch = a.column;
  const to = ch.cn !== undefined ? checkSqlName(ch.cn, 'column') : c.cn;
  if (to !== c.cn) assertFreeColumn(t, to, c);
  if ((c.pk || c.ai) && (ch.uidt || ch.dtxp || ch.nullable !== undefined || ch.default !== undefined || ch.unique !== undefined)) {
    throw badRequest(`Column '${c._cn}' is part of the primary key: only its name can change`);
  }
  const uidt = ch.uidt ?? c.uidt;
  const typed = ch.uidt !== undefined || ch.options !== undefined || ch.meta !== undefined;
  const tm = typed ? typeMetaChange(uidt, ch.meta, ch.options, c) : {};
  const currentType = c.dtx ?? c.dt;
  const typeChanged = (ch.uidt !== undefined && ch.uidt !== c.uidt) || ch.dtxp !== undefined;
  const type = typeChanged ? nativeTypeOf(ctx.engine, uidt, ch.dtxp) : currentType;
  const nativeChanged = typeChanged && !sameNativeType(type, currentType);
  const nullable = ch.nullable ?? c.nullable;
  const defaultChanged = ch.default !== undefined;
  const unique = ch.unique ?? !!c.unique;
  const alter = nativeChanged || nullable !== c.nullable || defaultChanged;

  const next: ColumnDef = {
    name: to,
    type,
    nullable,
    ...(defaultChanged ? (ch.default === null ? {} : { default: defaultOf(uidt, ch.default) }) : c.default !== null ? { dangerousDefaultSql: c.default } : {}),
  };
  if (nullable === false && c.nullable && (await hasRow(ctx, t.tn, `${ctx.db.dialect.quoteId(c.cn)} IS NULL`))) {
    throw badRequest(`Column '${c._cn}' is empty in some rows: give them a value before making it required`);
  }
  const before = columnDefOfModel(c);
  const up: string[] = [];
  const down: string[] = [];
  const shape = await shapeOf(ctx, t.tn);
  if (shape) {
    if (alter || unique !== !!c.unique) {
      const changed = (s: TableShape): TableShape => ({
        ...s,
        columns: s.columns.map((x) => (x.name === c.cn ? { ...x, type, nullable, default: next.default, dangerousDefaultSql: next.dangerousDefaultSql, unique: unique || undefined } : x)),
      });
      up.push(...ctx.ddl.rebuildTable(ref(t.tn), changed(shape)));
      down.unshift(...ctx.ddl.rebuildTable(ref(t.tn), shape));
    }
    if (to !== c.cn) {
      up.push(...ctx.ddl.renameColumn(ref(t.tn), c.cn, to));
      down.unshift(...ctx.ddl.renameColumn(ref(t.tn), to, c.cn));
    }
  } else {
    if (alter) {
      up.push(...ctx.ddl.alterColumn(ref(t.tn), c.cn, next, undefined, currentType));
      down.unshift(...ctx.ddl.alterColumn(ref(t.tn), to, before, undefined, type));
    } else if (to !== c.cn) {
      up.push(...ctx.ddl.renameColumn(ref(t.tn), c.cn, to));
      down.unshift(...ctx.ddl.renameColumn(ref(t.tn), to, c.cn));
    }
    if (unique && !c.unique) {
      const name = constraintName('uq', t.tn, to);
      up.push(...ctx.ddl.addUnique(ref(t.tn), name, to));
      down.unshift(...ctx.ddl.dropUnique(ref(t.tn), name));
    } else if (!unique && c.unique) {
      const name = (await findUniqueConstraint(ctx.db, t.tn, c.cn)) ?? constraintName('uq', t.tn, c.cn);
      up.push(...ctx.ddl.dropUnique(ref(t.tn), name));
      down.unshift(...ctx.ddl.addUnique(ref(t.tn), name, to));
    }
  }
  // SQLite keeps values its column type cannot hold as text: such a value means the conversion failed.
  // Dates and times are text there too: a text its date function cannot read is not a date.
  const kind = lookupNative(ENGINES[ctx.engine].types, type).kind;
  const q = ctx.db.dialect.quoteId;
  const unfit = NUMERIC_KINDS.has(kind) || kind === 'boolean' ? `typeof(${q(to)}) = 'text'` : DATE_FUNCTIONS[kind] ? `typeof(${q(to)}) = 'text' AND trim(${q(to)}) <> '' AND ${DATE_FUNCTIONS[kind]}(${q(to)}) IS NULL` : null;
  // PostgreSQL and MariaDB refuse such a change themselves, in their own words: the value in the way is named here as on SQLite.
  if (!shape && nativeChanged && c.kind === 'string' && NUMERIC_KINDS.has(kind)) {
    const v = await firstNonNumber(ctx, t.tn, c.cn, kind === 'integer' || kind === 'bigint');
    if (v !== undefined) throw badRequest(`Column '${c._cn}': ${JSON.stringify(v)} cannot be converted to ${uidt}; nothing was changed`);
  }
  if (!shape && nativeChanged && c.kind === 'string' && DATE_FUNCTIONS[kind]) {
    const v = await firstNonTemporal(ctx, t.tn, c.cn, kind, type);
    if (v !== undefined) throw badRequest(`Column '${c._cn}': ${JSON.stringify(v)} cannot be converted to ${uidt}; nothing was changed`);
  }
  const checks =
    shape && nativeChanged && unfit
      ? [{ sql: `SELECT ${q(to)} AS v FROM ${q(t.tn)} WHERE ${unfit} LIMIT 1`, message: (r: Record<string, unknown>) => `Column '${c._cn}': ${JSON.stringify(r.v)} cannot be converted to ${uidt}; nothing was changed` }]
      : undefined;
  const probes = [
    ...(nativeChanged ? typeChangeLosses(ctx.engine, ref(t.tn), c.cn, { kind: c.kind, type: currentType }, { kind, type }) : []),
    ...(c.uidt === 'MultiSelect' && uidt === 'SingleSelect' ? [severalChoicesProbe(ctx.engine, ref(t.tn), c.cn)] : []),
  ];
  return {
    title: `Change column '${c.cn}' of '${t.tn}'`,
    up,
    down,
    checks,
    losses: probes.map((p) => ({ sql: p.sql, message: (r: Record<string, unknown>) => `Column '${c._cn}': ${p.says(r as { v: unknown; w?: unknown })}` })),
    table: t.tn,
    meta: columnMeta(t.tn, c.cn, to, { _cn: ch._cn, ...typeMetaOf(ctx.engine, type, uidt, tm.choices ?? c.enumValues), meta: tm.meta }, typed),
    events: to !== c.cn ? [{ kind: 'columnRenamed', tn: t.tn, from: c.cn, to }] : [],
  };
}

/** Deletes a column (not a key column). */
export async function planColumnDelete(ctx: PlanContext, a: { tn: string; cn: string }): Promise<ChangePlan> {
  const t = tableOf(ctx.pdb, a.tn);
  const c = columnOf(t, a.cn);
  if (c.pk) throw badRequest(`Column '${c._cn}' is part of the primary key and cannot be deleted`);
  if (t.columns.length === 1) throw badRequest(`Column '${c._cn}' is the only column of '${t._tn}'`);
  // Undone as a nullable column when it had no default: its values are gone, so NOT NULL could not hold.
  const back: ColumnDef = { ...columnDefOfModel(c), ...(c.default === null ? { nullable: true } : {}) };
  const shape = await shapeOf(ctx, t.tn);
  let up: string[];
  let down: string[];
  if (shape) {
    const simple = !c.unique && !shape.fks.some((f) => f.columns.includes(c.cn)) && !shape.recreate.some((s) => mentions(s, c.cn));
    const rest: TableShape = {
      columns: shape.columns.filter((x) => x.name !== c.cn),
      uniques: shape.uniques.filter((u) => !u.includes(c.cn)),
      fks: shape.fks.filter((f) => !f.columns.includes(c.cn)),
      recreate: shape.recreate.filter((s) => !mentions(s, c.cn)),
    };
    up = simple ? ctx.ddl.dropColumn(ref(t.tn), c.cn) : ctx.ddl.rebuildTable(ref(t.tn), rest);
    const original = { ...shape, columns: shape.columns.map((x) => (x.name === c.cn && c.default === null ? { ...x, nullable: true } : x)) };
    down = ctx.ddl.rebuildTable(ref(t.tn), original, rest.columns.map((x) => x.name));
  } else if (c.unique && ctx.engine === 'mssql') {
    // SQL Server drops no column that a constraint still covers.
    const name = (await findUniqueConstraint(ctx.db, t.tn, c.cn)) ?? constraintName('uq', t.tn, c.cn);
    up = [...ctx.ddl.dropUnique(ref(t.tn), name), ...ctx.ddl.dropColumn(ref(t.tn), c.cn)];
    down = [...ctx.ddl.addColumn(ref(t.tn), { ...back, unique: undefined }), ...ctx.ddl.addUnique(ref(t.tn), name, c.cn)];
  } else {
    up = ctx.ddl.dropColumn(ref(t.tn), c.cn);
    down = ctx.ddl.addColumn(ref(t.tn), back);
  }
  return {
    title: `Delete column '${c.cn}' of '${t.tn}'`,
    up,
    down,
    table: t.tn,
    // Its metadata stays for a rollback; a column added later under the name starts afresh.
    events: [{ kind: 'columnDropped', tn: t.tn, cn: c.cn }],
  };
}
