/**
 * The engine table: each engine's compiler, capabilities, type map, introspector and driver.
 * Adding an engine means adding a folder and a row here.
 */
import type { Caps, ConnectionConfig, Dialect, Driver, Engine } from './dialect';
import { badRequest } from '../lib/errors';
import type { BaseCompiler } from './compiler';
import type { Introspector } from './introspection';
import type { TypeMap } from './type-map';
import { SqliteCompiler } from './sqlite/compiler';
import { PostgresCompiler } from './postgres/compiler';
import { MysqlCompiler } from './mysql/compiler';
import { MssqlCompiler } from './mssql/compiler';
import { sqliteTypes } from './sqlite/type-map';
import { postgresTypes } from './postgres/type-map';
import { mysqlTypes } from './mysql/type-map';
import { mssqlTypes } from './mssql/type-map';
import { sqliteIntrospector } from './sqlite/introspector';
import { postgresIntrospector } from './postgres/introspector';
import { mysqlIntrospector } from './mysql/introspector';
import { mssqlIntrospector } from './mssql/introspector';
import { openSqliteDriver } from './sqlite/driver';
import { openPostgresDriver } from './postgres/driver';
import { openMysqlDriver, mysqlVersionCaps } from './mysql/driver';
import { openMssqlDriver } from './mssql/driver';

export interface EngineSpec {
  compiler: BaseCompiler;
  caps: Caps;
  types: TypeMap;
  introspector: Introspector;
  openDriver(config: ConnectionConfig): Driver;
  /** Schema introspected when the connection names none. */
  defaultSchema?: string;
  /** The capabilities a server of this version adds to `caps` (engines whose servers differ by version). */
  versionCaps?(version: string): Partial<Caps>;
}

export const ENGINES: Record<Engine, EngineSpec> = {
  sqlite: {
    compiler: new SqliteCompiler(),
    caps: { returning: true, insertReturning: true, deleteReturning: true, maxParams: 32_766, transactionalDdl: true, schemas: false, functions: false, procedures: false, sequences: false, alterColumn: false, cappedChildren: true, slicedCount: true },
    types: sqliteTypes,
    introspector: sqliteIntrospector,
    openDriver: (c) => openSqliteDriver(c.connection.filename!, { busyWaitMs: c.statementTimeoutMs }),
  },
  pg: {
    compiler: new PostgresCompiler(),
    caps: { returning: true, insertReturning: true, deleteReturning: true, updateReturningOld: true, maxParams: 65_535, transactionalDdl: true, schemas: true, functions: true, procedures: true, sequences: true, alterColumn: true, cappedChildren: true },
    types: postgresTypes,
    introspector: postgresIntrospector,
    openDriver: (c) => openPostgresDriver(c.connection, c.poolMax, c.statementTimeoutMs),
    defaultSchema: 'public',
  },
  mysql: {
    compiler: new MysqlCompiler(),
    caps: { returning: false, insertReturning: false, deleteReturning: false, maxParams: 65_535, transactionalDdl: false, schemas: false, functions: true, procedures: true, sequences: false, alterColumn: true, cappedChildren: true },
    types: mysqlTypes,
    introspector: mysqlIntrospector,
    openDriver: (c) => openMysqlDriver(c.connection, c.poolMax, c.statementTimeoutMs),
    versionCaps: mysqlVersionCaps,
  },
  mssql: {
    compiler: new MssqlCompiler(),
    caps: { returning: true, insertReturning: true, deleteReturning: true, updateReturningOld: true, maxParams: 2_100, transactionalDdl: true, schemas: true, functions: true, procedures: true, sequences: true, alterColumn: true },
    types: mssqlTypes,
    introspector: mssqlIntrospector,
    openDriver: (c) => openMssqlDriver(c.connection, c.poolMax, c.statementTimeoutMs),
    defaultSchema: 'dbo',
  },
};

/**
 * The dialect (compiler + capabilities) of an engine. A statement with more bound values than the
 * engine takes (a where `in` list of 70,000 values) is refused with 400 before it is sent: PostgreSQL's
 * driver would fail it with an error of its own (a 500), MySQL with another wording.
 */
export function dialectFor(engine: Engine): Dialect {
  const spec = ENGINES[engine];
  const max = spec.caps.maxParams;
  const compile = (q: Parameters<Dialect['compile']>[0]) => {
    const c = spec.compiler.compile(q);
    if (c.params.length > max) throw badRequest(`The request holds ${c.params.length} values, more than the ${max} one statement of this database can take`);
    return c;
  };
  return { engine, caps: spec.caps, compile, quoteId: (n) => spec.compiler.quoteId(n) };
}
