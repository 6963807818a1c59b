/**
 * Where a cron job's SQL statements run, each under the statement time limit (NC_QUERY_TIMEOUT_MS).
 * On SQLite they run one after another in the SQL Client's runner process (sql/raw/sqlite-session.ts):
 * bun:sqlite cannot interrupt a statement, so run on the server's own connection a long one would
 * hold every request until it ended; in the runner it holds nothing, and the time limit or Tablo's
 * stop kills the runner. On the other engines they run on the project's pool, whose PostgreSQL and
 * MariaDB connections carry the limit themselves (the server ends the statement), and whose SQL Server
 * requests carry it too (the driver asks the server to stop the statement).
 */
import type { AppContext } from '../context';
import { LIMITS } from '../config/limits';
import { AppError } from '../lib/errors';
import type { Database, Driver } from '../sql/dialect';
import { withoutLeadingComments } from '../sql/raw/split';
import { openSqliteSession, STATEMENT_TIMEOUT_MSG } from '../sql/raw/sqlite-session';
import { RawSqlError, type RawStream } from '../sql/raw/types';

/** One statement's result line: the rows it read (the first ones) or the rows it changed. */
export interface StatementRunner {
  run(sql: string): Promise<string>;
  close(): Promise<void>;
}

const READS = /^\s*(\(?\s*select|with|pragma|show|explain|values|describe|desc)\b/i;
/** Rows of a read shown in the result. */
const SHOWN_ROWS = 20;
/** setTimeout's longest delay (about 24 days): a statement's limit when NC_QUERY_TIMEOUT_MS is 0 (none). */
const NO_LIMIT_MS = 2 ** 31 - 1;

// A comment before the statement (`-- nightly report`) does not make a SELECT a write.
const reads = (sql: string) => READS.test(withoutLeadingComments(sql)) || /\breturning\b/i.test(sql);
const rowsLine = (count: number | string, rows: unknown[]) => `${count} row(s): ${JSON.stringify(rows)}`;

/** Opens the runner of one job run; `signal` (Tablo stopping) stops a SQLite statement under way. */
export async function openStatementRunner(ctx: AppContext, db: Database, signal?: AbortSignal): Promise<StatementRunner> {
  if (db.config.client !== 'sqlite') return { run: (sql) => onPool(db.driver, sql), close: async () => {} };
  const limitMs = ctx.config.queryTimeoutMs > 0 ? ctx.config.queryTimeoutMs : NO_LIMIT_MS;
  const session = await openSqliteSession(db.config.connection.filename!);
  const stop = () => void session.cancel();
  signal?.addEventListener('abort', stop);
  return {
    async run(sql) {
      if (signal?.aborted) throw new RawSqlError('The statement was cancelled', 'cancelled');
      const s = await session.run(sql, limitMs, LIMITS.sqlClientMaxRows);
      await s.done;
      return s.columns.length || reads(sql) ? rowsLine(s.truncated ? `More than ${LIMITS.sqlClientMaxRows}` : s.rowCount, shownRows(s)) : `${s.affected} row(s) affected`;
    },
    async close() {
      signal?.removeEventListener('abort', stop);
      await session.close();
    },
  };
}

/** The first rows of a result as objects by column name. */
const shownRows = (s: RawStream) => s.rows.slice(0, SHOWN_ROWS).map((row) => Object.fromEntries(s.columns.map((c, i) => [c.name, row[i]])));

async function onPool(driver: Driver, sql: string): Promise<string> {
  try {
    if (reads(sql)) {
      const rows = await driver.query<Record<string, unknown>>({ sql, params: [] });
      return rowsLine(rows.length, rows.slice(0, SHOWN_ROWS));
    }
    return `${(await driver.execute({ sql, params: [] })).affected} row(s) affected`;
  } catch (e) {
    // The same words as on SQLite, whichever server ended the statement.
    if (e instanceof AppError && e.code === 'TIMEOUT') throw new Error(STATEMENT_TIMEOUT_MSG);
    throw e;
  }
}
