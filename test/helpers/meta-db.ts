/**
 * PostgreSQL metadata databases for tests: TABLO_TEST_META=pg makes makeTestApp keep its metadata
 * in a fresh PostgreSQL database (named with TABLO_TEST_DB_SUFFIX) instead of SQLite.
 */
import postgres from 'postgres';
import { PG, dbName } from './engines';

/** True when the suites run on a PostgreSQL metadata store. */
export const META_ON_PG = process.env.TABLO_TEST_META === 'pg';

let counter = 0;

const admin = async (text: string) => {
  const sql = postgres({ ...PG, database: 'postgres', max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(text);
  } finally {
    await sql.end();
  }
};

/** The URL of a PostgreSQL database on the test server. */
export const pgMetaUrl = (name: string) => `postgres://${PG.user}@${PG.host}:${PG.port}/${name}`;

/** Creates an empty metadata database; answers its URL and a function that drops it. */
export async function freshMetaDb(label = 'meta'): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = dbName(`tablo_m_${label}_${process.pid}_${++counter}`);
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${name}"`);
  return { url: pgMetaUrl(name), name, drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
