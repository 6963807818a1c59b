/**
 * Bulk insert for imports: many rows checked and converted one by one (a row that does not fit is
 * reported with its column, value and reason, not inserted), then written with multi-row INSERT
 * statements in one transaction. Rights apply as for `create`: the table's create grant, its
 * columns, and its row condition (rows under a condition are inserted one by one through `create`,
 * which checks each). One audit entry per call holds the rows that went in, with their ids where they
 * are known (keys given, or one auto-increment key read back with RETURNING): a row's history finds
 * its creation there, as for bulkCreate. The rows that went in
 * are announced on the write-event bus (open grids, webhooks) once they are committed: with the
 * caller's `pending` list, when the caller's transaction commits.
 */
import type { Expr } from '../sql/ast';
import type { ColumnModel, TableModel } from '../schema/model';
import { isAppError } from '../lib/errors';
import { assertCan, assertColumns, grantCondition } from './access';
import { executorOf, type DataContext } from './data-context';
import { writableColumn, type KnownColumn } from './columns';
import { knownToWriter } from './read-scope';
import { writeValue } from './logical-values';
import { ID_SEPARATOR, requirePk } from './row-id';
import { needsExact, tableRef } from './select-builder';
import { create } from './records-write';
import { withDisplayNames } from './conflict-names';
import { flushWrites, recordWrite, type PendingWrites } from './write-events';

type Row = Record<string, unknown>;

/** A column a row leaves to the database (auto-increment, or a default where NULL is not allowed). */
const DEFAULT = Symbol('default');
type Cell = Expr | typeof DEFAULT;

/** A row that could not be inserted: its index in the call, the column (null: the whole row) and why. */
export interface InsertProblem {
  index: number;
  column: string | null;
  value: unknown;
  reason: string;
}

/** Most bound parameters in one INSERT statement (and under the engine's own limit, caps.maxParams). */
const MAX_PARAMS = 30_000;
/** Most rows in one INSERT statement. */
const MAX_ROWS = 1000;

const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e)).replace(/^Column '[^']*': /, '');

/** Converts one row into bound values in `cols` order, or answers its problem. */
function convertRow(cols: ColumnModel[], required: ColumnModel[], row: Row, index: number, known: KnownColumn): Cell[] | InsertProblem {
  const out: Cell[] = new Array(cols.length);
  for (let i = 0; i < cols.length; i++) {
    const c = cols[i]!;
    const v = row[c._cn] ?? row[c.cn];
    if (v === null || v === undefined || v === '') {
      if (!c.nullable && !c.ai && c.default === null) return { index, column: c._cn, value: v ?? null, reason: 'a value is required' };
      out[i] = c.ai || (c.default !== null && !c.nullable) ? DEFAULT : { kind: 'val', value: null };
      continue;
    }
    try {
      out[i] = { kind: 'val', value: writeValue(c, v) };
    } catch (e) {
      if (!isAppError(e)) throw e;
      return { index, column: c._cn, value: v, reason: reasonOf(e) };
    }
  }
  const missing = required.filter((c) => !cols.includes(c));
  const shown = missing.find((c) => !known || known(c));
  if (shown) return { index, column: shown._cn, value: null, reason: 'a value is required' };
  if (missing.length) return { index, column: null, value: null, reason: 'a new row needs values you may not set' };
  if (!out.some((x) => x !== DEFAULT)) return { index, column: null, value: null, reason: 'the row holds no value' };
  return out;
}

/**
 * Inserts `rows` (objects of column display or SQL names to values; empty text counts as no value)
 * into `t`; answers how many went in and the problems of the others. With `stopAtProblem` only the
 * rows before the first problem go in. Refuses (403) when the caller may not create rows or set
 * one of the columns named.
 */
