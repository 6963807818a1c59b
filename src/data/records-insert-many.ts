/**
 * Bulk insert for imports: many rows checked and converted one by one (a row that does not fit is
 * reported with its column, value and reason, not inserted), then written with multi-row INSERT
 * statements in one transaction. Rights apply as for `create`: the table's create grant, its
 * columns, and its row condition (rows under a condition are inserted one by one through `create`,
 * which checks each). One audit entry per call records how many rows went in. The rows that went in
 * are announced on the write-event bus (open grids, webhooks) once they are committed: with the
 * caller's `pending` list, when the caller's transaction commits.
 */
import type { Expr } from '../sql/ast';
import type { ColumnModel, TableModel } from '../schema/model';
import { isAppError } from '../lib/errors';
import { assertCan, assertColumns, grantCondition } from './access';
import { executorOf, type DataContext } from './data-context';
import { writableColumn } from './columns';
import { writeValue } from './logical-values';
import { requirePk } from './row-id';
import { tableRef } from './select-builder';
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
function convertRow(cols: ColumnModel[], required: ColumnModel[], row: Row, index: number): Cell[] | InsertProblem {
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
  for (const c of required) if (!cols.includes(c)) return { index, column: c._cn, value: null, reason: 'a value is required' };
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
  const cols = [...new Map([...names].map((n) => writableColumn(t, n)).map((c) => [c.cn, c])).values()];
  assertColumns(g, t, 'create', cols);
  const required = t.columns.filter((c) => !c.nullable && !c.ai && c.default === null);
  const problems: InsertProblem[] = [];
  const good: { index: number; values: Cell[] }[] = [];
  for (let index = 0; index < rows.length; index++) {
    const converted = convertRow(cols, required, rows[index]!, index);
    if (Array.isArray(converted)) good.push({ index, values: converted });
    else {
      problems.push(converted);
      if (opts.stopAtProblem) break;
    }
  }
  if (good.length === 0) return { inserted: 0, problems };
  const where = grantCondition(g, t);
  let inserted = 0;
  /** The values a row was written with, by API alias (its key too when it was given: an auto-increment one is not known). */
  const written = (values: Cell[]): Row => {
    const out: Row = {};
    values.forEach((v, i) => v !== DEFAULT && v.kind === 'val' && (out[cols[i]!._cn] = v.value));
    return out;
  };
  const run = async (tx: DataContext) => {
    // Each row must land inside the caller's rows (`where`): create checks that one row at a time (and announces it).
    const one = (sp: DataContext, x: { index: number; values: Cell[] }) => (where ? create(sp, t, rows[x.index]).then(() => undefined) : insertChunks(sp, t, cols, [x.values]));
    const wentIn = (list: { values: Cell[] }[]) => {
      if (!where) for (const x of list) recordWrite(tx, t.tn, 'insert', { data: written(x.values) });
    };
    try {
      if (where) throw new RowByRow();
      await savepoint(tx, (sp) => insertChunks(sp, t, cols, good.map((x) => x.values)));
      inserted = good.length;
      wentIn(good);
    } catch (e) {
      if (!(e instanceof RowByRow) && !isAppError(e)) throw e;
      // A row the database refuses (a duplicate key, a missing parent row...): find it, row by row.
      for (const x of good) {
        try {
          await savepoint(tx, (sp) => one(sp, x));
          inserted++;
          wentIn([x]);
        } catch (err) {
          if (!isAppError(err)) throw err;
          // In the grid's words: display names, not SQL names or MariaDB's PRIMARY.
          problems.push({ index: x.index, column: null, value: null, reason: (withDisplayNames(dc.pdb, t, err) as Error).message });
          if (opts.stopAtProblem) break;
        }
      }
    }
    if (inserted && !where) await tx.audit?.([{ tn: t.tn, cn: null, pk: '', value: JSON.stringify({ rows: inserted }), prevValue: null, op: 'insert' }], tx.actor);
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

/** Multi-row INSERTs; a column left to its default in some rows is written by a statement of its own shape. */
async function insertChunks(dc: DataContext, t: TableModel, cols: ColumnModel[], rows: Cell[][]): Promise<void> {
  const exec = executorOf(dc);
  const { dialect } = dc.pdb.db;
  // Rows grouped by which columns they set (a default or auto-increment column left out).
  const groups = new Map<string, { idx: number[]; rows: Expr[][] }>();
  for (const r of rows) {
    const idx: number[] = [];
    for (let i = 0; i < r.length; i++) if (r[i] !== DEFAULT) idx.push(i);
    const key = idx.join(',');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { idx, rows: [] }));
    g.rows.push(idx.map((i) => r[i] as Expr));
  }
  for (const { idx, rows: list } of groups.values()) {
    const columns = idx.map((i) => cols[i]!.cn);
    const per = Math.max(1, Math.min(MAX_ROWS, Math.floor(Math.min(MAX_PARAMS, dialect.caps.maxParams - 1) / columns.length)));
    for (let i = 0; i < list.length; i += per) {
      await exec.execute({ ...dialect.compile({ kind: 'insert', table: tableRef(t), columns, rows: list.slice(i, i + per) }), prepare: true });
    }
  }
}
