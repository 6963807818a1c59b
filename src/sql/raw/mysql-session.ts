/**
 * MySQL/MariaDB raw session: its own connection whose CONNECTION_ID() is read at open. The time
 * limit is `max_statement_time` (MariaDB, seconds) or `max_execution_time` (MySQL, ms, reads
 * only); cancel is `KILL QUERY <id>` sent from another connection, so the statement stops in the server.
 */
import mysql from 'mysql2/promise';
import type { ConnectionOptions } from '../dialect';
import { isNetworkError } from '../driver-errors';
import { LIMITS } from '../../config/limits';
import { fallsBackToPlain, mysqlSsl } from '../mysql/ssl';
import { makeStream, RawSqlError, STREAM_BATCH, timeLimit, type RawSession, type RawStream } from './types';
import { mysqlFieldType, type MysqlField } from './mysql-field-type';


function rawError(e: unknown, text: string, cancelled: boolean): RawSqlError {
  const err = e as { code?: string; errno?: number; sqlMessage?: string; message?: string };
  if (err.errno === 1317 || err.code === 'ER_QUERY_INTERRUPTED') {
    return cancelled ? new RawSqlError('The statement was cancelled', 'cancelled', undefined, undefined, err.code) : new RawSqlError('The statement was interrupted', 'statement', undefined, undefined, err.code);
  }
  if (err.errno === 1969 || err.errno === 3024 || err.code === 'ER_STATEMENT_TIMEOUT') return new RawSqlError('The statement took too long and was cancelled (statement time-out)', 'timeout', undefined, undefined, err.code);
  if (isNetworkError(e)) return new RawSqlError('The connection to the database was lost', 'unreachable');
  const msg = err.sqlMessage ?? err.message ?? String(e);
  // "... near 'FRM x' at line 2": the snippet locates the error in the statement.
  const m = /near '([\s\S]*)' at line (\d+)$/.exec(msg);
  const at = m?.[1] ? text.indexOf(m[1]) : -1;
  return new RawSqlError(msg, 'statement', at >= 0 ? at : undefined, m ? Number(m[2]) : undefined, err.code);
}

/** Opens a dedicated connection and learns its id; a second short connection sends KILL QUERY. */
export async function openMysqlSession(c: ConnectionOptions): Promise<RawSession> {
  const ssl = mysqlSsl(c);
  const options: mysql.ConnectionOptions = {
    host: c.host, port: c.port, user: c.user, password: c.password ?? '', database: c.database,
    connectTimeout: LIMITS.connectTimeoutMs, supportBigNumbers: true, bigNumberStrings: true, dateStrings: true,
    multipleStatements: false, charset: 'utf8mb4', ssl,
  };
  let conn: mysql.Connection;
  let id: number;
  let mariadb: boolean;
  try {
    conn = await mysql.createConnection(options).catch((e) => {
      if (!fallsBackToPlain(c, e)) throw e;
      // SSL usage Preferred and a server without TLS: this connection and the KILL one in plain text.
      options.ssl = undefined;
      return mysql.createConnection(options);
    });
    const [rows] = (await conn.query('SELECT CONNECTION_ID() AS id, VERSION() AS v')) as unknown as [{ id: number | string; v: string }[]];
    id = Number(rows[0]!.id);
    mariadb = /mariadb/i.test(rows[0]!.v);
  } catch (e) {
    throw rawError(e, '', false);
  }
  let cancelled = false;
  let running = false;
  /** Stops the statement running on the session's connection. */
  const killQuery = async () => {
    // Through a connection of its own, as text (KILL is not a preparable statement everywhere);
    // the id is an integer the server gave us.
    const killer = await mysql.createConnection(options);
    try {
      await killer.query(`KILL QUERY ${Math.floor(id)}`);
    } finally {
      await killer.end().catch(() => {});
    }
  };
  /** The stream of the statement running now. */
  let current: { feed: ReturnType<typeof makeStream>; first: () => void } | null = null;
  return {
    connectionId: id,
    async run(text, timeoutMs, maxRows): Promise<RawStream> {
      cancelled = false;
      running = true;
      try {
        const ms = timeLimit(timeoutMs);
        // Numbers we computed, not caller text.
        await conn.query(mariadb ? `SET SESSION max_statement_time = ${(ms / 1000).toFixed(3)}` : `SET SESSION max_execution_time = ${ms}`);
      } catch (e) {
        running = false;
        throw rawError(e, text, cancelled);
      }
      const feed = makeStream(maxRows);
      const first = Promise.withResolvers<void>();
      current = { feed, first: first.resolve };
      let sets = 0;
      let batch: unknown[][] = [];
      const flush = () => {
        if (batch.length) feed.push(batch);
        batch = [];
        first.resolve();
      };
      // The core connection's events: rows are taken as they arrive, the first ones answered at once.
      const q = (conn as unknown as { connection: { query(o: object): import('node:events').EventEmitter } }).connection.query({ sql: text, rowsAsArray: true });
      q.on('fields', (fields: (MysqlField & { name: string })[] | undefined) => {
        // Statements without rows announce no fields. A CALL answers several result sets: the first is shown.
        if (!fields) return;
        if (++sets === 1) feed.stream.columns = fields.map((f) => ({ name: f.name, type: mysqlFieldType(f) }));
      });
      q.on('result', (row: unknown) => {
        if (feed.stream.finished) return;
        if (!Array.isArray(row)) {
          if (!sets) feed.stream.affected = (row as mysql.ResultSetHeader).affectedRows ?? 0;
          return;
        }
        if (sets !== 1) return;
        batch.push(row);
        if (batch.length >= STREAM_BATCH) flush();
        if (feed.stream.truncated) {
          // The row limit is reached: the rest are neither read nor produced.
          running = false;
          flush();
          feed.finish();
          void killQuery().catch(() => {});
        }
      });
      q.on('error', (e: unknown) => {
        running = false;
        if (feed.stream.finished) return;
        batch = [];
        feed.fail(rawError(e, text, cancelled));
        first.resolve();
      });
      q.on('end', () => {
        if (feed.stream.finished) return;
        running = false;
        flush();
        feed.finish();
      });
      await first.promise;
      if (feed.stream.error && !feed.stream.rows.length) throw feed.stream.error;
      return feed.stream;
    },
    async cancel() {
      if (!running) return;
      cancelled = true;
      await killQuery();
      // Rows already on their way are not read any more.
      if (current && !current.feed.stream.finished) {
        running = false;
        current.feed.fail(new RawSqlError('The statement was cancelled', 'cancelled'));
        current.first();
      }
    },
    // After a cancel the server may still be sending rows: the connection is dropped, not drained.
    close: async () => (cancelled ? conn.destroy() : await conn.end().catch(() => {})),
  };
}
