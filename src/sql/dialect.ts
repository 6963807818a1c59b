/**
 * What every engine folder supplies: a compiler (hooks over the base compiler), a driver with a
 * bounded pool, an introspector, DDL and a type map. Capabilities are data, never exceptions.
 */
import type { Compiled, Query, SqlValue } from './ast';
import type { SchemaModel } from './model';

export type Engine = 'sqlite' | 'pg' | 'mysql' | 'mssql';

export interface Caps {
  /** INSERT/UPDATE ... RETURNING (pg, sqlite) or OUTPUT (mssql); otherwise re-select by key. */
  returning: boolean;
  /**
   * INSERT ... RETURNING of several rows (pg, sqlite >= 3.35, mssql OUTPUT, MariaDB >= 10.5: set when a
   * connection reports its server version). Without it an insert is read back by key.
   */
  insertReturning: boolean;
  /** DELETE ... RETURNING (pg, sqlite, mssql OUTPUT, MariaDB >= 10.0.5): the deleted row comes back without a read before. */
  deleteReturning: boolean;
  /**
   * UPDATE answers the row before beside the row after in one statement (Update.old): PostgreSQL by a
   * locked sub-select joined on the key, SQL Server by OUTPUT DELETED. Without it the row before is read first.
   */
  updateReturningOld?: boolean;
  /** Most bound parameters one statement may carry (SQLite 32,766, SQL Server 2,100, the others 65,535). */
  maxParams: number;
  /** DDL can run inside a transaction and roll back. */
  transactionalDdl: boolean;
  /** Has database schemas to choose from (pg, mssql). */
  schemas: boolean;
  functions: boolean;
  procedures: boolean;
  sequences: boolean;
  /** ALTER COLUMN exists; false means the table is rebuilt (SQLite). */
  alterColumn: boolean;
  /**
   * Nested children are read first with one query ordered by parent and capped at parents x limit
   * rows (cut per parent in code), and with ROW_NUMBER() only when that cap is reached: cheaper
   * where the window function costs more than the look-up (SQLite, PostgreSQL, MariaDB: measured with
   * scripts/bench/rest.ts, case D).
   */
  cappedChildren?: boolean;
  /**
   * A statement holds the whole process while it runs and cannot be interrupted (bun:sqlite runs on the
   * server's own thread): a table's COUNT(*) is counted in slices of rowid ranges, the server answering
   * other requests between them and the count's time limit checked at each (SQLite).
   */
  slicedCount?: boolean;
}

/** SSL settings of the external database form. */
export interface SslOptions {
  mode: 'No' | 'Preferred' | 'Required' | 'Required-CA' | 'Required-IDENTITY';
  key?: string;
  cert?: string;
  ca?: string;
}

export interface ConnectionOptions {
  host?: string;
  port?: number;
  user?: string;
  password?: string;
  database?: string;
  /** SQLite file path (already resolved and confined by the caller). */
  filename?: string;
  /** PostgreSQL / SQL Server schema to expose (default public / dbo). */
  schema?: string;
  ssl?: SslOptions;
}

export interface ConnectionConfig {
  client: Engine;
  connection: ConnectionOptions;
  /** Pool size bound (default from config/limits). */
  poolMax?: number;
  /** Time limit of every statement in ms, enforced by the server where the engine has one (PostgreSQL, MariaDB; SQL Server stops it when the driver's request time-out asks). */
  statementTimeoutMs?: number;
}

export interface ExecResult {
  affected: number;
  /** Auto-increment id of the last inserted row, where the engine reports it. */
  insertId?: number | bigint | string;
}

/** Runs compiled statements; a transaction hands the same shape to its callback. */
export interface Executor {
  query<T = Record<string, unknown>>(c: Compiled): Promise<T[]>;
  execute(c: Compiled): Promise<ExecResult>;
  /**
   * Inside a transaction, where the driver must run savepoints itself (postgres.js fails the whole
   * transaction on any failed statement outside one): runs fn in a savepoint, undone if fn fails.
   */
  savepoint?<T>(fn: (exec: Executor) => Promise<T>): Promise<T>;
}

export interface Driver extends Executor {
  /**
   * Called with the server's version string once a connection reports it (drivers of servers whose
   * capabilities differ by version: MySQL / MariaDB).
   */
  onServerVersion?(fn: (version: string) => void): void;
  /**
   * A read under a time limit: answers AppError TIMEOUT (504) when exceeded. note: SQLite
   * cannot interrupt a statement, so there it runs without a limit.
   */
  queryTimed<T = Record<string, unknown>>(c: Compiled, timeoutMs: number): Promise<T[]>;
  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T>;
  /**
   * Runs fn with the one connection to itself and no transaction opened for it (others wait), for
   * statements that must precede a transaction (SQLite's PRAGMA foreign_keys). Only drivers of a
   * single connection offer it.
   */
  session?<T>(fn: (conn: Executor) => Promise<T>): Promise<T>;
  /** Throws AppError UNAVAILABLE when the database cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface Dialect {
  engine: Engine;
  caps: Caps;
  compile(q: Query): Compiled;
  quoteId(name: string): string;
}

/** How names become API aliases. */
export interface IntrospectOptions {
  inflectionTable?: 'camelize' | 'none';
  inflectionColumn?: 'camelize' | 'none';
}

/** An open project database: what the rest of the server holds per (project, env, dbAlias). */
export interface Database {
  config: ConnectionConfig;
  dialect: Dialect;
  driver: Driver;
  introspect(opts?: IntrospectOptions): Promise<SchemaModel>;
}

export type { SqlValue };