export async function insertMany(dc: DataContext, t: TableModel, rows: Row[], opts: { stopAtProblem?: boolean } = {}): Promise<{ inserted: number; problems: InsertProblem[] }> {
  const g = assertCan(dc.actor, t, 'create', dc.acl);
  requirePk(t);
  const names = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) names.add(k);
  const known = knownToWriter(dc, t, g);
  const cols = [...new Map([...names].map((n) => writableColumn(t, n, known)).map((c) => [c.cn, c])).values()];
  assertColumns(g, t, 'create', cols);
  const required = t.columns.filter((c) => !c.nullable && !c.ai && c.default === null);
  const problems: InsertProblem[] = [];
  const good: { index: number; values: Cell[] }[] = [];
  for (let index = 0; index < rows.length; index++) {
    const converted = convertRow(cols, required, rows[index]!, index, known);
    if (Array.isArray(converted)) good.push({ index, values: converted });
    else {
      problems.push(converted);
      if (opts.stopAtProblem) break;
    }
  }
  if (good.length === 0) return { inserted: 0, problems };
  const where = grantCondition(g, t);
  const keyAliases = new Map(t.columns.filter((c) => t.pks.includes(c.cn)).map((c) => [c.cn, c._cn]));
  let inserted = 0;
  /** The values a row was written with, by API alias (its key too when it was given; an auto-increment one read back is added by withKeys). */
  const written = (values: Cell[]): Row => {
    const out: Row = {};
    values.forEach((v, i) => v !== DEFAULT && v.kind === 'val' && (out[cols[i]!._cn] = v.value));
    return out;
  };
  /** The rows that went in (without a row condition: create audits those) and their ids, for the audit. */
  const audited: { ids: (string | null)[]; rows: Row[] } = { ids: [], rows: [] };
  const run = async (tx: DataContext) => {
    // Each row must land inside the caller's rows (`where`): create checks that one row at a time (and announces it).
    const one = (sp: DataContext, x: { index: number; values: Cell[] }) => (where ? create(sp, t, rows[x.index]).then(() => [null]) : insertChunks(sp, t, cols, [x.values]));
    const wentIn = (list: { values: Cell[] }[], keys: (Row | null)[]) => {
      if (where) return;
      list.forEach((x, i) => {
        const row = withKeys(written(x.values), keys[i] ?? null);
        recordWrite(tx, t.tn, 'insert', { data: row });
        audited.rows.push(row);
        audited.ids.push(keys[i] ? t.pks.map((pk) => String(keys[i]![pk])).join(ID_SEPARATOR) : null);
      });
    };
    /** The row's values with its key (by API alias) where the database gave it. */
    const withKeys = (row: Row, keys: Row | null): Row => {
      if (keys) for (const pk of t.pks) row[keyAliases.get(pk)!] ??= keys[pk];
      return row;
    };
    try {
      if (where) throw new RowByRow();
      let keys: (Row | null)[] = [];
      await savepoint(tx, async (sp) => void (keys = await insertChunks(sp, t, cols, good.map((x) => x.values))));
      inserted = good.length;
      wentIn(good, keys);
    } catch (e) {
      if (!(e instanceof RowByRow) && !isAppError(e)) throw e;
      // A row the database refuses (a duplicate key, a missing parent row...): find it, row by row.
      for (const x of good) {
        try {
          let keys: (Row | null)[] = [];
          await savepoint(tx, async (sp) => void (keys = await one(sp, x)));
          inserted++;
          wentIn([x], keys);
        } catch (err) {
          if (!isAppError(err)) throw err;
          // In the grid's words: display names, not SQL names or MariaDB's PRIMARY.
          problems.push({ index: x.index, column: null, value: null, reason: (withDisplayNames(dc.pdb, t, err) as Error).message });
          if (opts.stopAtProblem) break;
        }
      }
    }
    if (audited.rows.length) await tx.audit?.([{ tn: t.tn, cn: null, pk: '', value: JSON.stringify(audited), prevValue: null, op: 'insert', ids: audited.ids }], tx.actor);
  };
  // The caller's transaction announces what went in when it commits; else this call's own, once committed.
  const pending: PendingWrites = dc.pending ?? [];
  if (dc.exec) await run({ ...dc, pending });
  else await dc.pdb.db.driver.transaction((exec) => run({ ...dc, exec, pending }));
  if (!dc.pending) flushWrites(dc.events, pending);
  problems.sort((a, b) => a.index - b.index);
  return { inserted, problems: opts.stopAtProblem ? problems.slice(0, 1) : problems };
}

/** Signals the row-by-row road. */
class RowByRow extends Error {}

