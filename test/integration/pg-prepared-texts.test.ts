/**
 * PostgreSQL driver: SQL texts run again are named prepared statements on their connection, and no
 * connection ever holds more than PREPARED_TEXTS_MAX of them, however many distinct texts run.
 */
import { afterAll, expect, test } from 'bun:test';
import { openPostgresDriver, PREPARED_TEXTS_MAX } from '../../src/sql/postgres/driver';
import { PG } from '../helpers/engines';

// One connection, so every statement below runs on the session whose prepared statements we count.
const driver = openPostgresDriver({ ...PG, database: 'postgres' } as never, 1);
afterAll(() => driver.close());

const prepared = async (text?: string) =>
  Number(
    (
      await driver.query<{ n: string | number }>({
        sql: text === undefined ? 'SELECT count(*) AS n FROM pg_prepared_statements' : 'SELECT count(*) AS n FROM pg_prepared_statements WHERE statement = $1',
        params: text === undefined ? [] : [text],
      })
    )[0]!.n,
  );

test('a text run twice is prepared, a text run once is not', async () => {
  const once = 'SELECT $1::int + 1 AS once_only';
  const twice = 'SELECT $1::int + 2 AS run_twice';
  expect((await driver.query<{ once_only: number }>({ sql: once, params: [1] }))[0]!.once_only).toBe(2);
  await driver.query({ sql: twice, params: [1] });
  expect((await driver.query<{ run_twice: number }>({ sql: twice, params: [5] }))[0]!.run_twice).toBe(7);
  expect(await prepared(twice)).toBe(1);
  expect(await prepared(once)).toBe(0);
});

test('the number of prepared statements on a connection stays bounded', async () => {
  for (let i = 0; i < PREPARED_TEXTS_MAX + 100; i++) {
    const sql = `SELECT $1::int + ${i} AS v`;
    await driver.query({ sql, params: [1] });
    expect((await driver.query<{ v: number }>({ sql, params: [2] }))[0]!.v).toBe(2 + i);
  }
  // The driver's own statements (the array types it reads on connecting) come on top of ours.
  const n = await prepared();
  expect(n).toBeLessThanOrEqual(PREPARED_TEXTS_MAX + 5);
  expect(n).toBeGreaterThan(PREPARED_TEXTS_MAX - 10);
});
