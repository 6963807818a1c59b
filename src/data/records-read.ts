/** Reads: list, findOne, count (under a time limit), read one row, exists. */
import type { TableModel } from '../schema/model';
import { ONE, type Cond } from '../sql/ast';
import { notFound, timeout } from '../lib/errors';
import { MSG_TIMEOUT } from '../sql/driver-errors';
import { readScope, readableTable, andCond, filterableTable, scopeNested } from './read-scope';
import { executorOf, type DataContext } from './data-context';
import { parseListQuery, parseFields, type ListQuery, type NestedQuery, type Params, type RowMaker } from './list-query';
import { buildSelect, needsExact, tableRef } from './select-builder';
import { rowMakerOf, toApiRow } from './row-maker';
import { loadNested } from './nested';
import { idCondition, idValues, keyCondition } from './row-id';
import type { Dialect } from '../sql/dialect';
import type { Compiled, SqlValue } from '../sql/ast';
import { planFor, type ReadPlan } from './read-plans';

/** The key columns nesting needs from the parent rows. */
function nestingKeys(q: Pick<ListQuery, 'nested'>): string[] {
  return q.nested.flatMap((n) => (n.relation.type === 'bt' ? n.relation.childColumns : n.relation.type === 'hm' ? n.relation.parentColumns : n.relation.junction!.refColumns));
}

/**
 * Parses list parameters within the caller's rights: hidden columns are unknown to `fields`, filters
 * and sorts (400 naming them, as a column that does not exist), the row condition is ANDed into `where` (403 when the table is
 * not readable), and each nested relation is limited the same way.
 */
export function listQueryOf(dc: DataContext, t: TableModel, params: Params): ListQuery {
  const scope = readScope(dc, t);
  const table = (tn: string) => {
    const x = dc.pdb.model.tables.find((m) => m.tn === tn);
    return x && readableTable(dc, x);
  };
  const filterTable = (tn: string, alias: string) => {
    const x = dc.pdb.model.tables.find((m) => m.tn === tn);
    return x && filterableTable(dc, x, alias);
  };
  const q = parseListQuery(scope.table, params, { maxLimit: dc.maxLimit, table, filterTable });
  return { ...q, where: andCond(q.where, scope.where), nested: q.nested.map((n) => scopeNested(dc, n)) };
}

/** A parsed ListQuery (without a limit: every matching row) with its page SELECT compiled. */
function planOf(dc: DataContext, t: TableModel, q: ReadPlan['q']): ReadPlan {
  return { q, compiled: { ...dc.pdb.db.dialect.compile(buildSelect(t, q, nestingKeys(q))), exact: needsExact(q.fields) } };
}

/**
 * Runs a plan: one query for the page, one per nested relation; `makeRow` makes the page's rows
 * (default: API rows); `keys` fill the plan's key slots (reads by id).
 */
async function runPlan(dc: DataContext, t: TableModel, { q, compiled, keySlots }: ReadPlan, makeRow?: RowMaker, keys?: SqlValue[]): Promise<Record<string, unknown>[]> {
  const params = compiled.params.slice();
  if (keySlots && keys) for (let i = 0; i < keySlots.length; i++) params[keySlots[i]!] = keys[i]!;
  const raws = await executorOf(dc).query<Record<string, unknown>>({ ...compiled, params });
  const fields = q.fields;
  const rows = new Array<Record<string, unknown>>(raws.length);
  const make = makeRow ?? rowMakerOf(fields);
  for (let i = 0; i < raws.length; i++) rows[i] = make(raws[i]!);
  if (q.nested.length) await loadNested(dc, t, raws, rows, q.nested);
  return rows;
}

/** Runs a parsed ListQuery (without a limit: every matching row): one query for the page, one per nested relation. */
export function runList(dc: DataContext, t: TableModel, q: ReadPlan['q']): Promise<Record<string, unknown>[]> {
  return runPlan(dc, t, planOf(dc, t, q));
}

export function list(dc: DataContext, t: TableModel, params: Params): Promise<Record<string, unknown>[]> {
  return runPlan(dc, t, planFor(dc, t, 'list', params, () => planOf(dc, t, listQueryOf(dc, t, params))));
}

/**
 * A list with relations nested as given (`nested`, each landing under its own `as`) rather than
 * named by parameters, its rows made by `makeRow` when given; `shape` names the nested part of the
 * request for the read plans (the same shape must always bring the same relations, fields and row makers).
 */