/** Runs `fn` inside a savepoint of the current transaction: when it fails, only its statements are undone. */
async function savepoint(dc: DataContext, fn: (sp: DataContext) => Promise<void>): Promise<void> {
  const exec = executorOf(dc);
  if (exec.savepoint) return exec.savepoint((sp) => fn({ ...dc, exec: sp }));
  const ms = dc.pdb.db.dialect.engine === 'mssql';
  const sql = (text: string) => ({ sql: text, params: [] });
  await exec.execute(sql(ms ? 'SAVE TRANSACTION tablo_rows' : 'SAVEPOINT tablo_rows'));
  try {
    await fn(dc);
  } catch (e) {
    await exec.execute(sql(ms ? 'ROLLBACK TRANSACTION tablo_rows' : 'ROLLBACK TO SAVEPOINT tablo_rows'));
    throw e;
  }
  if (!ms) await exec.execute(sql('RELEASE SAVEPOINT tablo_rows'));
}

/**
 * Multi-row INSERTs; a column left to its default in some rows is written by a statement of its own
 * shape. Answers each row's key values (by SQL name; in the order of `rows`) where they are known:
 * given in the row, or one auto-increment key read back with RETURNING (in key order, which is the
 * order the engine hands keys out in, row after row); else null.
 */
async function insertChunks(dc: DataContext, t: TableModel, cols: ColumnModel[], rows: Cell[][]): Promise<(Row | null)[]> {
  const exec = executorOf(dc);
  const { dialect } = dc.pdb.db;
  const keys: (Row | null)[] = new Array(rows.length).fill(null);
  const keyAt = t.pks.map((pk) => cols.findIndex((c) => c.cn === pk));
  const ai = t.pks.length === 1 && dialect.caps.insertReturning ? t.columns.find((c) => c.cn === t.pks[0] && c.ai) : undefined;
  // Rows grouped by which columns they set (a default or auto-increment column left out).
  const groups = new Map<string, { idx: number[]; rows: Expr[][]; at: number[] }>();
  rows.forEach((r, at) => {
    const idx: number[] = [];
    for (let i = 0; i < r.length; i++) if (r[i] !== DEFAULT) idx.push(i);
    const key = idx.join(',');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { idx, rows: [], at: [] }));
    g.rows.push(idx.map((i) => r[i] as Expr));
    g.at.push(at);
  });
  for (const { idx, rows: list, at } of groups.values()) {
    const columns = idx.map((i) => cols[i]!.cn);
    const given = keyAt.every((k) => k >= 0 && idx.includes(k));
    const returning = !given && ai ? [ai.cn] : undefined;
    const per = Math.max(1, Math.min(MAX_ROWS, Math.floor(Math.min(MAX_PARAMS, dialect.caps.maxParams - 1) / columns.length)));
    for (let i = 0; i < list.length; i += per) {
      const q = { ...dialect.compile({ kind: 'insert', table: tableRef(t), columns, rows: list.slice(i, i + per), returning }), prepare: true };
      if (!returning) {
        await exec.execute(q);
        continue;
      }
      const raws = await exec.query<Row>({ ...q, exact: needsExact([ai!]) });
      // One key per row, else none is put on a row (a key on the wrong row would tell another row's history).
      if (raws.length === Math.min(per, list.length - i)) inKeyOrder(raws.map((r) => r[ai!.cn])).forEach((k, j) => (keys[at[i + j]!] = { [ai!.cn]: k }));
    }
    if (given) at.forEach((a) => (keys[a] = Object.fromEntries(t.pks.map((pk, n) => [pk, (rows[a]![keyAt[n]!] as { value: unknown }).value]))));
  }
  return keys;
}

/** Auto-increment keys ascending (usually so already: checked in one pass before any sorting). */
function inKeyOrder(keys: unknown[]): unknown[] {
  const num = (v: unknown) => (typeof v === 'bigint' ? v : BigInt(String(v)));
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = num(keys[i - 1]) <= num(keys[i]);
  return sorted ? keys : [...keys].sort((a, b) => (num(a) < num(b) ? -1 : num(a) > num(b) ? 1 : 0));
}
