/**
 * Real database engines for integration tests: which are reachable, fresh databases per test
 * file, and the Chinook and awkward fixtures. A suite whose engine is unreachable is skipped with
 * a line that says so, unless TABLO_REQUIRE_DBS names the engine (CI), in which case it fails.
 * SQL Server joins every suite when TABLO_TEST_MSSQL_URL (mssql://user:password@host:port) names one.
 */
import { describe, test } from 'bun:test';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import mysql from 'mysql2/promise';
import mssql from 'mssql';
import { Database } from 'bun:sqlite';
import type { ConnectionConfig } from '../../src/sql/dialect';

export const ENGINES = ['sqlite', 'pg', 'mysql'] as const;
/** An engine a suite runs on: the three of ENGINES, and SQL Server when TABLO_TEST_MSSQL_URL is set. */
export type TestEngine = (typeof ENGINES)[number] | 'mssql';

const MSSQL_URL = process.env.TABLO_TEST_MSSQL_URL ? new URL(process.env.TABLO_TEST_MSSQL_URL) : null;
/** SQL Server test server from TABLO_TEST_MSSQL_URL, or null. */
export const MS = MSSQL_URL
  ? {
      host: MSSQL_URL.hostname,
      port: Number(MSSQL_URL.port || 1433),
      user: decodeURIComponent(MSSQL_URL.username),
      password: decodeURIComponent(MSSQL_URL.password),
    }
  : null;
/** The engines suites run on by default. */
export const TEST_ENGINES: readonly TestEngine[] = MS ? [...ENGINES, 'mssql'] : ENGINES;

/** A SQL Server connection for test set-up (not the product's driver). */
async function mssqlPool(database: string): Promise<mssql.ConnectionPool> {
  return new mssql.ConnectionPool({
    server: MS!.host,
    port: MS!.port,
    user: MS!.user,
    password: MS!.password,
    database,
    connectionTimeout: 5000,
    options: { encrypt: false, trustServerCertificate: true },
  }).connect();
}

export const PG = { host: '127.0.0.1', port: 5432, user: 'postgres', password: '' };
export const MY = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };
const CHINOOK = join(import.meta.dir, '../../../shared/datasets/chinook');

/**
 * Appended to every test database name (TABLO_TEST_DB_SUFFIX), so that two checkouts can run their
 * suites at the same time against one PostgreSQL and one MariaDB without meeting.
 */
export const DB_SUFFIX = (process.env.TABLO_TEST_DB_SUFFIX ?? '').replace(/[^a-z0-9_]/g, '');
/** The real database name of a test database `name`. */
export const dbName = (name: string): string => name + DB_SUFFIX;

const required = new Set((process.env.TABLO_REQUIRE_DBS ?? '').split(',').map((s) => s.trim()).filter(Boolean));

async function reachable(engine: TestEngine): Promise<string | null> {
  try {
    if (engine === 'pg') {
      const sql = postgres({ ...PG, database: 'postgres', max: 1, connect_timeout: 3, onnotice: () => {} });
      await sql`SELECT 1`;
      await sql.end();
    } else if (engine === 'mysql') {
      const c = await mysql.createConnection({ ...MY, connectTimeout: 3000 });
      await c.query('SELECT 1');
      await c.end();
    } else if (engine === 'mssql') {
      const pool = await mssqlPool('master');
      await pool.request().query('SELECT 1 AS one');
      await pool.close();
    }
    return null;
  } catch (e) {
    const where = engine === 'pg' ? `${PG.host}:${PG.port}` : engine === 'mssql' ? `${MS!.host}:${MS!.port}` : `${MY.host}:${MY.port}`;
    return `${engine} is not reachable at ${where} (${(e as Error).message})`;
  }
}

const availability = new Map<TestEngine, string | null>();
for (const e of TEST_ENGINES) availability.set(e, await reachable(e));

/** Runs `fn` inside one `describe` per engine; unreachable engines are skipped or fail as above. */
export function describeEngines(name: string, fn: (engine: TestEngine) => void, engines: readonly TestEngine[] = TEST_ENGINES): void {
  for (const engine of engines) {
    if (!availability.has(engine)) continue; // SQL Server without TABLO_TEST_MSSQL_URL
    const problem = availability.get(engine);
    if (problem && required.has(engine)) {
      describe(`${name} [${engine}]`, () => {
        test(`${engine} must be reachable (TABLO_REQUIRE_DBS)`, () => {
          throw new Error(problem);
        });
      });
    } else if (problem) {
      console.log(`skipped ${engine} suite '${name}': ${problem}`);
      describe.skip(`${name} [${engine}]`, () => fn(engine));
    } else {
      describe(`${name} [${engine}]`, () => fn(engine));
    }
  }
}

const tmpDirs = new Map<string, string>();
function sqlitePath(name: string): string {
  let dir = tmpDirs.get(name);
  if (!dir) tmpDirs.set(name, (dir = mkdtempSync(join(tmpdir(), 'tablo-db-'))));
  return join(dir, `${name}.sqlite`);
}

export function connectionFor(engine: TestEngine, name: string): ConnectionConfig {
  if (engine === 'sqlite') return { client: 'sqlite', connection: { filename: sqlitePath(name) } };
  if (engine === 'pg') return { client: 'pg', connection: { ...PG, database: dbName(name) } };
  if (engine === 'mssql') return { client: 'mssql', connection: { ...MS!, database: dbName(name) } };
  return { client: 'mysql', connection: { ...MY, database: dbName(name) } };
}

