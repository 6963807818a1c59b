/**
 * Writes: create, update, delete and their bulk forms (one transaction, all or nothing). Values
 * are checked against each column's type and nullability (400 naming the column); the answer is
 * the row re-read from the database; every change is written to the audit log.
 */
import type { Cond, Expr } from '../sql/ast';
import type { ColumnModel, TableModel } from '../schema/model';
import { badRequest, forbidden, notFound } from '../lib/errors';
import { assertCan, assertColumns, grantCondition, type Grant } from './access';
import { andCond, visibleRow } from './read-scope';
import { executorOf, type AuditSink, type DataAuditEntry, type DataContext } from './data-context';
import type { Actor } from '../lib/actor';
import { writableColumn } from './columns';
import { writeValue } from './logical-values';
import { idCondition, requirePk, rowId } from './row-id';
import { readRaw } from './records-read';
import { tableRef } from './select-builder';
import { flushWrites, recordWrite, type PendingWrites } from './write-events';
import { namingConflicts } from './conflict-names';

type Row = Record<string, unknown>;

const auditText = (v: unknown) => (v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** Body -> [column, bound value] pairs; unknown columns and bad values answer 400. */
function valuesOf(t: TableModel, body: unknown, mode: 'create' | 'update'): [ColumnModel, Expr][] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('The body must be a JSON object of column values');
  const out: [ColumnModel, Expr][] = [];
  for (const [name, value] of Object.entries(body as Row)) {
    const c = writableColumn(t, name);
    if (c.ai && (value === null || value === undefined)) continue;
    if ((value === null || value === undefined) && !c.nullable) throw badRequest(`Column '${c._cn}' cannot be empty`);
    out.push([c, { kind: 'val', value: writeValue(c, value) }]);
  }
  if (mode === 'create') {
    const given = new Set(out.map(([c]) => c.cn));
    const missing = t.columns.find((c) => !c.nullable && !c.ai && c.default === null && !given.has(c.cn));
    if (missing) throw badRequest(`Column '${missing._cn}' is required`);
  }
  if (out.length === 0 && mode === 'update') throw badRequest('Nothing to update: the body has no column values');
  return out;
}

