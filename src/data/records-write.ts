/**
 * Writes: create, update, delete and their bulk forms (one transaction, all or nothing). Values
 * are checked against each column's type and nullability (400 naming the column); the answer is
 * the row as the database holds it after the write: from RETURNING where the engine has it (see
 * caps.insertReturning / returning / deleteReturning), else read again; every change is written to
 * the audit log.
 *
 * A write of one statement (create, update and delete of one row with no row condition) runs without
 * BEGIN / COMMIT; a row condition, or several statements that must stand or fall together (bulk
 * calls), take a transaction. Audit records and write events (webhooks, realtime) follow once the
 * write is final, never for a write that rolled back.
 */
import type { Cond, Expr } from '../sql/ast';
import type { ColumnModel, TableModel } from '../schema/model';
import { badRequest, forbidden, notFound } from '../lib/errors';
import { assertCan, assertColumns, grantCondition, type Grant } from './access';
import { andCond, knownToWriter, visibleRow } from './read-scope';
import { executorOf, type AuditSink, type DataAuditEntry, type DataContext } from './data-context';
import type { Actor } from '../lib/actor';
import { HIDDEN_REQUIRED, writableColumn, type KnownColumn } from './columns';
import { writeValue } from './logical-values';
import { idCondition, idsCondition, idValues, MAX_COMPOSITE_IDS, requirePk, rowId } from './row-id';
import { readRaw } from './records-read';
import { buildSelect, keyString, needsExact, tableRef } from './select-builder';
import { toApiRow } from './row-maker';
import { outputValue } from './values';
import { isAppError } from '../lib/errors';
import { allColumns } from './columns';
import { flushWrites, recordWrite, type PendingWrites } from './write-events';
import { namingConflicts } from './conflict-names';

type Row = Record<string, unknown>;


const auditText = (v: unknown) => (v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** Body -> [column, bound value] pairs; unknown columns (hidden ones: outside `known`) and bad values answer 400. */
function valuesOf(t: TableModel, body: unknown, mode: 'create' | 'update', known: KnownColumn): [ColumnModel, Expr][] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('The body must be a JSON object of column values');
  const out: [ColumnModel, Expr][] = [];
  for (const name in body as Row) {
    if (!Object.hasOwn(body, name)) continue;
    const value = (body as Row)[name];
    const c = writableColumn(t, name, known);
    // The alias and the SQL name of one column ('Title' and 'title'): PostgreSQL and MariaDB refused the
    // statement in their own words, SQLite kept one of the two values.
    if (out.some((o) => o[0] === c)) {
      const first = Object.keys(body).find((k) => k !== name && writableColumn(t, k) === c);
      throw badRequest(`Column '${c._cn}' is given twice in the body ('${first}' and '${name}')`);
    }
    if (c.ai && (value === null || value === undefined)) continue;
    if ((value === null || value === undefined) && !c.nullable) throw badRequest(`Column '${c._cn}' cannot be empty`);
    out.push([c, { kind: 'val', value: writeValue(c, value) }]);
  }
  if (mode === 'create') {
    let hidden = false;
    for (const r of requiredColumns(t)) {
      let given = false;
      for (let i = 0; i < out.length && !given; i++) given = out[i]![0] === r;
      if (given) continue;
      if (known && !known(r)) hidden = true;
      else throw badRequest(`Column '${r._cn}' is required`);
    }
    if (hidden) throw forbidden(HIDDEN_REQUIRED);
  }
  if (out.length === 0 && mode === 'update') throw badRequest('Nothing to update: the body has no column values');
  return out;
}

/** Columns a new row must be given (not nullable, no default, not auto-increment), kept per table model. */
const required = new WeakMap<TableModel, ColumnModel[]>();
export function requiredColumns(t: TableModel): ColumnModel[] {
  let cols = required.get(t);
  if (!cols) required.set(t, (cols = t.columns.filter((c) => !c.nullable && !c.ai && c.default === null)));
  return cols;
}

/** DateTime columns set to the time of each change (type option `touch`), kept per table model. */
const touchedColumns = new WeakMap<TableModel, ColumnModel[]>();
function touchColumns(t: TableModel): ColumnModel[] {
  let cols = touchedColumns.get(t);
  if (!cols) touchedColumns.set(t, (cols = t.columns.filter((c) => c.uidt === 'DateTime' && c.meta?.touch === true)));
  return cols;
}

