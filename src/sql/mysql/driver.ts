/**
 * MySQL/MariaDB through mysql2: a bounded pool of prepared statements, big numbers and dates as
 * strings (no precision loss, no time-zone shifts). Time limits use mysql2's per-query timeout.
 */
import mysql from 'mysql2/promise';
import type { Compiled } from '../ast';
import type { ConnectionOptions, Driver, ExecResult, Executor } from '../dialect';
import { guard } from '../driver-errors';
import { classifyMysql } from './errors';
import { LIMITS } from '../../config/limits';
import { BACKSLASH_ESCAPES_ON } from './literal';
import { floatsShortest } from './float-values';
import { assertSslMaterial } from '../ssl-material';
import { fallsBackToPlain, mysqlSsl } from './ssl';
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

/** Date-times of every session in UTC. */
const UTC_SESSION = "SET SESSION time_zone = '+00:00'";

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : []);
/** The rows of an answer ([rows, fields]), FLOAT values as the server shows them. */
const resultRows = <T>([rows, fields]: [unknown, unknown]): T[] => floatsShortest(rowsOf<T>(rows), fields);

export function openMysqlDriver(c: ConnectionOptions, poolMax: number = LIMITS.poolMax, statementTimeoutMs = 0): Driver {
  if (c.ssl && c.ssl.mode !== 'No') assertSslMaterial(c.ssl);
  let versionListener: ((version: string) => void) | undefined;
  let serverVersion: string | undefined;
  const makePool = (ssl: ReturnType<typeof mysqlSsl>) => {
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
    pool.pool.on('connection', (conn: { query(sql: string, cb: (err: unknown) => void): void; _handshakePacket?: { serverVersion?: string } }) => {
      conn.query(BACKSLASH_ESCAPES_ON, () => {});
      // TIMESTAMP columns and NOW() in UTC, as the data core converts zoned values (see the PostgreSQL driver).
      conn.query(UTC_SESSION, () => {});
      const v = conn._handshakePacket?.serverVersion;
      if (v && v !== serverVersion) versionListener?.((serverVersion = v));
    });
    return pool;
  };
  let pool = makePool(mysqlSsl(c));
  /** Runs `fn` on the pool; SSL usage Preferred against a server without TLS moves to a plain pool once and runs it again. */
  const onPool = async <T>(fn: (p: mysql.Pool) => Promise<T>): Promise<T> => {
    const used = pool;
    try {
      return await fn(used);
    } catch (e) {
      if (!fallsBackToPlain(c, e)) throw e;
      if (pool === used) {
        pool = makePool(undefined);
        void used.end().catch(() => {});
      }
      return fn(pool);
    }
  };

  /**
   * Connections opened before the database was dropped stay in it and answer "Table 'shop.x' doesn't
   * exist": when the database itself is gone, that reads as "Unknown database", as a new connection says.
   */
  const orGoneDatabase = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (e) {
      if ((e as { code?: string }).code !== 'ER_NO_SUCH_TABLE' || !c.database) throw e;
      const found = await pool.query('SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [c.database]).then(([rows]) => rowsOf(rows).length > 0, () => true);
      if (found) throw e;
      throw Object.assign(new Error(`Unknown database '${c.database}'`), { code: 'ER_BAD_DB_ERROR', sqlMessage: `Unknown database '${c.database}'` });
    }
  };
  /** `on` runs a call on the pool (`onPool`) or on one connection of a transaction. */
  const executor = (on: <T>(fn: (s: mysql.Pool | mysql.PoolConnection) => Promise<T>) => Promise<T>): Executor => ({
    // A write run through query() answers a result header, not rows: no rows then (no RETURNING here).
    query: <T>(q: Compiled) => guard(classifyMysql, () => orGoneDatabase(async () => resultRows<T>(await on((s) => s.execute(q.sql, q.params as any[]))))),
    execute: (q: Compiled): Promise<ExecResult> =>
      guard(classifyMysql, () => orGoneDatabase(async () => {
        const [r] = (await on((s) => s.execute(q.sql, q.params as any[]))) as unknown as [mysql.ResultSetHeader];
        return { affected: r.affectedRows, insertId: r.insertId };
      })),
  });
  const base = executor(onPool);

  return {
    ...base,
    onServerVersion(fn) {
      versionListener = fn;
      if (serverVersion) fn(serverVersion);
    },
    queryTimed: <T>(q: Compiled, timeoutMs: number) =>
      guard(classifyMysql, () => orGoneDatabase(async () => resultRows<T>(await onPool((p) => p.execute({ sql: q.sql, timeout: timeoutMs }, q.params as any[]))))),
    async transaction(fn) {
      const conn = await guard(classifyMysql, () => onPool((p) => p.getConnection()));
      try {
        await conn.beginTransaction();
        const out = await fn(executor((run) => run(conn)));
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
