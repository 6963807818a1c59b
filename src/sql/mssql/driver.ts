/**
 * SQL Server through `mssql` (tedious): a bounded pool; parameters bound as @p1..@pN.
 * note: no SQL Server runs on the development machines; this driver is exercised only when
 * TABLO_TEST_MSSQL_URL points at one. `mssql` (with tedious and its Azure sign-in modules) loads with
 * the first connection: a server without SQL Server projects never loads it.
 */
import type sql from 'mssql';
import type { Compiled } from '../ast';
import type { ConnectionOptions, Driver, ExecResult, Executor } from '../dialect';
import { guard, isNetworkError, type ErrorClass } from '../driver-errors';
import { LIMITS } from '../../config/limits';

export function classifyMssql(e: unknown): ErrorClass {
  const err = e as { code?: string; number?: number; message?: string; originalError?: { info?: { number?: number } } };
  const n = err.number ?? err.originalError?.info?.number;
  if (err.code === 'ELOGIN' || n === 18456) return { kind: 'credentials' };
  // "... duplicate key in object 'dbo.t'. The duplicate key value is (A1)." / "... constraint 'UQ_x' ..."
  if (n === 2627 || n === 2601) {
    const name = /(?:constraint|index) '([^']+)'/.exec(err.message ?? '')?.[1];
    return { kind: 'unique', what: name ? `value (constraint ${name})` : 'key' };
  }
  if (n === 547) {
    const column = /, column '([^']+)'/.exec(err.message ?? '')?.[1];
    return /DELETE statement/.test(err.message ?? '')
      ? { kind: 'foreignKey', what: /table "([^"]+)"/.exec(err.message ?? '')?.[1] ?? 'another table', missingParent: false }
      : { kind: 'foreignKey', what: column ?? 'the foreign key', missingParent: true };
  }
  if (err.code === 'ETIMEOUT' && n === undefined) return { kind: 'timeout' };
  if (n === 262 || n === 229) return { kind: 'permission' };
  if (isNetworkError(e)) return { kind: 'unreachable' };
  if (typeof n === 'number') return { kind: 'statement', message: err.message ?? 'Invalid statement' };
  return { kind: 'unknown' };
}

/**
 * The pool's settings. `statementTimeoutMs` (NC_QUERY_TIMEOUT_MS; 0 = none) is the time limit of every
 * statement: past it tedious asks the server to stop the statement (an attention) and the call fails
 * with ETIMEOUT (504). Unset (a connection test), mssql's own 15 s applies.
 */
export function mssqlPoolConfig(c: ConnectionOptions, poolMax: number = LIMITS.poolMax, statementTimeoutMs?: number): sql.config {
  return {
    server: c.host ?? '127.0.0.1',
    port: c.port,
    user: c.user,
    password: c.password,
    database: c.database,
    pool: { max: poolMax, min: 0, idleTimeoutMillis: 30_000 },
    connectionTimeout: LIMITS.connectTimeoutMs,
    ...(statementTimeoutMs !== undefined ? { requestTimeout: Math.max(0, Math.floor(statementTimeoutMs)) } : {}),
    options: { encrypt: !!c.ssl && c.ssl.mode !== 'No', trustServerCertificate: !c.ssl || c.ssl.mode === 'Preferred' || c.ssl.mode === 'Required' },
  };
}

/** A request on `pool` with its own time limit (mssql reads per-request overrides given to request()). */
export const timedRequest = (pool: sql.ConnectionPool, timeoutMs: number): sql.Request =>
  (pool.request as unknown as (conf: { requestTimeout: number }) => sql.Request).call(pool, { requestTimeout: Math.max(1, Math.floor(timeoutMs)) });

export function openMssqlDriver(c: ConnectionOptions, poolMax: number = LIMITS.poolMax, statementTimeoutMs?: number): Driver {
  const config = mssqlPoolConfig(c, poolMax, statementTimeoutMs);
  let mssql: typeof sql | undefined;
  let pool: sql.ConnectionPool | undefined;
  let connecting: Promise<sql.ConnectionPool> | null = null;
  const ready = async (): Promise<sql.ConnectionPool> => {
    if (pool?.connected) return pool;
    mssql ??= (await import('mssql')).default;
    pool ??= new mssql.ConnectionPool(config);
    const p = pool;
    return (connecting ??= p.connect().finally(() => (connecting = null)));
  };

  const request = (r: sql.Request, q: Compiled) => {
    q.params.forEach((v, i) => r.input(`p${i + 1}`, v as any));
    return r.query(q.sql);
  };
  const executor = (make: () => Promise<sql.Request>): Executor => ({
    query: <T>(q: Compiled) => guard(classifyMssql, async () => (await request(await make(), q)).recordset as unknown as T[]),
    execute: (q: Compiled): Promise<ExecResult> =>
      guard(classifyMssql, async () => {
        const r = await request(await make(), q);
        return { affected: r.rowsAffected.reduce((a, b) => a + b, 0) };
      }),
  });
  const base = executor(async () => (await ready()).request());

  return {
    ...base,
    queryTimed: <T>(q: Compiled, timeoutMs: number) =>
      guard(classifyMssql, async () => {
        const r = timedRequest(await ready(), timeoutMs);
        return (await request(r, q)).recordset as unknown as T[];
      }),
    async transaction(fn) {
      const tx = new mssql!.Transaction(await guard(classifyMssql, ready));
      await tx.begin();
      try {
        const out = await fn(executor(async () => new mssql!.Request(tx)));
        await tx.commit();
        return out;
      } catch (e) {
        await tx.rollback().catch(() => {});
        throw e;
      }
    },
    ping: async () => {
      await base.query({ sql: 'SELECT 1 AS one', params: [] });
    },
    close: async () => {
      await pool?.close();
    },
  };
}
