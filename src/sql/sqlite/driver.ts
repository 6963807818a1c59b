/**
 * SQLite through bun:sqlite: one connection (WAL, foreign keys on), statements serialised by a
 * lock so transactions never interleave. Integers beyond 2^53 come back as strings (exact).
 * note: bun:sqlite cannot interrupt a running statement, so `timeoutMs` is not enforced here.
 *
 * A write that finds the file taken by another connection (the SQL Client's runner, a cron job's SQL, another
 * program) waits for it between turns of the event loop, never on the server's thread (SQLite's own busy
 * wait would freeze every request): it tries again every few milliseconds for up to `busyWaitMs`, then
 * answers 503 (MSG_SQLITE_BUSY) with nothing written.
 */
import { Database, type Statement } from 'bun:sqlite';
import type { Compiled, SqlValue } from '../ast';
import type { Driver, ExecResult, Executor } from '../dialect';
import { driverError, type ErrorClass } from '../driver-errors';
import { badRequest, unavailable } from '../../lib/errors';
import { registerUnicodeCase } from '../../lib/unicode-case';

type Bindable = string | number | bigint | boolean | null | Uint8Array;

const bindOne = (v: SqlValue): Bindable => (v instanceof Date ? v.toISOString() : typeof v === 'boolean' ? (v ? 1 : 0) : (v as Bindable));
/** The parameters as bun:sqlite binds them; the same array when nothing needs converting (the usual case). */
const bindAll = (params: SqlValue[]): Bindable[] => {
  for (let i = 0; i < params.length; i++) {
    const v = params[i];
    if (v instanceof Date || typeof v === 'boolean') return params.map(bindOne);
  }
  return params as Bindable[];
};

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** Prepared statements kept per connection. */
const STATEMENTS_MAX = 500;
function fixRow(row: Record<string, unknown>): Record<string, unknown> {
  for (const k in row) {
    const v = row[k];
    if (typeof v === 'bigint') row[k] = v <= SAFE && v >= -SAFE ? Number(v) : v.toString();
  }
  return row;
}

/** Whether a row read without exact integers holds a number past 2^53 (an integer may have lost digits). */
function unsafeNumberIn(rows: Record<string, unknown>[]): boolean {
  for (const row of rows) {
    for (const k in row) {
      const v = row[k];
      if (typeof v === 'number' && (v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER)) return true;
    }
  }
  return false;
}

/** A statement that only reads (safe to run a second time). */
const readsOnly = (sql: string) => sql.startsWith('SELECT');

/**
 * `sql`: the failed statement, when known. SQLite says only 'FOREIGN KEY constraint failed': a
 * DELETE failing it still has rows referring to it; other statements point at a missing parent.
 */
export function classifySqlite(e: unknown, sql?: string): ErrorClass {
  const msg = String((e as Error)?.message ?? e);
  const code = String((e as { code?: string })?.code ?? '');
  if (code.startsWith('SQLITE_CONSTRAINT_UNIQUE') || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || /UNIQUE constraint failed/.test(msg)) {
    // "UNIQUE constraint failed: order.code, order.x" -> "code, x"
    const cols = /constraint failed: (.+)$/.exec(msg)?.[1]?.split(', ').map((c) => c.replace(/^.*\./, '')).join(', ');
    return { kind: 'unique', what: cols || 'key' };
  }
  // SQLite names neither the table nor the columns of a failed foreign key.
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || /FOREIGN KEY constraint failed/.test(msg)) {
    if (sql && /^\s*DELETE\b/i.test(sql)) return { kind: 'foreignKey', what: 'another table', missingParent: false };
    return { kind: 'foreignKey', what: 'a foreign key', missingParent: true };
  }
  if (code.startsWith('SQLITE_BUSY')) return { kind: 'unreachable', message: MSG_SQLITE_BUSY };
  if (code === 'SQLITE_CANTOPEN' || /unable to open database/.test(msg)) return { kind: 'unreachable' };
  if (code.startsWith('SQLITE_') || /no such (table|column)|syntax error|constraint failed|datatype mismatch/.test(msg)) {
    return { kind: 'statement', message: msg };
  }
  return { kind: 'unknown' };
}

export const MSG_SQLITE_BUSY = 'The SQLite file is busy with another write (the SQL Client, a cron job or another program): try again in a moment';
/** SQLite's own wait for a taken file, on the server's thread: short, the rest is waited for between turns of the event loop. */
const BUSY_SPIN_MS = 2;
/** How often a write waiting for the file tries again. */
const BUSY_RETRY_MS = 10;
const isBusy = (e: unknown) => String((e as { code?: string })?.code ?? '').startsWith('SQLITE_BUSY');
/** A taken file, as SQLite raised it or as the driver answered it. */
const isBusyError = (e: unknown) => isBusy(e) || (e as Error)?.message === MSG_SQLITE_BUSY;

/**
 * Runs `attempt` until it does not find the file taken, waiting between tries without holding the thread;
 * past `waitMs` the caller is told the file is busy. Other errors leave as they are.
 */
async function whileBusy<T>(attempt: () => Promise<T>, waitMs: number): Promise<T> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      return await attempt();
    } catch (e) {
      if (!isBusyError(e)) throw e;
      if (Date.now() >= until) throw unavailable(MSG_SQLITE_BUSY);
      await Bun.sleep(BUSY_RETRY_MS);
    }
  }
}

class Lock {
  private tail: Promise<void> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const r = this.tail.then(fn, fn);
    this.tail = r.then(() => undefined, () => undefined);
    return r;
  }
}

