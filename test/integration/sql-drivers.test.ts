/**
 * Drivers over real SQLite, PostgreSQL and MariaDB: database errors become AppErrors with the
 * spec's wording, big numbers come back exact, time limits answer 504, and a pool works again
 * after its database comes back.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createDatabaseIfNotExists, openDatabase, testConnection } from '../../src/sql/open-database';
import type { Database } from '../../src/sql/dialect';
import { AppError } from '../../src/lib/errors';
import { describeEngines, dropDatabase, loadAwkward, connectionFor, PG, MY } from '../helpers/engines';
import { startTcpProxy } from '../helpers/tcp-proxy';

const name = (engine: string) => `tablo_t_sqldrivers_${engine}`;

/** The AppError a promise rejects with (fails the test if it resolves or throws something else). */
async function appError(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error('expected the statement to fail');
}

describeEngines('drivers', (engine) => {
  let db: Database;
  const q = (id: string) => db.dialect.quoteId(id);
  const ph = (n: number) => (engine === 'pg' ? `$${n}` : '?');

  beforeAll(async () => {
    db = await openDatabase(await loadAwkward(engine, name(engine)));
  });
  afterAll(async () => {
    await db.driver.close();
    await dropDatabase(engine, name(engine));
  });

  test('unique violation -> 409 naming the column', async () => {
    const err = await appError(db.driver.execute({ sql: `UPDATE ${q('order')} SET ${q('code')} = ${ph(1)} WHERE ${q('title')} = ${ph(2)}`, params: ['A1', 'Second'] }));
    expect(err.status).toBe(409);
    expect(err.message).toBe('A row with the same code already exists');
  });

  test('foreign key violations -> 409 both ways', async () => {
    const child = await appError(db.driver.execute({ sql: `UPDATE ${q('order')} SET ${q('group')} = ${ph(1)} WHERE ${q('title')} = ${ph(2)}`, params: [99, 'First'] }));
    expect(child.status).toBe(409);
    expect(child.message).toMatch(/^The value of .+ does not match any row it refers to$/);
    if (engine !== 'sqlite') expect(child.message).toContain('group');
    const parent = await appError(db.driver.execute({ sql: `DELETE FROM ${q('tag')} WHERE ${q('id')} = ${ph(1)}`, params: [1] }));
    expect(parent.status).toBe(409);
    if (engine !== 'sqlite') expect(parent.message).toBe('The row is still referred to by other rows (table order_tag)');
  });

  test('unknown column and syntax errors -> 400 with the database message', async () => {
    // note: an UPDATE target, because SQLite reads an unknown "quoted" name in a SELECT list as a string.
    const unknown = await appError(db.driver.execute({ sql: `UPDATE ${q('tag')} SET ${q('nope')} = ${ph(1)}`, params: [1] }));
    expect(unknown.status).toBe(400);
    expect(unknown.message).toContain('nope');
    const syntax = await appError(db.driver.query({ sql: 'SELEC 1', params: [] }));
    expect(syntax.status).toBe(400);
    expect(syntax.message.toLowerCase()).toContain('syntax');
  });

  test('a statement the server refuses with a code of no ER_ family -> 400, not 500', async () => {
    // MariaDB: HA_WRONG_CREATE_OPTION (the on-disk temporary table of a GROUP BY over 2,000 TEXT columns).
    const cols = Array.from({ length: 2000 }, (_, i) => `${q('notes')} AS g${i}`).join(', ');
    const groups = Array.from({ length: 2000 }, (_, i) => `g${i}`).join(', ');
    const res = await db.driver.query({ sql: `SELECT COUNT(*) AS n FROM (SELECT ${cols} FROM ${q('order')}) x GROUP BY ${groups}`, params: [] }).then(() => null, (e: unknown) => e);
    // Engines that run it are fine; one that refuses it must say so as the statement's fault.
    if (res !== null) {
      expect(res).toBeInstanceOf(AppError);
      expect((res as AppError).status).toBe(400);
    }
  });

  test('64-bit integers and decimals come back exact', async () => {
    const rows = await db.driver.query<{ big: unknown; price: unknown }>({
      sql: `SELECT ${q('big')}, ${q('price')} FROM ${q('order')} WHERE ${q('title')} = ${ph(1)}`,
      params: ['First'],
      exact: true,
    });
    expect(String(rows[0]!.big)).toBe('9007199254740993');
    expect(Number(rows[0]!.price)).toBe(10.5);
    if (engine !== 'sqlite') expect(rows[0]!.price).toBe('10.50');
  });

  test('a transaction rolls back on failure', async () => {
    await appError(
      db.driver.transaction(async (tx) => {
        await tx.execute({ sql: `INSERT INTO ${q('tag')} (${q('id')}, ${q('label')}) VALUES (${ph(1)}, ${ph(2)})`, params: [50, 'temp'] });
        await tx.execute({ sql: `INSERT INTO ${q('tag')} (${q('id')}, ${q('label')}) VALUES (${ph(1)}, ${ph(2)})`, params: [50, 'again'] });
      }),
    );
    const rows = await db.driver.query({ sql: `SELECT ${q('id')} FROM ${q('tag')} WHERE ${q('id')} = ${ph(1)}`, params: [50] });
    expect(rows).toEqual([]);
  });

  if (engine !== 'sqlite') {
    test('a statement over its time limit answers 504; the pool keeps working', async () => {
      const sleep = engine === 'pg' ? 'SELECT pg_sleep(3) AS s' : 'SELECT SLEEP(3) AS s';
      const started = Date.now();
      const err = await appError(db.driver.queryTimed({ sql: sleep, params: [] }, 200));
      expect(err.status).toBe(504);
      expect(Date.now() - started).toBeLessThan(2500);
      expect(await db.driver.query({ sql: 'SELECT 1 AS one', params: [] })).toHaveLength(1);
    });

    test('wrong credentials -> "Invalid database credentials."', async () => {
      const base = engine === 'pg' ? PG : MY;
      const cfg = connectionFor(engine, name(engine));
      const bad = engine === 'pg' ? { user: 'tablo_no_such_role' } : { password: 'wrong-password' };
      const err = await appError(testConnection({ ...cfg, connection: { ...cfg.connection, ...base, database: name(engine), ...bad } }));
      expect(err.status).toBe(400);
      expect(err.message).toBe('Invalid database credentials.');
    });

    test('a closed port -> "Unable to connect ..." (400 from the Test button, 503 from a query)', async () => {
      const cfg = connectionFor(engine, name(engine));
      const closed = { ...cfg, connection: { ...cfg.connection, port: 1 } };
      const tested = await appError(testConnection(closed));
      expect(tested.status).toBe(400);
      expect(tested.message).toBe('Unable to connect to database, please check your database is up.');
      const down = await openDatabase(closed);
      try {
        const err = await appError(down.driver.query({ sql: 'SELECT 1', params: [] }));
        expect(err.status).toBe(503);
        expect(err.message).toBe('Unable to connect to database, please check your database is up.');
      } finally {
        await down.driver.close().catch(() => {});
      }
    });

    test('create database if not exists: creates once, then leaves it; a user without the right gets the spec message', async () => {
      const created = `${name(engine)}_created`;
      await dropDatabase(engine, created);
      const cfg = connectionFor(engine, created);
      try {
        await createDatabaseIfNotExists(cfg);
        await createDatabaseIfNotExists(cfg);
        await testConnection(cfg);
      } finally {
        await dropDatabase(engine, created);
      }
      const weak = `tablo_t_sqldrivers_weak`;
      const weakCfg = { ...cfg, connection: { ...cfg.connection, user: weak, password: 'weak-pass-1' } };
      if (engine === 'pg') {
        await db.driver.execute({ sql: `DROP ROLE IF EXISTS ${weak}`, params: [] });
        await db.driver.execute({ sql: `CREATE ROLE ${weak} LOGIN PASSWORD 'weak-pass-1' NOCREATEDB`, params: [] });
      } else {
        await db.driver.execute({ sql: `DROP USER IF EXISTS '${weak}'@'%'`, params: [] });
        await db.driver.execute({ sql: `CREATE USER '${weak}'@'%' IDENTIFIED BY 'weak-pass-1'`, params: [] });
      }
      try {
        const err = await appError(createDatabaseIfNotExists(weakCfg));
        expect(err.status).toBe(400);
        expect(err.message).toBe('User does not exist or have sufficient permission to create schema.');
      } finally {
        await db.driver.execute({ sql: engine === 'pg' ? `DROP ROLE IF EXISTS ${weak}` : `DROP USER IF EXISTS '${weak}'@'%'`, params: [] });
      }
    });

    test('the pool works again when the database comes back', async () => {
      const cfg = connectionFor(engine, name(engine));
      const proxy = startTcpProxy('127.0.0.1', cfg.connection.port!);
      const viaProxy = await openDatabase({ ...cfg, poolMax: 2, connection: { ...cfg.connection, port: proxy.port } });
      try {
        expect(await viaProxy.driver.query({ sql: 'SELECT 1 AS one', params: [] })).toHaveLength(1);
        proxy.down();
        const err = await appError(viaProxy.driver.query({ sql: 'SELECT 1 AS one', params: [] }));
        expect(err.status).toBe(503);
        proxy.up();
        let rows: unknown[] = [];
        // The first statement after the outage may still meet a connection that died with it.
        for (let i = 0; i < 5 && rows.length === 0; i++) {
          rows = await viaProxy.driver.query({ sql: 'SELECT 1 AS one', params: [] }).catch(() => []);
        }
        expect(rows).toHaveLength(1);
      } finally {
        await viaProxy.driver.close().catch(() => {});
        proxy.down();
      }
    });
  } else {
    test('a missing SQLite file fails the Test button with a clear message', async () => {
      const err = await appError(testConnection({ client: 'sqlite', connection: { filename: '/nonexistent/dir/x.sqlite' } }));
      expect(err.status).toBe(400);
      expect(err.message).toBe("The SQLite file '/nonexistent/dir/x.sqlite' does not exist");
    });
  }
});