export function listNested(dc: DataContext, t: TableModel, params: Params, nested: NestedQuery[], shape: string, makeRow?: RowMaker): Promise<Record<string, unknown>[]> {
  const plan = planFor(dc, t, `list ${shape}`, params, () => {
    const q = listQueryOf(dc, t, params);
    return planOf(dc, t, { ...q, nested: [...q.nested, ...nested.map((n) => scopeNested(dc, n))] });
  });
  return runPlan(dc, t, plan, makeRow);
}

export async function findOne(dc: DataContext, t: TableModel, params: Params): Promise<Record<string, unknown>> {
  // The first match after `offset` rows (the list's parameters, one row).
  const q = { ...listQueryOf(dc, t, params), limit: 1 };
  const [row] = await runList(dc, t, q);
  if (!row) throw notFound(`No row of '${t._tn}' matches`);
  return row;
}

export async function count(dc: DataContext, t: TableModel, params: Params): Promise<{ count: number }> {
  const q = listQueryOf(dc, t, params);
  if (dc.pdb.db.dialect.caps.slicedCount && t.type !== 'view') {
    const n = await slicedCount(dc, t, q.where);
    if (n !== null) return { count: n };
  }
  const sql = dc.pdb.db.dialect.compile({ kind: 'select', from: tableRef(t), columns: [{ expr: COUNT_STAR, as: 'count' }], where: q.where });
  const [row] = await dc.pdb.db.driver.queryTimed<{ count: unknown }>(sql, dc.countTimeoutMs);
  return { count: Number(row?.count ?? 0) };
}

const COUNT_STAR = { kind: 'fn' as const, name: 'count' as const, args: [{ kind: 'star' as const }] };
const ROWID = { kind: 'col' as const, name: 'rowid' };
/** Slices a sliced count takes at most (wider slices when the rowids spread further). */
const SLICES_MAX = 1000;
/** Rows of the rowid range one slice counts at least (a few ms of SQLite's time each). */
const SLICE_MIN = 20_000;

/**
 * COUNT(*) of a table in slices of its rowid range (caps.slicedCount), yielding to other requests
 * between slices and answering 504 past the count's time limit, as the engines that can interrupt a
 * statement do. Null when the table has no rowid (WITHOUT ROWID) or rowids beyond 2^53: counted at once.
 */
async function slicedCount(dc: DataContext, t: TableModel, where: Cond | undefined): Promise<number | null> {
  const { dialect, driver } = dc.pdb.db;
  const deadline = Date.now() + dc.countTimeoutMs;
  // Two statements: SQLite answers a lone min() or max() of the rowid from the B-tree's ends, but scans
  // the whole table for both in one.
  const end = async (fn: 'min' | 'max') => {
    const [row] = await driver.query(dialect.compile({ kind: 'select', from: tableRef(t), columns: [{ expr: { kind: 'fn', name: fn, args: [ROWID] }, as: 'v' }] }));
    return row?.v;
  };
  let lo: unknown;
  let hi: unknown;
  try {
    lo = await end('min');
    hi = await end('max');
  } catch {
    return null;
  }
  if (lo === null || lo === undefined || hi === null || hi === undefined) return 0;
  if (typeof lo !== 'number' || typeof hi !== 'number' || !Number.isSafeInteger(lo) || !Number.isSafeInteger(hi)) return null;
  const slice = Math.max(SLICE_MIN, Math.ceil((hi - lo + 1) / SLICES_MAX));
  let n = 0;
  for (let from = lo; from <= hi; from += slice) {
    if (Date.now() > deadline) throw timeout(MSG_TIMEOUT);
    const range: Cond = { kind: 'and', items: [{ kind: 'cmp', op: '>=', left: ROWID, right: { kind: 'val', value: from } }, { kind: 'cmp', op: '<', left: ROWID, right: { kind: 'val', value: from + slice } }] };
    const [row] = await driver.query<{ count: unknown }>(dialect.compile({ kind: 'select', from: tableRef(t), columns: [{ expr: COUNT_STAR, as: 'count' }], where: andCond(range, where) }));
    n += Number(row?.count ?? 0);
    // Other requests run between two slices.
    if (from + slice <= hi) await new Promise<void>((r) => setImmediate(r));
  }
  return n;
}

/** Stand-ins for key values while a read-by-id plan is compiled: found again among its parameters. */
const KEY_MARKS = Array.from({ length: 16 }, (_, i) => Object.freeze({ keySlot: i }));

/**
 * Whether a key holds a whole number beyond 32 bits. Such a key is compared in a statement of its own,
 * not bound into a shared plan: PostgreSQL types a bare parameter as the column, so a 32-bit key column
 * refused the value ('out of range for type integer', a 400 for a row that is simply not there), and
 * its compiler binds such numbers as bigint in the statement's text.
 */