/**
 * What an update sets: the caller's values, and each `touch` column the caller did not set at the
 * current time, as a user-written UTC time is stored (writeValue: 'YYYY-MM-DD HH:MM:SS'). The added
 * columns need no update right (the database keeps them, not the caller) and are not audited.
 */
function withTouched(t: TableModel, values: [ColumnModel, Expr][]): [ColumnModel, Expr][] {
  const cols = touchColumns(t);
  if (cols.length === 0) return values;
  let out = values;
  let now: string | undefined;
  for (const c of cols) {
    let given = false;
    for (let i = 0; i < values.length && !given; i++) given = values[i]![0] === c;
    if (given) continue;
    if (out === values) out = values.slice();
    out.push([c, { kind: 'val', value: writeValue(c, (now ??= new Date().toISOString())) }]);
  }
  return out;
}

/** SQL names of a table's stored columns: what RETURNING asks for (kept per table model). */
const storedNames = new WeakMap<TableModel, string[]>();
function returnedColumns(t: TableModel): string[] {
  let names = storedNames.get(t);
  if (!names) storedNames.set(t, (names = t.columns.map((c) => c.cn)));
  return names;
}

/** The API row of a row that RETURNING gave (keyed by SQL names), as readRaw would make it. */
function returnedRow(t: TableModel, raw: Row): Row {
  const out: Row = {};
  for (const c of t.columns) out[c._cn] = outputValue(c, raw[c.cn]);
  return out;
}

/** The id of a row RETURNING gave (its key values as the driver gave them). */
const returnedId = (t: TableModel, raw: Row) => (t.pks.length === 1 ? String(raw[t.pks[0]!]) : t.pks.map((pk) => String(raw[pk])).join('___'));

/** Whether a row as RETURNING gives it is the whole row (no virtual column to compute with a SELECT). */
const returnsWholeRow = (t: TableModel) => !t.virtuals?.length;

/** A compiled write that answers rows, asking integers to come back exact where a 64-bit column is among them. */
function returningQuery(dc: DataContext, t: TableModel, q: Parameters<DataContext['pdb']['db']['dialect']['compile']>[0]) {
  return { ...dc.pdb.db.dialect.compile(q), exact: needsExact(t.columns) };
}

/** Inserts one row; answers its id and the whole row (RETURNING, else read again by key). */
async function insertRow(dc: DataContext, t: TableModel, values: [ColumnModel, Expr][]): Promise<{ id: string; row: Row }> {
  const exec = executorOf(dc);
  const { dialect } = dc.pdb.db;
  const q = { kind: 'insert' as const, table: tableRef(t), columns: values.map(([c]) => c.cn), rows: [values.map(([, e]) => e)] };
  if (dialect.caps.insertReturning) {
    const [raw] = await exec.query<Row>(returningQuery(dc, t, { ...q, returning: returnedColumns(t) }));
    const id = returnedId(t, raw!);
    return { id, row: returnsWholeRow(t) ? returnedRow(t, raw!) : (await readRaw(dc, t, id))! };
  }
  const id = await insertForId(dc, t, values);
  return { id, row: (await readRaw(dc, t, id))! };
}

/** Inserts one row without asking for it back: answers its id (RETURNING its key where the engine has it, else the insert id). */
async function insertForId(dc: DataContext, t: TableModel, values: [ColumnModel, Expr][]): Promise<string> {
  const { dialect } = dc.pdb.db;
  const q = { kind: 'insert' as const, table: tableRef(t), columns: values.map(([c]) => c.cn), rows: [values.map(([, e]) => e)] };
  if (dialect.caps.returning) {
    const [raw] = await executorOf(dc).query<Row>(dialect.compile({ ...q, returning: t.pks }));
    return returnedId(t, raw!);
  }
  const res = await executorOf(dc).execute(dialect.compile(q));
  return idAfterInsert(t, values, res.insertId);
}

