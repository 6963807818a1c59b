/**
 * SQL Server statements under NC_QUERY_TIMEOUT_MS, as on PostgreSQL and MariaDB (no SQL Server runs
 * here, so the pool's settings are checked, not a running statement): the project pool's requests
 * carry the limit (0 = none), a count's own limit reaches its request, and the driver's time-out
 * error is the 504 time-out that a cron job records as the statement time-out.
 */
import { expect, test } from 'bun:test';
import mssql from 'mssql';
import { mssqlPoolConfig, timedRequest, classifyMssql } from '../../src/sql/mssql/driver';
import { guard } from '../../src/sql/driver-errors';
import { AppError } from '../../src/lib/errors';

const where = { host: '127.0.0.1', port: 1433, user: 'sa', password: 'x', database: 'app' };

test("the project pool's statements end at NC_QUERY_TIMEOUT_MS (0: never); a connection test keeps mssql's own limit", () => {
  expect(mssqlPoolConfig(where, 5, 1500).requestTimeout).toBe(1500);
  expect(mssqlPoolConfig(where, 5, 0).requestTimeout).toBe(0);
  expect(mssqlPoolConfig(where, 5).requestTimeout).toBeUndefined();
  // What tedious is given: mssql passes the pool's limit on to each connection (0 is tedious' "no limit").
  const limitOf = (pool: mssql.ConnectionPool) => (pool as unknown as { config: mssql.config }).config.requestTimeout;
  expect(limitOf(new mssql.ConnectionPool(mssqlPoolConfig(where, 5, 1500)))).toBe(1500);
  expect(limitOf(new mssql.ConnectionPool(mssqlPoolConfig(where, 5, 0)))).toBe(0);
});

test("a count's own time limit is the limit of its request", () => {
  const pool = new mssql.ConnectionPool(mssqlPoolConfig(where, 5, 30_000));
  expect((timedRequest(pool, 2500) as unknown as { overrides: { requestTimeout?: number } }).overrides.requestTimeout).toBe(2500);
});

test("the driver's time-out is the statement time-out (504)", async () => {
  const err = new mssql.RequestError('Timeout: Request failed to complete in 1500ms', 'ETIMEOUT');
  expect(classifyMssql(err)).toEqual({ kind: 'timeout' });
  const e = await guard(classifyMssql, () => Promise.reject(err)).catch((x) => x);
  expect(e).toBeInstanceOf(AppError);
  expect((e as AppError).code).toBe('TIMEOUT');
});