const beyond32Bits = (values: readonly unknown[]) => values.some((v) => typeof v === 'number' && (v > 2147483647 || v < -2147483648));

/** A value as the dialect binds it (booleans, dates and big integers differ per engine). */
function boundValue(dialect: Dialect, v: unknown): SqlValue {
  if (typeof v === 'number' || typeof v === 'string' || v === null) return v;
  return dialect.compile({ kind: 'select', from: { name: 't' }, columns: [], where: { kind: 'cmp', op: '=', left: { kind: 'col', name: 'k' }, right: { kind: 'val', value: v as SqlValue } } }).params[0]!;
}

/**
 * One row by id, or 404. Accepts `fields` and nesting parameters. The plan is made once per request
 * shape (not per id): the id's values are bound into the plan's key slots at each read.
 */
export async function read(dc: DataContext, t: TableModel, id: string, params: Params = {}): Promise<Record<string, unknown>> {
  const values = idValues(t, id);
  const make = (key: readonly unknown[]) => {
    const q = listQueryOf(dc, t, { ...params, where: undefined, w: undefined, condition: undefined, c: undefined, conditionGraph: undefined });
    // A table's primary key matches one row at most: no ORDER BY or LIMIT (a bound LIMIT costs SQLite
    // about as much as the look-up itself). A view's declared key is not enforced, so it keeps both.
    const unique = t.type !== 'view';
    return planOf(dc, t, { ...q, where: andCond(keyCondition(t, key), q.where), sort: unique ? [] : q.sort, limit: unique ? undefined : 1, offset: 0 });
  };
  let plan = planFor(dc, t, 'read', params, () => {
    const marks = KEY_MARKS.slice(0, t.pks.length);
    const made = make(marks);
    const keySlots = marks.map((m) => made.compiled.params.indexOf(m as never));
    // Every engine binds the stand-ins as they are; should one not, the plan is made per id below.
    return keySlots.length === t.pks.length && keySlots.every((i) => i >= 0) ? { ...made, keySlots } : { ...made, keySlots: [] };
  });
  if (beyond32Bits(values)) plan = make(values); // compiled for this id alone: see beyond32Bits
  else if (plan.keySlots?.length !== t.pks.length) plan = planFor(dc, t, `read ${id}`, params, () => make(values));
  const keys = plan.keySlots?.length ? values.map((v) => boundValue(dc.pdb.db.dialect, v)) : undefined;
  const [row] = await runPlan(dc, t, plan, undefined, keys);
  if (!row) throw notFound(`Row '${id}' of '${t._tn}' not found`);
  return row;
}

export async function exists(dc: DataContext, t: TableModel, id: string): Promise<boolean> {
  const { where } = readScope(dc, t);
  const sql = dc.pdb.db.dialect.compile({ kind: 'select', from: tableRef(t), columns: [{ expr: ONE, as: 'one' }], where: andCond(idCondition(t, id), where), limit: 1 });
  return (await executorOf(dc).query(sql)).length > 0;
}

/** readRaw's statement of a table without a further condition, compiled once with its key values in `slots`. */
const rawReads = new WeakMap<TableModel, { compiled: Compiled; slots: number[] } | null>();

/** A row by id with every column, for writers (no rights check, no nesting); `where` narrows it further. */
export async function readRaw(dc: DataContext, t: TableModel, id: string, where?: Cond): Promise<Record<string, unknown> | null> {
  const fields = parseFields(t, undefined);
  const { dialect } = dc.pdb.db;
  let sql: Compiled | undefined;
  if (!where && !beyond32Bits(idValues(t, id))) {
    // The writers' read of the row before (and after, without RETURNING): compiled once per table model.
    let plan = rawReads.get(t);
    if (plan === undefined) {
      const compiled = { ...dialect.compile(buildSelect(t, { fields, where: keyCondition(t, KEY_MARKS.slice(0, t.pks.length)), limit: 1 })), exact: needsExact(fields) };
      const slots = t.pks.map((_, i) => compiled.params.indexOf(KEY_MARKS[i] as never));
      rawReads.set(t, (plan = slots.every((i) => i >= 0) ? { compiled, slots } : null));
    }
    if (plan) {
      const params = plan.compiled.params.slice();
      idValues(t, id).forEach((v, i) => (params[plan.slots[i]!] = boundValue(dialect, v)));
      sql = { ...plan.compiled, params };
    }
  }
  sql ??= { ...dialect.compile(buildSelect(t, { fields, where: andCond(idCondition(t, id), where), limit: 1 })), exact: needsExact(fields) };
  const [raw] = await executorOf(dc).query<Record<string, unknown>>(sql);
  return raw ? toApiRow(fields, raw) : null;
}
