/**
 * The SQL Client's raw sessions: one dedicated database connection per run whose id is known, so
 * a statement can be cancelled in the database itself (pg_cancel_backend, KILL QUERY, killing the
 * SQLite runner process) and timed out there (statement_timeout, max_statement_time).
 */

import type { RawColumn } from '../../../common/sql-client';
export type { RawColumn };

/** What one statement answered: rows as arrays in column order, or the rows it affected. */
export interface RawResult {
  columns: RawColumn[];
  rows: unknown[][];
  /** Rows read (with `truncated`, the statement had more: reading stops just past the limit). */
  rowCount: number;
  affected: number;
  truncated: boolean;
}

/**
 * A statement's result while its rows are still being read: `run` answers it at the first rows,
 * `rows` grows until `done` settles (rejecting with the RawSqlError that stopped the reading).
 */
export interface RawStream extends RawResult {
  finished: boolean;
  error: RawSqlError | null;
  done: Promise<void>;
  /** Resolves once `count` rows are read or the reading ended (or after `ms`). */
  waitFor(count: number, ms: number): Promise<void>;
}

/** A stream and the calls that feed it: rows in batches, then finish or fail. */
export function makeStream(maxRows: number) {
  let settle!: () => void;
  let reject!: (e: RawSqlError) => void;
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());
  const stream: RawStream = {
    columns: [], rows: [], rowCount: 0, affected: 0, truncated: false, finished: false, error: null,
    done: new Promise<void>((res, rej) => ((settle = res), (reject = rej))),
    waitFor(count, ms) {
      if (stream.finished || stream.rows.length >= count) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const check = () => {
          if (!stream.finished && stream.rows.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => (waiters.delete(check), resolve()), ms);
        waiters.add(check);
      });
    },
  };
  stream.done.catch(() => {});
  return {
    stream,
    push(batch: unknown[][]) {
      stream.rowCount += batch.length;
      const room = maxRows - stream.rows.length;
      if (batch.length > room) stream.truncated = true;
      const kept = batch.length > room ? batch.slice(0, Math.max(0, room)) : batch;
      for (const row of kept) stream.rows.push(jsonRow(row));
      wake();
    },
    finish() {
      stream.finished = true;
      settle();
      wake();
    },
    fail(e: RawSqlError) {
      stream.finished = true;
      stream.error = e;
      reject(e);
      wake();
    },
  };
}

/** A stream already complete (a statement read in one go). */
export function completeStream(r: RawResult, maxRows: number): RawStream {
  const s = makeStream(maxRows);
  s.stream.columns = r.columns;
  s.stream.affected = r.affected;
  s.push(r.rows);
  s.stream.rowCount = Math.max(r.rowCount, s.stream.rowCount);
  s.stream.truncated ||= r.truncated;
  s.finish();
  return s.stream;
}

/** A database error with where it happened in the statement, when the database says. */
export class RawSqlError extends Error {
  constructor(
    message: string,
    readonly kind: 'statement' | 'timeout' | 'cancelled' | 'unreachable',
    /** 0-based character offset in the statement. */
    readonly position?: number,
    /** 1-based line in the statement. */
    readonly line?: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** One dedicated connection of a run. */
export interface RawSession {
  /** The database's id of this connection (PostgreSQL pid, MySQL connection id, runner pid). */
  readonly connectionId: number | null;
  /**
   * Runs one statement under a time limit enforced by the database (or by killing the runner);
   * answers at its first rows while the rest are still read (the session is busy until `done`).
   */
  run(sql: string, timeoutMs: number, maxRows: number): Promise<RawStream>;
  /** Stops the statement running now, in the database; the session may be unusable after. */
  cancel(): Promise<void>;
  close(): Promise<void>;
}

/** A value as JSON can carry it: big integers, bytes and NaN / Infinity (JSON would make them null) become text. */
export function jsonValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'bigint') return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v.toString();
  if (v instanceof Uint8Array) return '\\x' + Buffer.from(v).toString('hex');
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? String(v) : v.toISOString();
  return v;
}

/** Converts a row in place for JSON. */
export function jsonRow(row: unknown[]): unknown[] {
  for (let i = 0; i < row.length; i++) {
    const v = row[i];
    if (v !== null && typeof v !== 'string' && typeof v !== 'boolean' && (typeof v !== 'number' || !Number.isFinite(v))) row[i] = jsonValue(v);
  }
  return row;
}

/** Rows read per round trip when a statement's rows are streamed. */
export const STREAM_BATCH = 2000;

/** Time limit of a run in whole milliseconds, at least 1. */
export const timeLimit = (ms: number) => Math.max(1, Math.floor(ms));