/** The id of a freshly inserted row: from RETURNING, the body, or the engine's insert id. */
async function insertedId(dc: DataContext, t: TableModel, values: [ColumnModel, Expr][]): Promise<string> {
  const exec = executorOf(dc);
  const { dialect } = dc.pdb.db;
  const q = { kind: 'insert' as const, table: tableRef(t), columns: values.map(([c]) => c.cn), rows: [values.map(([, e]) => e)], returning: t.pks };
  if (dialect.caps.returning) {
    const [row] = await exec.query<Row>(dialect.compile(q));
    return t.pks.map((pk) => String(row![pk])).join('___');
  }
  const res = await exec.execute(dialect.compile({ ...q, returning: undefined }));
  const byCol = new Map(values.map(([c, e]) => [c.cn, e.kind === 'val' ? e.value : null]));
  return t.pks
    .map((pk) => {
      const c = t.columns.find((x) => x.cn === pk)!;
      return String(byCol.get(pk) ?? (c.ai ? res.insertId : null));
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
  const values = valuesOf(t, body, 'create');
  const where = checkWrite(t, g, 'create', values);
  return namingConflicts(dc.pdb, t, () => inTransaction(dc, async (tx) => {
    const id = await insertedId(tx, t, values);
    await assertInside(tx, t, id, where);
    const row = (await readRaw(tx, t, id))!;
    await tx.audit?.([{ tn: t.tn, cn: null, pk: id, value: auditText(row), prevValue: null, op: 'insert' }], tx.actor);
    recordWrite(tx, t.tn, 'insert', { data: row });
    return visibleRow(tx, t, row);
  }));
}

export async function update(dc: DataContext, t: TableModel, id: string, body: unknown): Promise<Row> {
  const g = assertCan(dc.actor, t, 'update', dc.acl);
  requirePk(t);
  const values = valuesOf(t, body, 'update');
  const where = checkWrite(t, g, 'update', values);
  return namingConflicts(dc.pdb, t, () => inTransaction(dc, async (tx) => {
    const before = await readRaw(tx, t, id, where);
    if (!before) throw notFound(`Row '${id}' of '${t._tn}' not found`);
    const { dialect } = tx.pdb.db;
    await executorOf(tx).execute(dialect.compile({ kind: 'update', table: tableRef(t), set: values.map(([c, e]) => ({ column: c.cn, value: e })), where: andCond(idCondition(t, id), where) }));
    // The key may have changed: find the row by its new key.
    const newId = rowId(t, { ...before, ...Object.fromEntries(values.map(([c, e]) => [c._cn, e.kind === 'val' ? e.value : null])) });
    await assertInside(tx, t, newId, where);
    const after = (await readRaw(tx, t, newId)) ?? before;
    const entries: DataAuditEntry[] = values
      .filter(([c]) => auditText(before[c._cn]) !== auditText(after[c._cn]))
      .map(([c]) => ({ tn: t.tn, cn: c.cn, pk: id, value: auditText(after[c._cn]), prevValue: auditText(before[c._cn]), op: 'update' }));
    if (entries.length) await tx.audit?.(entries, tx.actor);
    recordWrite(tx, t.tn, 'update', { data: after, previous: before });
    return visibleRow(tx, t, after);
  }));
}

export async function remove(dc: DataContext, t: TableModel, id: string): Promise<number> {
  const g = assertCan(dc.actor, t, 'delete', dc.acl);
  requirePk(t);
  const where = grantCondition(g, t);
  const before = await readRaw(dc, t, id, where);
  const res = await namingConflicts(dc.pdb, t, () => executorOf(dc).execute(dc.pdb.db.dialect.compile({ kind: 'delete', table: tableRef(t), where: andCond(idCondition(t, id), where) })));
  if (res.affected === 0) throw notFound(`Row '${id}' of '${t._tn}' not found`);
  await dc.audit?.([{ tn: t.tn, cn: null, pk: id, value: null, prevValue: auditText(before), op: 'delete' }], dc.actor);
  recordWrite(dc, t.tn, 'delete', { data: before ?? {} });
  return 1;
}

const requireArray = (body: unknown): unknown[] => {
  if (!Array.isArray(body)) throw badRequest('The body of a bulk call must be a JSON array');
  return body;
};

/** Runs fn inside one transaction of the project database; its writes are announced once it commits. */
async function inTransaction<T>(dc: DataContext, fn: (tx: DataContext) => Promise<T>): Promise<T> {
  if (dc.exec) return fn(dc);
  const pending: PendingWrites = [];
  // Audit entries are written once the transaction has committed (still before the answer): not while it
  // holds the project database (on SQLite its one connection, which every other request waits for), and
  // not at all for a write that rolls back.
  const sink = dc.audit;
  const audited: DataAuditEntry[] = [];
  let auditActor: Actor | undefined;
  const collect: AuditSink | undefined = sink && (async (entries, actor) => {
    if (auditActor && auditActor !== actor) await sink(audited.splice(0), auditActor);
    auditActor = actor;
    audited.push(...entries);
  });
  const out = await dc.pdb.db.driver.transaction((exec) => fn({ ...dc, exec, pending, audit: collect }));
  if (sink && audited.length) await sink(audited, auditActor!);
  flushWrites(dc.events, pending);
  return out;
}

/** Creates every row or none; answers the created rows' ids. */
export async function bulkCreate(dc: DataContext, t: TableModel, body: unknown): Promise<string[]> {
  const rows = requireArray(body);
  assertCan(dc.actor, t, 'create', dc.acl);
  requirePk(t);
  return inTransaction(dc, async (tx) => {
    const ids: string[] = [];
    for (const [i, r] of rows.entries()) ids.push(await withIndex(i, () => create(tx, t, r).then((row) => rowId(t, row))));
    return ids;
  });
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

/** Prefixes an error of the n-th element with its position. */
async function withIndex<T>(i: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof Error && 'status' in e) e.message = `Row ${i + 1}: ${e.message}`;
    throw e;
  }
}