export function openSqliteDriver(filename: string, opts: { create?: boolean; busyWaitMs?: number } = {}): Driver {
  const db = guardSync(() => new Database(filename, { create: opts.create ?? false }));
  // The wait first: another connection (another instance on a shared data directory, closing its
  // last connection or writing) may hold the file for a moment, and setting the journal mode waits too.
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA foreign_keys = ON');
  // From here on a taken file is waited for between turns of the event loop (whileBusy).
  db.exec(`PRAGMA busy_timeout = ${BUSY_SPIN_MS}`);
  // No time limit set (0): a write still stops waiting after 30 s rather than hang.
  const busyWaitMs = opts.busyWaitMs || 30_000;
  registerUnicodeCase(db);
  const lock = new Lock();
  // Statements run at once unless a transaction holds the connection; then they wait for it.
  let inTransaction = 0;
  const run = <T>(fn: () => Promise<T>) => (inTransaction ? lock.run(fn) : fn());

  // Statements are prepared once per SQL text and per integer mode (bun:sqlite caches db.query by text);
  // one map per mode, keyed by the text itself (a prefixed key would be a new string to hash each call).
  const statements = [new Map<string, Statement>(), new Map<string, Statement>()] as const;
  const statement = (sql: string, exact: boolean): Statement => {
    const kept = statements[exact ? 1 : 0];
    let st = kept.get(sql);
    if (!st) {
      st = db.prepare(sql);
      // Exact 64-bit integers only when asked: converting every integer costs on hot paths.
      st.safeIntegers(exact);
      if (kept.size >= STATEMENTS_MAX) {
        const [oldest, old] = kept.entries().next().value!;
        kept.delete(oldest);
        old.finalize();
      }
      kept.set(sql, st);
    }
    return st;
  };

  /** A statement's rows, synchronously; a failure is thrown as the driver raised it. */
  const rowsOf = <T>(c: Compiled): T[] => {
    // Integers as exact values when asked, and for writes (their RETURNING cannot be run again);
    // a read asked without them runs again exactly in the rare case a number past 2^53 shows
    // (an INTEGER key or value of 64 bits, which would otherwise lose its last digits).
    const read = readsOnly(c.sql);
    const exact = !!c.exact || !read;
    const params = bindAll(c.params);
    const rows = statement(c.sql, exact).all(...params) as Record<string, unknown>[];
    if (exact) return rows.map(fixRow) as T[];
    if (!unsafeNumberIn(rows)) return rows as T[];
    return (statement(c.sql, true).all(...params) as Record<string, unknown>[]).map(fixRow) as T[];
  };
  const failed = (c: Compiled, e: unknown) => driverError((err) => classifySqlite(err, c.sql), e);

  const exec: Executor = {
    // Synchronous inside: one promise per statement, not three.
    query<T>(c: Compiled): Promise<T[]> {
      try {
        return Promise.resolve(rowsOf<T>(c));
      } catch (e) {
        return Promise.reject(failed(c, e));
      }
    },
    async execute(c: Compiled): Promise<ExecResult> {
      try {
        const st = db.query(c.sql);
        st.safeIntegers(true);
        const r = st.run(...bindAll(c.params));
        const id = r.lastInsertRowid;
        return { affected: r.changes, insertId: typeof id === 'bigint' && id <= SAFE ? Number(id) : id };
      } catch (e) {
        throw driverError((err) => classifySqlite(err, c.sql), e);
      }
    },
  };

  /** A statement on its own: at once, or after the transaction holding the connection; a taken file is waited for. */
  const alone = <T>(c: Compiled): Promise<T[]> => {
    if (inTransaction) return lock.run(() => exec.query<T>(c)).catch((e) => (isBusyError(e) ? whileBusy(() => run(() => exec.query<T>(c)), busyWaitMs) : Promise.reject(e)));
    // The usual path: one promise; only a statement that found the file taken waits and tries again.
    try {
      return Promise.resolve(rowsOf<T>(c));
    } catch (e) {
      return isBusy(e) ? whileBusy(() => run(() => exec.query<T>(c)), busyWaitMs) : Promise.reject(failed(c, e));
    }
  };
  return {
    query: alone,
    queryTimed: alone,
    execute: (c) => whileBusy(() => run(() => exec.execute(c)), busyWaitMs),
    transaction: (fn) =>
      lock.run(async () => {
        // Taking the file's write lock is the one step that can find it taken: waited for here, not inside.
        await whileBusy(async () => db.exec('BEGIN IMMEDIATE'), busyWaitMs).catch((e) => Promise.reject(isBusy(e) ? unavailable(MSG_SQLITE_BUSY) : e));
        inTransaction++;
        try {
          const out = await fn(exec);
          db.exec('COMMIT');
          return out;
        } catch (e) {
          db.exec('ROLLBACK');
          throw e;
        } finally {
          inTransaction--;
        }
      }),
    session: (fn) =>
      lock.run(async () => {
        inTransaction++;
        try {
          return await fn(exec);
        } finally {
          inTransaction--;
        }
      }),
    ping: async () => {
      await exec.query({ sql: 'SELECT 1', params: [] });
    },
    close: async () =>
      lock.run(async () => {
        for (const kept of statements) {
          for (const st of kept.values()) st.finalize();
          kept.clear();
        }
        db.close();
      }),
  };
}

function guardSync<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw badRequest(`The SQLite file could not be opened: ${(e as Error).message}`);
  }
}
