/**
 * The SQL Client's raw sessions: one dedicated database connection per run whose id is known, so
 * a statement can be cancelled in the database itself (pg_cancel_backend, KILL QUERY, killing the
 * SQLite runner process) and timed out there (statement_timeout, max_statement_time).
 */

/** A column of a raw result: its name and the type the database reports. */
export interface RawColumn {
  name: string;
  type: string;
}

/** What one statement answered: rows as arrays in column order, or the rows it affected. */
export interface RawResult {
  columns: RawColumn[];
  rows: unknown[][];
  /** Rows the statement returned (before cutting at the row limit). */
  rowCount: number;
  affected: number;
  truncated: boolean;
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
  /** Runs one statement under a time limit enforced by the database (or by killing the runner). */
  run(sql: string, timeoutMs: number, maxRows: number): Promise<RawResult>;
  /** Stops the statement running now, in the database; the session may be unusable after. */
  cancel(): Promise<void>;
  close(): Promise<void>;
}

/** A value as JSON can carry it: big integers and bytes become text. */
export function jsonValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v.toString();
  if (v instanceof Uint8Array) return '\\x' + Buffer.from(v).toString('hex');
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? String(v) : v.toISOString();
  return v;
}

/** Converts a row in place for JSON. */
export function jsonRow(row: unknown[]): unknown[] {
  for (let i = 0; i < row.length; i++) {
    const v = row[i];
    if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') row[i] = jsonValue(v);
  }
  return row;
}

/** Time limit of a run in whole milliseconds, at least 1. */
export const timeLimit = (ms: number) => Math.max(1, Math.floor(ms));
