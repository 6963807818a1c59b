/**
 * The benchmark data set: 10,000 authors, 1,000,000 books (indexed on author_id and score) and
 * 1,000,000 reviews, in PostgreSQL (database tablo_bench) and in a SQLite file.
 */
import postgres from 'postgres';
import { Database } from 'bun:sqlite';
import { existsSync } from 'node:fs';

export const BOOKS = 1_000_000;

export async function loadPostgres(): Promise<{ host: string; port: number; user: string; database: string }> {
  const conn = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'tablo_bench' };
  const admin = postgres({ ...conn, database: 'postgres', max: 1, onnotice: () => {} });
  const exists = (await admin`SELECT 1 FROM pg_database WHERE datname = 'tablo_bench'`).length > 0;
  if (!exists) await admin.unsafe('CREATE DATABASE tablo_bench');
  await admin.end();
  const sql = postgres({ ...conn, max: 1, onnotice: () => {} });
  const have = exists ? await sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'book'` : [{ n: 0 }];
  if (have[0]!.n === 0 || (await sql`SELECT count(*)::int AS n FROM book`)[0]!.n !== BOOKS) {
    console.log('loading PostgreSQL (1,000,000 books, 1,000,000 reviews)…');
    await sql.unsafe(`
      DROP TABLE IF EXISTS review, book, author;
      CREATE TABLE author (id integer PRIMARY KEY, name text NOT NULL);
      CREATE TABLE book (id integer PRIMARY KEY, author_id integer NOT NULL REFERENCES author (id), title text NOT NULL, score integer NOT NULL, created_at timestamp NOT NULL);
      CREATE TABLE review (id integer PRIMARY KEY, book_id integer NOT NULL REFERENCES book (id), body text NOT NULL);
      INSERT INTO author SELECT g, 'Author ' || g FROM generate_series(1, 10000) g;
      INSERT INTO book SELECT g, 1 + (g % 10000), 'Book ' || g, g % 100, timestamp '2020-01-01' + (g || ' minutes')::interval FROM generate_series(1, ${BOOKS}) g;
      INSERT INTO review SELECT g, 1 + ((g * 7) % ${BOOKS}), 'Review ' || g FROM generate_series(1, ${BOOKS}) g;
      CREATE INDEX book_author ON book (author_id);
      CREATE INDEX book_score ON book (score);
      CREATE INDEX review_book ON review (book_id);
      ANALYZE;
    `);
  }
  await sql.end();
  return conn;
}

export function loadSqlite(path: string): void {
  if (existsSync(path)) {
    const db = new Database(path);
    const ok = (db.query("SELECT count(*) AS n FROM sqlite_master WHERE name = 'book'").get() as { n: number }).n === 1 && (db.query('SELECT count(*) AS n FROM book').get() as { n: number }).n === BOOKS;
    db.close();
    if (ok) return;
  }
  console.log('loading SQLite (1,000,000 books, 1,000,000 reviews)…');
  const db = new Database(path, { create: true });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(`
    DROP TABLE IF EXISTS review; DROP TABLE IF EXISTS book; DROP TABLE IF EXISTS author;
    CREATE TABLE author (id integer PRIMARY KEY, name text NOT NULL);
    CREATE TABLE book (id integer PRIMARY KEY, author_id integer NOT NULL REFERENCES author (id), title text NOT NULL, score integer NOT NULL, created_at datetime NOT NULL);
    CREATE TABLE review (id integer PRIMARY KEY, book_id integer NOT NULL REFERENCES book (id), body text NOT NULL);
    WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < 10000) INSERT INTO author SELECT x, 'Author ' || x FROM g;
    WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < ${BOOKS}) INSERT INTO book SELECT x, 1 + (x % 10000), 'Book ' || x, x % 100, datetime('2020-01-01', '+' || x || ' minutes') FROM g;
    WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < ${BOOKS}) INSERT INTO review SELECT x, 1 + ((x * 7) % ${BOOKS}), 'Review ' || x FROM g;
    CREATE INDEX book_author ON book (author_id);
    CREATE INDEX book_score ON book (score);
    CREATE INDEX review_book ON review (book_id);
    ANALYZE;
  `);
  db.close();
}