/** The id of a row inserted without RETURNING: its key values from the body, or the engine's insert id. */
function idAfterInsert(t: TableModel, values: [ColumnModel, Expr][], insertId: unknown): string {
  const byCol = new Map(values.map(([c, e]) => [c.cn, e.kind === 'val' ? e.value : null]));
  return t.pks
    .map((pk) => {
      const c = t.columns.find((x) => x.cn === pk)!;
      return String(byCol.get(pk) ?? (c.ai ? insertId : null));
    })
    .join('___');
}

/** The write's columns must be granted; answers the grant's row condition. */
function checkWrite(t: TableModel, g: Grant, op: 'create' | 'update', values: [ColumnModel, Expr][]): Cond | undefined {
  assertColumns(g, t, op, values.map(([c]) => c));
  return grantCondition(g, t);
}

/** 403 unless the row `id` matches the row condition (a write may not put a row outside it). */
async function assertInside(dc: DataContext, t: TableModel, id: string, where: Cond | undefined): Promise<void> {
  if (where && !(await readRaw(dc, t, id, where))) throw forbidden(`The row would be outside the rows of '${t._tn}' you may write`);
}

export async function create(dc: DataContext, t: TableModel, body: unknown): Promise<Row> {
  const g = assertCan(dc.actor, t, 'create', dc.acl);
  requirePk(t);
  const values = valuesOf(t, body, 'create', knownToWriter(dc, t, g));
  const where = checkWrite(t, g, 'create', values);
  // One INSERT (with RETURNING) needs no transaction; a row condition is checked after the insert, which it must undo.
  return namingConflicts(dc.pdb, t, () => writeUnit(dc, !!where, async (tx) => {
    const { id, row } = await insertRow(tx, t, values);
    await assertInside(tx, t, id, where);
    await tx.audit?.([{ tn: t.tn, cn: null, pk: id, value: auditText(row), prevValue: null, op: 'insert' }], tx.actor);
    recordWrite(tx, t.tn, 'insert', { data: row });
    return visibleRow(tx, t, row);
  }));
}

export async function update(dc: DataContext, t: TableModel, id: string, body: unknown): Promise<Row> {
  const g = assertCan(dc.actor, t, 'update', dc.acl);
  requirePk(t);
  const values = valuesOf(t, body, 'update', knownToWriter(dc, t, g));
  const where = checkWrite(t, g, 'update', values);
  // The row before (for the audit's previous values and the events), then one UPDATE (with RETURNING), or
  // both in one statement where the engine can; a row condition is checked on the row after, which must
  // undo the update: then in a transaction.
  return namingConflicts(dc.pdb, t, () => writeUnit(dc, !!where, async (tx) => {
    const { dialect } = tx.pdb.db;
    const q = { kind: 'update' as const, table: tableRef(t), set: withTouched(t, values).map(([c, e]) => ({ column: c.cn, value: e })), where: andCond(idCondition(t, id), where) };
    if (!where && dialect.caps.updateReturningOld && returnsWholeRow(t)) {
      // One statement answers the row before and after (no row condition to check after it).
      const cols = returnedColumns(t);
      const [raw] = await executorOf(tx).query<Row>(returningQuery(tx, t, { ...q, returning: cols, old: { columns: cols, keys: t.pks } }));
      if (!raw) throw notFound(`Row '${id}' of '${t._tn}' not found`);
      return updated(tx, t, id, values, returnedRow(t, Object.fromEntries(cols.map((c, i) => [c, raw[`__old_${i}`]]))), returnedRow(t, raw));
    }
    const before = await readRaw(tx, t, id, where);
    if (!before) throw notFound(`Row '${id}' of '${t._tn}' not found`);
    // The key may have changed: the row is found by its new key.
    const newId = rowId(t, { ...before, ...Object.fromEntries(values.map(([c, e]) => [c._cn, e.kind === 'val' ? e.value : null])) });
    let after: Row | null;
    if (dialect.caps.returning && returnsWholeRow(t)) {
      const [raw] = await executorOf(tx).query<Row>(returningQuery(tx, t, { ...q, returning: returnedColumns(t) }));
      await assertInside(tx, t, newId, where);
      after = raw ? returnedRow(t, raw) : null;
    } else {
      await executorOf(tx).execute(dialect.compile(q));
      await assertInside(tx, t, newId, where);
      after = await readRaw(tx, t, newId);
    }
    return updated(tx, t, id, values, before, after ?? before);
  }));
}

