/**
 * Opening a project database: driver (bounded pool) + dialect + introspection, the form's
 * Test connection, and 'create database if not exists'.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ConnectionConfig, Database, IntrospectOptions } from './dialect';
import { ENGINES, dialectFor } from './engines';
import { buildSchemaModel } from './schema-model';
import { AppError, badRequest } from '../lib/errors';
import { MSG_BAD_CREDENTIALS, MSG_NO_PERMISSION, MSG_UNREACHABLE, msgNoDatabase } from './driver-errors';
import { LIMITS } from '../config/limits';

/** Opens a pool to the database; the first statement connects. */
export async function openDatabase(config: ConnectionConfig): Promise<Database> {
  const spec = ENGINES[config.client];
  if (config.client === 'sqlite' && !existsSync(config.connection.filename ?? '')) {
    // A missing embedded file is created; external files must exist (checked by testConnection).
    await Bun.write(config.connection.filename!, '');
  }
  const driver = spec.openDriver(config);
  const schema = config.connection.schema ?? spec.defaultSchema;
  let dialect = dialectFor(config.client);
  if (spec.versionCaps && driver.onServerVersion) {
    // Capabilities that depend on the server's version: this database's own copy, completed by the first connection.
    const caps = { ...dialect.caps };
    dialect = { ...dialect, caps };
    driver.onServerVersion((v) => Object.assign(caps, spec.versionCaps!(v)));
  }
  return {
    config,
    dialect,
    driver,
    async introspect(opts: IntrospectOptions = {}) {
      const raw = await spec.introspector.read(driver, { schema });
      return buildSchemaModel(raw, spec.types, { ...opts, schema: spec.caps.schemas ? schema : undefined });
    },
  };
}

/**
 * Connects once and runs `SELECT 1`; throws the spec's messages on failure. With 'create database
 * if not exists' a missing database is what saving creates: the test then checks the server (or the
 * SQLite file's folder) it would be created on, and creates nothing.
 */
export async function testConnection(config: ConnectionConfig & { createIfNotExists?: boolean }): Promise<void> {
  const { client, connection } = config;
  if (client === 'sqlite' && !existsSync(connection.filename ?? '')) {
    if (config.createIfNotExists && connection.filename && existsSync(dirname(connection.filename))) return;
    throw badRequest(`The SQLite file '${connection.filename}' does not exist`);
  }
  if (!config.createIfNotExists || client === 'sqlite') return ping(config, true);
  try {
    // The schema is what saving creates too: only the database is checked here.
    await ping(config, false);
  } catch (e) {
    if (!(e instanceof AppError && e.message === msgNoDatabase(connection.database ?? ''))) throw e;
    if (!DB_NAME.test(connection.database ?? '')) throw badRequest('Invalid database name: use letters, digits, _, $, - and spaces (at most 63)');
    await ping(adminConfig(config), false);
  }
}

/** The connection to the server's own database, where a missing one is created. */
const adminConfig = (config: ConnectionConfig): ConnectionConfig => ({
  ...config,
  connection: { ...config.connection, database: config.client === 'pg' ? 'postgres' : config.client === 'mssql' ? 'master' : undefined, schema: undefined },
});

/** Looks up a named schema (PostgreSQL, SQL Server); the default one is always there. */
const SCHEMA_LOOKUP: Partial<Record<ConnectionConfig['client'], string>> = {
  pg: 'SELECT 1 FROM pg_namespace WHERE nspname = $1',
  mssql: 'SELECT 1 FROM sys.schemas WHERE name = @p1',
};

/** The schema named in the connection, or undefined when it is the engine's default or the engine has none. */
const namedSchema = (config: ConnectionConfig): string | undefined => {
  const schema = config.connection.schema;
  return schema && SCHEMA_LOOKUP[config.client] && schema !== ENGINES[config.client].defaultSchema ? schema : undefined;
};

export const msgNoSchema = (schema: string, database: string) => `The schema '${schema}' does not exist in the database '${database}'`;

/**
 * Connects once and runs `SELECT 1` (at most TEST_DEADLINE_MS); with `checkSchema`, a schema named in
 * the connection must exist (else the project would open with no tables and no word why).
 */
