/**
 * MySQL/MariaDB through mysql2: a bounded pool of prepared statements, big numbers and dates as
 * strings (no precision loss, no time-zone shifts). Time limits use mysql2's per-query timeout.
 */
import mysql from 'mysql2/promise';
import type { Compiled } from '../ast';
import type { ConnectionOptions, Driver, ExecResult, Executor } from '../dialect';
import { guard, isNetworkError, type ErrorClass } from '../driver-errors';
import { LIMITS } from '../../config/limits';
import { BACKSLASH_ESCAPES_ON } from './literal';
import { floatsShortest } from './float-values';
import type { Caps } from '../dialect';

/**
 * What a MySQL / MariaDB server of `version` (the handshake's string, e.g. `5.5.5-10.11.19-MariaDB`)
 * adds: MariaDB has INSERT ... RETURNING from 10.5 and DELETE ... RETURNING from 10.0.5; MySQL has neither.
 */
export function mysqlVersionCaps(version: string): Partial<Caps> {
  const m = /(\d+)\.(\d+)\.(\d+)-MariaDB/i.exec(version);
  if (!m) return {};
  const n = Number(m[1]) * 10_000 + Number(m[2]) * 100 + Number(m[3]);
  return { insertReturning: n >= 100_500, deleteReturning: n >= 100_005 };
}

export function classifyMysql(e: unknown): ErrorClass {
  const err = e as { code?: string; errno?: number; message?: string; sqlMessage?: string; sqlState?: string; fatal?: boolean };
  switch (err.code) {
    case 'ER_ACCESS_DENIED_ERROR':
    case 'ER_DBACCESS_DENIED_ERROR':
    case 'ER_NOT_SUPPORTED_AUTH_MODE':
      return { kind: 'credentials' };
    case 'ER_DUP_ENTRY':
      // "Duplicate entry 'A1' for key 'code'" (MySQL 8 writes 'table.code').
      return { kind: 'unique', what: /for key '(?:[^']*\.)?([^']+)'/.exec(err.sqlMessage ?? '')?.[1] ?? 'key' };
    case 'ER_NO_REFERENCED_ROW':
    case 'ER_NO_REFERENCED_ROW_2':
    case 'ER_ROW_IS_REFERENCED':
    case 'ER_ROW_IS_REFERENCED_2':
    {
      // "... (`db`.`child`, CONSTRAINT `fk` FOREIGN KEY (`col`) REFERENCES `parent` (`id`))"
      const m = /\(`[^`]*`\.`([^`]+)`, CONSTRAINT `[^`]+` FOREIGN KEY \((.+?)\) REFERENCES/.exec(err.sqlMessage ?? '');
      const child = m?.[1] ?? 'another table';
      const cols = m?.[2]?.replace(/`/g, '') ?? 'the foreign key';
      return /child row/.test(err.sqlMessage ?? '') || err.code?.startsWith('ER_NO_REFERENCED')
        ? { kind: 'foreignKey', what: cols, missingParent: true }
        : { kind: 'foreignKey', what: `table ${child}`, missingParent: false };
    }
    case 'PROTOCOL_SEQUENCE_TIMEOUT':
    case 'ER_QUERY_TIMEOUT':
    case 'ER_STATEMENT_TIMEOUT':
    case 'ER_QUERY_INTERRUPTED':
      return { kind: 'timeout' };
    case 'ER_TABLEACCESS_DENIED_ERROR':
    case 'ER_SPECIFIC_ACCESS_DENIED_ERROR':
      return { kind: 'permission' };
  }
  if (err.errno === 1969) return { kind: 'timeout' };
  if (isNetworkError(e) || err.fatal) return { kind: 'unreachable' };
  if (typeof err.code === 'string' && err.code.startsWith('ER_')) return { kind: 'statement', message: err.sqlMessage ?? err.message ?? 'Invalid statement' };
  // The server refused the statement with a code outside ER_* (MariaDB's HA_WRONG_CREATE_OPTION for a
  // temporary table of too many columns): its SQLSTATE says it is the statement's, as on PostgreSQL.
  if (typeof err.sqlState === 'string' && /^[0-9A-Z]{5}$/.test(err.sqlState) && typeof err.sqlMessage === 'string') return { kind: 'statement', message: err.sqlMessage };
  return { kind: 'unknown' };
}