async function admin<T>(engine: 'pg' | 'mysql', fn: (run: (sql: string) => Promise<unknown>) => Promise<T>): Promise<T> {
  if (engine === 'pg') {
    const sql = postgres({ ...PG, database: 'postgres', max: 1, onnotice: () => {} });
    try {
      return await fn((text) => sql.unsafe(text));
    } finally {
      await sql.end();
    }
  }
  const c = await mysql.createConnection(MY);
  try {
    return await fn((text) => c.query(text));
  } finally {
    await c.end();
  }
}

/** Drops (if present) and creates an empty database called `name`. */
export async function freshDatabase(engine: TestEngine, name: string): Promise<ConnectionConfig> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`test database names use a-z, 0-9 and _: ${name}`);
  await dropDatabase(engine, name);
  const real = dbName(name);
  if (engine === 'pg') await admin('pg', (run) => run(`CREATE DATABASE "${real}"`));
  if (engine === 'mysql') await admin('mysql', (run) => run(`CREATE DATABASE \`${real}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`));
  if (engine === 'mssql') await mssqlBatches('master', [`CREATE DATABASE [${real}]`]);
  const cfg = connectionFor(engine, name);
  if (engine === 'sqlite') new Database(cfg.connection.filename!, { create: true }).close();
  return cfg;
}

export async function dropDatabase(engine: TestEngine, dbname: string): Promise<void> {
  const name = dbName(dbname);
  if (engine === 'pg') await admin('pg', (run) => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  if (engine === 'mysql') await admin('mysql', (run) => run(`DROP DATABASE IF EXISTS \`${name}\``));
  if (engine === 'sqlite') {
    // The file with its -wal/-shm companions: the whole temp folder of this database goes.
    const dir = tmpDirs.get(dbname);
    if (dir) rmSync(dir, { recursive: true, force: true });
    tmpDirs.delete(dbname);
  }
  if (engine === 'mssql') {
    await mssqlBatches('master', [
      `IF DB_ID(N'${name}') IS NOT NULL BEGIN ALTER DATABASE [${name}] SET SINGLE_USER WITH ROLLBACK IMMEDIATE; DROP DATABASE [${name}]; END`,
    ]);
  }
}

/** Runs T-SQL batches (the parts of a script between GO lines) one after another. */
async function mssqlBatches(database: string, batches: string[]): Promise<void> {
  const pool = await mssqlPool(database);
  try {
    for (const b of batches) if (b.trim()) await pool.request().batch(b);
  } finally {
    await pool.close();
  }
}

const splitGo = (script: string) => script.split(/^\s*GO\s*;?\s*$/im);

/** Runs a multi-statement SQL script in the named database. */
export async function runScript(engine: TestEngine, name: string, script: string): Promise<void> {
  if (engine === 'pg') {
    const sql = postgres({ ...PG, database: dbName(name), max: 1, onnotice: () => {} });
    try {
      await sql.unsafe(script);
    } finally {
      await sql.end();
    }
  } else if (engine === 'mysql') {
    const c = await mysql.createConnection({ ...MY, database: dbName(name), multipleStatements: true, charset: 'utf8mb4' });
    try {
      await c.query(script);
    } finally {
      await c.end();
    }
  } else if (engine === 'mssql') {
    await mssqlBatches(dbName(name), splitGo(script));
  } else {
    const db = new Database(connectionFor('sqlite', name).connection.filename!);
    try {
      db.exec('PRAGMA foreign_keys = ON');
      db.exec(script);
    } finally {
      db.close();
    }
  }
}

const stripDatabaseLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => !/^\s*(DROP DATABASE|CREATE DATABASE|USE |\\c )/i.test(l))
    .join('\n');

/**
 * A fresh database `name` holding the Chinook sample (always reloaded, so a test file may change
 * its data freely; test/helpers/chinook.ts has the loader that reuses a complete copy). PostgreSQL names are snake_case (album_id), MySQL/SQLite PascalCase (AlbumId):
 * with camelize inflection both become the aliases Album / AlbumId.
 */
export async function loadChinook(engine: TestEngine, name: string): Promise<ConnectionConfig> {
  if (engine === 'sqlite') {
    const cfg = connectionFor('sqlite', name);
    copyFileSync(join(CHINOOK, 'Chinook_Sqlite.sqlite'), cfg.connection.filename!);
    return cfg;
  }
  const cfg = await freshDatabase(engine, name);
  if (engine === 'mssql') {
    // Leave out the batches that drop, create and switch to the Chinook database.
    const batches = splitGo(readFileSync(join(CHINOOK, 'Chinook_SqlServer.sql'), 'utf8'));
    await mssqlBatches(dbName(name), batches.filter((b) => !/sysdatabases|CREATE DATABASE|^\s*USE \[/im.test(b)));
    return cfg;
  }
  const file = engine === 'pg' ? 'Chinook_PostgreSql.sql' : 'Chinook_MySql.sql';
  await runScript(engine, name, stripDatabaseLines(readFileSync(join(CHINOOK, file), 'utf8')));
  return cfg;
}

/** A fresh database `name` holding the awkward schema of test/fixtures/awkward/<engine>.sql. */
export async function loadAwkward(engine: TestEngine, name: string): Promise<ConnectionConfig> {
  const cfg = await freshDatabase(engine, name);
  await runScript(engine, name, readFileSync(join(import.meta.dir, `../fixtures/awkward/${engine}.sql`), 'utf8'));
  return cfg;
}
