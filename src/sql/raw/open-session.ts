/**
 * Opens the raw session of a run for a project database's engine: PostgreSQL and MySQL/MariaDB
 * get a dedicated connection, SQLite a runner process. SQL Server runs through the pool with the
 * driver's time limit (no database-side cancel here: none could be tested without a server).
 */
import type { Database } from '../dialect';
import { openPgSession } from './pg-session';
import { openMysqlSession } from './mysql-session';
import { openSqliteSession } from './sqlite-session';
import { completeStream, RawSqlError, type RawSession, type RawStream } from './types';
import { AppError } from '../../lib/errors';

const READS = /^\s*(\(?\s*select|with|exec|execute|sp_)\b/i;

function poolSession(db: Database): RawSession {
  return {
    connectionId: null,
    async run(text, timeoutMs, maxRows): Promise<RawStream> {
      try {
        if (READS.test(text)) {
          const rows = await db.driver.queryTimed<Record<string, unknown>>({ sql: text, params: [] }, timeoutMs);
          const names = rows.length ? Object.keys(rows[0]!) : [];
          const kept = rows.slice(0, maxRows);
          return completeStream({ columns: names.map((name) => ({ name, type: '' })), rows: kept.map((r) => names.map((n) => r[n] ?? null)), rowCount: rows.length, affected: 0, truncated: rows.length > maxRows }, maxRows);
        }
        const r = await db.driver.execute({ sql: text, params: [] });
        return completeStream({ columns: [], rows: [], rowCount: 0, affected: r.affected, truncated: false }, maxRows);
      } catch (e) {
        if (e instanceof AppError && e.code === 'TIMEOUT') throw new RawSqlError(e.message, 'timeout');
        throw new RawSqlError(e instanceof Error ? e.message : String(e), 'statement');
      }
    },
    async cancel() {
      throw new RawSqlError('Cancelling a running statement is not available on SQL Server', 'statement');
    },
    async close() {},
  };
}

/** A session for one run on the project database `db`. */
export async function openRawSession(db: Database): Promise<RawSession> {
  const { client, connection } = db.config;
  if (client === 'pg') return openPgSession(connection, db.driver);
  if (client === 'mysql') return openMysqlSession(connection);
  if (client === 'sqlite') return openSqliteSession(connection.filename!);
  return poolSession(db);
}

export { RawSqlError } from './types';
export type { RawColumn, RawResult, RawSession, RawStream } from './types';
export { splitStatements, changesSchema, changesData, reachesOtherFiles, type SplitStatement } from './split';
export { stopSqliteRunners } from './sqlite-session';