/**
 * After an update: the audit records of the values the caller changed (not the `touch` columns the
 * update set by itself), the write event, and the row as the caller may see it.
 */
async function updated(tx: DataContext, t: TableModel, id: string, values: [ColumnModel, Expr][], before: Row, after: Row): Promise<Row> {
  const entries: DataAuditEntry[] = values
    .filter(([c]) => auditText(before[c._cn]) !== auditText(after[c._cn]))
    .map(([c]) => ({ tn: t.tn, cn: c.cn, pk: id, value: auditText(after[c._cn]), prevValue: auditText(before[c._cn]), op: 'update' }));
  if (entries.length) await tx.audit?.(entries, tx.actor);
  recordWrite(tx, t.tn, 'update', { data: after, previous: before });
  return visibleRow(tx, t, after);
}

export async function remove(dc: DataContext, t: TableModel, id: string): Promise<number> {
  const g = assertCan(dc.actor, t, 'delete', dc.acl);
  requirePk(t);
  const where = grantCondition(g, t);
  const { dialect } = dc.pdb.db;
  const q = { kind: 'delete' as const, table: tableRef(t), where: andCond(idCondition(t, id), where) };
  let before: Row | null;
  if (dialect.caps.deleteReturning && returnsWholeRow(t)) {
    // One statement: the deleted row comes back with it.
    const raws = await namingConflicts(dc.pdb, t, () => executorOf(dc).query<Row>(returningQuery(dc, t, { ...q, returning: returnedColumns(t) })));
    if (raws.length === 0) throw notFound(`Row '${id}' of '${t._tn}' not found`);
    before = returnedRow(t, raws[0]!);
  } else {
    before = await readRaw(dc, t, id, where);
    const res = await namingConflicts(dc.pdb, t, () => executorOf(dc).execute(dialect.compile(q)));
    if (res.affected === 0) throw notFound(`Row '${id}' of '${t._tn}' not found`);
  }
  await dc.audit?.([{ tn: t.tn, cn: null, pk: id, value: null, prevValue: auditText(before), op: 'delete' }], dc.actor);
  recordWrite(dc, t.tn, 'delete', { data: before ?? {} });
  return 1;
}

const requireArray = (body: unknown): unknown[] => {
  if (!Array.isArray(body)) throw badRequest('The body of a bulk call must be a JSON array');
  return body;
};

/**
 * Runs fn as one write: inside one transaction of the project database when `transaction` (else its
 * statements run as they come: a single statement needs none); its audit records are written and its
 * events announced once it is final (committed), and not at all when it fails.
 */
async function writeUnit<T>(dc: DataContext, transaction: boolean, fn: (tx: DataContext) => Promise<T>): Promise<T> {
  if (dc.exec) return fn(dc);
  const pending: PendingWrites = [];
  // Audit entries are written once the transaction has committed: not while it holds the project database
  // (on SQLite its one connection, which every other request waits for), and not at all for a write that
  // rolls back. The sink decides whether the answer waits for them (see metaAuditSink).
  const sink = dc.audit;
  const audited: DataAuditEntry[] = [];
  let auditActor: Actor | undefined;
  const collect: AuditSink | undefined = sink && (async (entries, actor) => {
    if (auditActor && auditActor !== actor) await sink(audited.splice(0), auditActor);
    auditActor = actor;
    for (const e of entries) audited.push(e);
  });
  const out = transaction
    ? await dc.pdb.db.driver.transaction((exec) => fn({ ...dc, exec, pending, audit: collect }))
    : await fn({ ...dc, pending, audit: collect });
  if (sink && audited.length) await sink(audited, auditActor!);
  flushWrites(dc.events, pending);
  return out;
}

/** Runs fn inside one transaction of the project database; its writes are announced once it commits. */
const inTransaction = <T>(dc: DataContext, fn: (tx: DataContext) => Promise<T>): Promise<T> => writeUnit(dc, true, fn);

/** Most rows in one multi-row INSERT. */
const MAX_INSERT_ROWS = 1000;