async function ping(config: ConnectionConfig, checkSchema: boolean): Promise<void> {
  const driver = ENGINES[config.client].openDriver({ ...config, poolMax: 1 });
  // A port that takes the connection but never speaks the database's protocol (a web server, a
  // wrong service) would keep the driver connecting again and again: the test ends at a deadline.
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => ((timedOut = true), reject(badRequest(MSG_UNREACHABLE))), TEST_DEADLINE_MS);
  });
  try {
    const schema = checkSchema ? namedSchema(config) : undefined;
    const check = async () => {
      await driver.ping();
      if (schema && !(await driver.query({ sql: SCHEMA_LOOKUP[config.client]!, params: [schema] })).length) {
        throw badRequest(msgNoSchema(schema, config.connection.database ?? ''));
      }
    };
    await Promise.race([check(), deadline]);
  } catch (e) {
    // The form's Test button answers 400 with the spec's wording, whatever went wrong.
    if (e instanceof AppError && e.code === 'UNAVAILABLE') throw badRequest(e.message);
    throw e;
  } finally {
    clearTimeout(timer);
    // After a deadline the driver may still be waiting on the socket: it is closed without waiting.
    const closing = driver.close().catch(() => {});
    if (!timedOut) await closing;
  }
}

/** How long a connection test may take: the driver's connect time-out, and the same again to sign in. */
const TEST_DEADLINE_MS = 2 * LIMITS.connectTimeoutMs;

const DB_NAME = /^[A-Za-z0-9_$][A-Za-z0-9_$ -]{0,62}$/;

/** Creates the named database (or SQLite file) when missing, then the named schema (PostgreSQL, SQL Server). */
export async function createDatabaseIfNotExists(config: ConnectionConfig): Promise<void> {
  await createDatabase(config);
  await createSchema(config);
}

/** The refusal of a CREATE by a user who signed in: a missing right, not bad credentials. */
const refusal = (e: unknown) => {
  const refused = e instanceof AppError && e.message === MSG_BAD_CREDENTIALS;
  return refused || /permission|denied/i.test(String((e as Error).message)) ? badRequest(MSG_NO_PERMISSION) : e;
};

/** Creates the schema named in the connection when the database lacks it. */
async function createSchema(config: ConnectionConfig): Promise<void> {
  const schema = namedSchema(config);
  if (!schema) return;
  const spec = ENGINES[config.client];
  const driver = spec.openDriver({ ...config, poolMax: 1 });
  try {
    if ((await driver.query({ sql: SCHEMA_LOOKUP[config.client]!, params: [schema] })).length) return;
    // Schema names cannot be bound parameters: the name is quoted (SQL Server wants CREATE SCHEMA alone in its batch).
    const create = `CREATE SCHEMA ${spec.compiler.quoteId(schema)}`;
    const sql = config.client === 'mssql' ? `EXEC(N'${create.replaceAll("'", "''")}')` : create;
    await driver.execute({ sql, params: [] }).catch((e) => {
      throw refusal(e);
    });
  } finally {
    await driver.close().catch(() => {});
  }
}

async function createDatabase(config: ConnectionConfig): Promise<void> {
  const { client, connection } = config;
  if (client === 'sqlite') {
    if (!existsSync(connection.filename!)) await Bun.write(connection.filename!, '');
    return;
  }
  const name = connection.database ?? '';
  if (!DB_NAME.test(name)) throw badRequest('Invalid database name: use letters, digits, _, $, - and spaces (at most 63)');
  const admin = { ...adminConfig(config), poolMax: 1 };
  const spec = ENGINES[client];
  const driver = spec.openDriver(admin);
  const q = spec.compiler.quoteId(name);
  try {
    const exists =
      client === 'pg'
        ? (await driver.query({ sql: 'SELECT 1 FROM pg_database WHERE datname = $1', params: [name] })).length > 0
        : client === 'mysql'
          ? (await driver.query({ sql: 'SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', params: [name] })).length > 0
          : (await driver.query({ sql: 'SELECT 1 FROM sys.databases WHERE name = @p1', params: [name] })).length > 0;
    if (exists) return;
    // Database names cannot be bound parameters: the name is checked above and quoted.
    await driver.execute({ sql: `CREATE DATABASE ${q}`, params: [] }).catch((e) => {
      // Signed in already (the lookup above ran).
      throw refusal(e);
    });
  } finally {
    await driver.close().catch(() => {});
  }
}