/** Date-times of every session in UTC. */
const UTC_SESSION = "SET SESSION time_zone = '+00:00'";

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : []);
/** The rows of an answer ([rows, fields]), FLOAT values as the server shows them. */
const resultRows = <T>([rows, fields]: [unknown, unknown]): T[] => floatsShortest(rowsOf<T>(rows), fields);

export function openMysqlDriver(c: ConnectionOptions, poolMax: number = LIMITS.poolMax, statementTimeoutMs = 0): Driver {
  const ssl = !c.ssl || c.ssl.mode === 'No' ? undefined : { rejectUnauthorized: c.ssl.mode !== 'Required' && c.ssl.mode !== 'Preferred', ca: c.ssl.ca, key: c.ssl.key, cert: c.ssl.cert };
  const pool = mysql.createPool({
    host: c.host,
    port: c.port,
    user: c.user,
    password: c.password ?? '',
    database: c.database,
    connectionLimit: poolMax,
    connectTimeout: LIMITS.connectTimeoutMs,
    supportBigNumbers: true,
    bigNumberStrings: true,
    decimalNumbers: false,
    dateStrings: true,
    // JSON as its text, parsed once by the data core (mysql2 would parse MariaDB's and MySQL's JSON itself).
    jsonStrings: true,
    multipleStatements: false,
    charset: 'utf8mb4',
    // No stack captured per statement (mysql2 does so by default for its errors' traces): a driver error
    // becomes a {msg} answer by its code, and the capture costs more the deeper the caller's stack.
    trace: false,
    ssl,
  });

  if (statementTimeoutMs > 0) {
    // MariaDB ends a statement past max_statement_time (seconds; errno 1969 -> 504), also when nobody
    // waits for it any more. MySQL has no such variable: the SET fails there and nothing changes.
    // The SET is queued on the new connection before any statement of ours.
    const seconds = (Math.floor(statementTimeoutMs) / 1000).toFixed(3);
    (pool as unknown as { on(e: 'connection', f: (conn: { query(sql: string, cb: () => void): void }) => void): void }).on('connection', (conn) => {
      conn.query(`SET SESSION max_statement_time = ${seconds}`, () => {});
    });
  }
  // DDL literals escape backslashes (literal.ts): every session reads them so.
  let versionListener: ((version: string) => void) | undefined;
  let serverVersion: string | undefined;
  pool.pool.on('connection', (conn: { query(sql: string, cb: (err: unknown) => void): void; _handshakePacket?: { serverVersion?: string } }) => {
    conn.query(BACKSLASH_ESCAPES_ON, () => {});
    // TIMESTAMP columns and NOW() in UTC, as the data core converts zoned values (see the PostgreSQL driver).
    conn.query(UTC_SESSION, () => {});
    const v = conn._handshakePacket?.serverVersion;
    if (v && v !== serverVersion) versionListener?.((serverVersion = v));
  });

  const executor = (s: mysql.Pool | mysql.PoolConnection): Executor => ({
    // A write run through query() answers a result header, not rows: no rows then (no RETURNING here).
    query: <T>(q: Compiled) => guard(classifyMysql, async () => resultRows<T>(await s.execute(q.sql, q.params as any[]))),
    execute: (q: Compiled): Promise<ExecResult> =>
      guard(classifyMysql, async () => {
        const [r] = (await s.execute(q.sql, q.params as any[])) as unknown as [mysql.ResultSetHeader];
        return { affected: r.affectedRows, insertId: r.insertId };
      }),
  });
  const base = executor(pool);

  return {
    ...base,
    onServerVersion(fn) {
      versionListener = fn;
      if (serverVersion) fn(serverVersion);
    },
    queryTimed: <T>(q: Compiled, timeoutMs: number) =>
      guard(classifyMysql, async () => resultRows<T>(await pool.execute({ sql: q.sql, timeout: timeoutMs }, q.params as any[]))),
    async transaction(fn) {
      const conn = await guard(classifyMysql, () => pool.getConnection());
      try {
        await conn.beginTransaction();
        const out = await fn(executor(conn));
        await conn.commit();
        return out;
      } catch (e) {
        await conn.rollback().catch(() => {});
        throw e;
      } finally {
        conn.release();
      }
    },
    ping: async () => {
      await base.query({ sql: 'SELECT 1', params: [] });
    },
    close: () => pool.end(),
  };
}