/**
 * Creates every row or none; answers the created rows' ids in the order given. The rows are checked
 * first (a bad value or a column the caller may not set answers its error naming the row, before
 * anything is written), then written with one multi-row INSERT ... RETURNING per chunk in one
 * transaction. When the database refuses the rows (a duplicate key, a missing parent row...), the
 * call is done again row by row to name the row at fault, as before.
 */
export async function bulkCreate(dc: DataContext, t: TableModel, body: unknown): Promise<string[]> {
  const rows = requireArray(body);
  const g = assertCan(dc.actor, t, 'create', dc.acl);
  requirePk(t);
  if (dc.exec || rows.length < 2) return bulkCreateRowByRow(dc, t, rows);
  const where = grantCondition(g, t);
  const granted = new Set<ColumnModel>();
  const known = knownToWriter(dc, t, g);
  const all: [ColumnModel, Expr][][] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    all[i] = withIndexNow(i, () => {
      const values = valuesOf(t, rows[i], 'create', known);
      for (const [c] of values) {
        if (granted.has(c)) continue;
        assertColumns(g, t, 'create', [c]);
        granted.add(c);
      }
      return values;
    });
  }
  // One multi-row INSERT is all or nothing by itself: a transaction only for several statements or a row condition.
  const transaction = !!where || !oneInsert(dc, t, all);
  try {
    return await namingConflicts(dc.pdb, t, () => writeUnit(dc, transaction, async (tx) => {
      const made = await insertRows(tx, t, all);
      if (where) await assertAllInside(tx, t, made.map((m) => m.id), where);
      const ids = made.map(({ row }) => rowId(t, row));
      // One audit entry for the call, holding every row (the row history finds a row's creation in it by id).
      await tx.audit?.([{ tn: t.tn, cn: null, pk: '', value: JSON.stringify({ ids, rows: made.map(({ row }) => row) }), prevValue: null, op: 'insert', ids }], tx.actor);
      for (const { row } of made) recordWrite(tx, t.tn, 'insert', { data: row });
      return ids;
    }));
  } catch (e) {
    // Refused by the database (400, 409): nothing was written; row by row names the row at fault.
    if (isAppError(e) && (e.status === 400 || e.status === 409)) return bulkCreateRowByRow(dc, t, rows);
    throw e;
  }
}

/** Whether insertRows writes these rows with one statement (one set of columns, one chunk, RETURNING the whole rows). */
function oneInsert(dc: DataContext, t: TableModel, rows: [ColumnModel, Expr][][]): boolean {
  const { caps } = dc.pdb.db.dialect;
  const first = rows[0]!;
  if (!caps.insertReturning || first.length === 0 || !returnsWholeRow(t)) return false;
  if (rows.length > chunkRows(dc, first.length)) return false;
  return rows.every((r) => r.length === first.length && r.every(([c], i) => c === first[i]![0]));
}

/** Rows per multi-row INSERT of `columns` columns (under the engine's bound-parameter limit). */
const chunkRows = (dc: DataContext, columns: number) => Math.max(1, Math.min(MAX_INSERT_ROWS, Math.floor((dc.pdb.db.dialect.caps.maxParams - 1) / columns)));

/** bulkCreate one row after the other (each through create): for one row, inside a caller's transaction, and to name a refused row. */
function bulkCreateRowByRow(dc: DataContext, t: TableModel, rows: unknown[]): Promise<string[]> {
  return inTransaction(dc, async (tx) => {
    const ids: string[] = [];
    for (const [i, r] of rows.entries()) ids.push(await withIndex(i, () => create(tx, t, r).then((row) => rowId(t, row))));
    return ids;
  });
}

/**
 * Inserts rows (each its checked [column, value] pairs) with multi-row INSERTs, rows that set the same
 * columns together, chunked under the engine's bound-parameter limit; answers each row's id and whole
 * row in the order given. With RETURNING the rows come back with the statement (read again in one IN
 * query per chunk only when the table has virtual columns); without it each row is inserted alone for
 * its id, and all are read back by IN queries.
 */
