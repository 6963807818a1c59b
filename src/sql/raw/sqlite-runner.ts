/**
 * The SQLite runner: a child process that runs the SQL Client's statements on its own connection
 * to one SQLite file. bun:sqlite cannot interrupt a statement, and a thread stuck in one cannot be
 * stopped, so cancel and time-out kill this process: the statement really stops, and SQLite's
 * journal rolls back what it had half written. Started by sqlite-session.ts, as a script in
 * development or as the compiled binary itself (src/main.ts starts it when TABLO_SQLITE_RUNNER names
 * the file).
 */
import { Database, type Statement } from 'bun:sqlite';
import type { RawResult } from './types';
import { jsonRow, STREAM_BATCH } from './types';

export interface RunnerRequest {
  sql: string;
  maxRows: number;
}

/** Sent when a run lets the runner go: a transaction it left open is rolled back (no reply). */
export interface RunnerReset {
  reset: true;
}

/**
 * Replies to a request: the result with its first rows (`more` when chunks of the rest follow; the
 * last chunk has `end` and the full count), or the error.
 */
export type RunnerReply =
  | { ready: true }
  | { ok: true; result: RawResult; more: boolean }
  | { chunk: unknown[][]; end: boolean; rowCount: number; truncated: boolean }
  | { ok: false; message: string; code?: string };

const send = (r: RunnerReply): void => void process.send!(r);
/** Lets the IPC channel write what was sent before the next rows are read. */
const yieldToIpc = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The declared types of the columns (read before stepping: reading them later resets the cursor). */
function declaredTypes(st: Statement): (string | null)[] {
  try {
    return st.declaredTypes;
  } catch {
    return [];
  }
}

/** The storage class of a value read, for columns with no declared type (expressions). */
const classOf = (v: unknown) =>
  v === null || v === undefined ? '' : typeof v === 'string' ? 'TEXT' : typeof v === 'bigint' || Number.isInteger(v) ? 'INTEGER' : typeof v === 'number' ? 'REAL' : v instanceof Uint8Array ? 'BLOB' : '';

/** Runs one statement and sends its rows as they are read: the first ones at once. */
async function runOne(db: Database, req: RunnerRequest): Promise<void> {
  let st: Statement | null = null;
  try {
    st = db.prepare(req.sql);
    const names = st.columnNames;
    if (!names.length) {
      const r = st.run();
      return send({ ok: true, result: { columns: [], rows: [], rowCount: 0, affected: r.changes, truncated: false }, more: false });
    }
    // Rows as objects keep one value per name: with repeated names, all rows are read at once.
    const unique = new Set(names).size === names.length;
    const declared = declaredTypes(st);
    let batch: unknown[][] = [];
    let count = 0;
    let sent = false;
    const flush = async (end: boolean) => {
      if (!sent) {
        const columns = names.map((name, i) => ({ name, type: declared[i] ?? classOf(batch[0]?.[i]) }));
        send({ ok: true, result: { columns, rows: batch, rowCount: count, affected: 0, truncated: count > req.maxRows }, more: !end });
        sent = true;
      } else send({ chunk: batch, end, rowCount: count, truncated: count > req.maxRows });
      batch = [];
      if (!end) await yieldToIpc();
    };
    const source = unique ? (st.iterate() as Iterable<Record<string, unknown>>) : (st.values() as unknown as Iterable<unknown[]>);
    for (const raw of source) {
      count++;
      // One row past the limit tells that there are more: the rest are not read.
      if (count > req.maxRows) break;
      batch.push(jsonRow(unique ? names.map((n) => (raw as Record<string, unknown>)[n]) : (raw as unknown[])));
      if (batch.length >= (sent ? STREAM_BATCH * 5 : STREAM_BATCH)) await flush(false);
    }
    await flush(true);
  } catch (e) {
    send({ ok: false, message: String((e as Error)?.message ?? e), code: (e as { code?: string })?.code });
  } finally {
    st?.finalize();
  }
}

/** Serves requests over IPC until the parent goes away. */
export function startSqliteRunner(filename: string): void {
  const db = new Database(filename, { create: false, safeIntegers: true });
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA foreign_keys = ON');
  process.on('message', (m) => {
    if ((m as RunnerReset).reset) {
      if (db.inTransaction) db.exec('ROLLBACK');
      return;
    }
    void runOne(db, m as RunnerRequest);
  });
  process.on('disconnect', () => process.exit(0));
  // The parent holds our stdin: when it dies, stdin ends and so do we.
  void (async () => {
    for await (const _ of Bun.stdin.stream()) void _;
    process.exit(0);
  })();
  process.send!({ ready: true } satisfies RunnerReply);
}

if (import.meta.main) startSqliteRunner(process.env.TABLO_SQLITE_RUNNER ?? '');