async function insertRows(dc: DataContext, t: TableModel, rows: [ColumnModel, Expr][][]): Promise<{ id: string; row: Row }[]> {
  const exec = executorOf(dc);
  const { dialect } = dc.pdb.db;
  const out: { id: string; row: Row }[] = new Array(rows.length);
  const groups = new Map<string, number[]>();
  for (let i = 0; i < rows.length; i++) {
    const key = rows[i]!.map(([c]) => c.cn).join('\u0000');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(i);
  }
  const reread: number[] = [];
  for (const idx of groups.values()) {
    const columns = rows[idx[0]!]!.map(([c]) => c.cn);
    if (!dialect.caps.insertReturning || columns.length === 0) {
      // One statement per row (its id from the insert id or the body); the rows are read back below.
      for (const i of idx) {
        if (dialect.caps.insertReturning) out[i] = await insertRow(dc, t, rows[i]!);
        else {
          out[i] = { id: await insertForId(dc, t, rows[i]!), row: {} };
          reread.push(i);
        }
      }
      continue;
    }
    const per = chunkRows(dc, columns.length);
    const keysGiven = t.pks.every((pk) => columns.includes(pk));
    const aiKey = t.pks.length === 1 && !keysGiven ? t.columns.find((c) => c.cn === t.pks[0] && c.ai) : undefined;
    for (let s = 0; s < idx.length; s += per) {
      const chunk = idx.slice(s, s + per);
      const q = { kind: 'insert' as const, table: tableRef(t), columns, rows: chunk.map((i) => rows[i]!.map(([, e]) => e)), returning: returnedColumns(t) };
      const raws = await exec.query<Row>({ ...returningQuery(dc, t, q), prepare: true });
      if (raws.length !== chunk.length) throw new Error(`INSERT ... RETURNING answered ${raws.length} rows for ${chunk.length}`);
      placeReturned(t, rows, chunk, raws, keysGiven, aiKey?.cn).forEach((raw, k) => {
        const i = chunk[k]!;
        out[i] = { id: returnedId(t, raw), row: returnedRow(t, raw) };
        if (!returnsWholeRow(t)) reread.push(i);
      });
    }
  }
  if (reread.length) {
    const found = await readRawMany(dc, t, reread.map((i) => out[i]!.id));
    for (const i of reread) {
      const row = found.get(idKey(t, out[i]!.id));
      if (!row) throw new Error(`Row '${out[i]!.id}' of '${t._tn}' not found after its insert`);
      out[i]!.row = row;
    }
  }
  return out;
}

/**
 * The rows RETURNING gave, in the order of `chunk`: matched by the key values given in the body, else
 * (one auto-increment key) in the order of their keys, which the engine hands out row after row;
 * else in the order they came (which is the order of VALUES on every engine here).
 */
function placeReturned(t: TableModel, rows: [ColumnModel, Expr][][], chunk: number[], raws: Row[], keysGiven: boolean, aiKey: string | undefined): Row[] {
  if (keysGiven) {
    const byKey = new Map(raws.map((raw) => [keyString(t.pks.map((pk) => raw[pk])), raw]));
    const placed = chunk.map((i) => {
      const values = rows[i]!;
      return byKey.get(keyString(t.pks.map((pk) => {
        const e = values.find(([c]) => c.cn === pk)![1];
        return e.kind === 'val' ? e.value : null;
      })));
    });
    if (placed.every((r) => r !== undefined)) return placed as Row[];
    return raws;
  }
  if (aiKey) {
    // Usually in key order already: checked in one pass before any sorting.
    const keys = raws.map((raw) => raw[aiKey]);
    const numbers = keys.every((k) => typeof k === 'number');
    const ordered = (a: unknown, b: unknown) => (numbers ? (a as number) <= (b as number) : BigInt(String(a)) <= BigInt(String(b)));
    let sorted = true;
    for (let i = 1; i < keys.length && sorted; i++) sorted = ordered(keys[i - 1], keys[i]);
    if (sorted) return raws;
    const num = (v: unknown) => (typeof v === 'bigint' ? v : BigInt(String(v)));
    return [...raws].sort((a, b) => {
      const x = num(a[aiKey]);
      const y = num(b[aiKey]);
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }
  return raws;
}

/** Rows by id with every column (readRaw for many ids), in IN queries of at most MAX_INSERT_ROWS keys. */
async function readRawMany(dc: DataContext, t: TableModel, ids: string[]): Promise<Map<string, Row>> {
  const fields = allColumns(t);
  const out = new Map<string, Row>();
  const exec = executorOf(dc);
  const per = idsPerQuery(dc, t);
  for (let s = 0; s < ids.length; s += per) {
    const where = idsCondition(t, ids.slice(s, s + per));
    const raws = await exec.query<Row>({ ...dc.pdb.db.dialect.compile(buildSelect(t, { fields, where })), exact: needsExact(fields) });
    for (const raw of raws) {
      const row = toApiRow(fields, raw);
      out.set(idKey(t, rowId(t, row)), row);
    }
  }
  return out;
}

/** Ids per query of readRawMany and assertAllInside: under the bound-parameter limit, and MAX_COMPOSITE_IDS for a composite key. */
const idsPerQuery = (dc: DataContext, t: TableModel) =>
  Math.max(1, Math.min(t.pks.length > 1 ? MAX_COMPOSITE_IDS : MAX_INSERT_ROWS, Math.floor((dc.pdb.db.dialect.caps.maxParams - 1) / t.pks.length)));

/** An id in one spelling whatever the types its key values came in (`'5'` and `5` alike). */
const idKey = (t: TableModel, id: string) => keyString(idValues(t, id));

/** 403 naming the first row (by its place in the call) that the row condition `where` does not hold. */
async function assertAllInside(dc: DataContext, t: TableModel, ids: string[], where: Cond): Promise<void> {
  const pkCols = t.pks.map((pk) => t.columns.find((c) => c.cn === pk)!);
  const inside = new Set<string>();
  const per = idsPerQuery(dc, t);
  for (let s = 0; s < ids.length; s += per) {
    const byId = idsCondition(t, ids.slice(s, s + per));
    const raws = await executorOf(dc).query<Row>(dc.pdb.db.dialect.compile(buildSelect(t, { fields: pkCols, where: andCond(byId, where) })));
    for (const raw of raws) inside.add(idKey(t, rowId(t, toApiRow(pkCols, raw))));
  }
  const i = ids.findIndex((id) => !inside.has(idKey(t, id)));
  if (i >= 0) throw forbidden(`Row ${i + 1}: The row would be outside the rows of '${t._tn}' you may write`);
}

/** Each element holds the key columns and the values to set; all or nothing. */
export async function bulkUpdate(dc: DataContext, t: TableModel, body: unknown): Promise<number> {
  const rows = requireArray(body);
  requirePk(t);
  return inTransaction(dc, async (tx) => {
    for (const [i, r] of rows.entries()) {
      await withIndex(i, async () => {
        const { id, values } = splitKey(t, r);
        await update(tx, t, id, values);
      });
    }
    return rows.length;
  });
}

/** Each element is a key object ({ id: 1 }) or an id string; all or nothing. */
export async function bulkDelete(dc: DataContext, t: TableModel, body: unknown): Promise<number> {
  const rows = requireArray(body);
  requirePk(t);
  return inTransaction(dc, async (tx) => {
    for (const [i, r] of rows.entries()) await withIndex(i, () => remove(tx, t, typeof r === 'string' || typeof r === 'number' ? String(r) : splitKey(t, r).id));
    return rows.length;
  });
}

function splitKey(t: TableModel, r: unknown): { id: string; values: Row } {
  if (r === null || typeof r !== 'object' || Array.isArray(r)) throw badRequest('Each element must be an object holding the primary key');
  const values: Row = { ...(r as Row) };
  const parts = t.pks.map((pk) => {
    const c = t.columns.find((x) => x.cn === pk)!;
    const v = values[c._cn] ?? values[c.cn];
    if (v === undefined || v === null) throw badRequest(`Each element needs its primary key '${c._cn}'`);
    delete values[c._cn];
    delete values[c.cn];
    return String(v);
  });
  return { id: parts.join('___'), values };
}

/** Prefixes an error of the n-th element with its position (a check that does not wait). */
function withIndexNow<T>(i: number, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof Error && 'status' in e) e.message = `Row ${i + 1}: ${e.message}`;
    throw e;
  }
}

/** Prefixes an error of the n-th element with its position. */
async function withIndex<T>(i: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof Error && 'status' in e) e.message = `Row ${i + 1}: ${e.message}`;
    throw e;
  }
}
