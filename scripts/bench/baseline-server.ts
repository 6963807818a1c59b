/**
 * The baseline: a minimal Bun HTTP server running the same SQL as Tablo with the same driver,
 * without any of Tablo's parsing, rights, model or JSON shaping. Started by scripts/bench/rest.ts.
 * Writes use RETURNING where the engine has it (MariaDB has no UPDATE ... RETURNING: UPDATE, then SELECT).
 *
 *   bun scripts/bench/baseline-server.ts <port> pg|sqlite|mysql <sqlite file>
 */
import postgres from 'postgres';
import mysql from 'mysql2/promise';
import { Database } from 'bun:sqlite';
import { MY, PG } from './dataset';

const [portArg, engine, file] = process.argv.slice(2);
type Row = Record<string, unknown>;
type Run = (sql: string, params: unknown[]) => Promise<Row[]>;
let run: Run;
if (engine === 'pg') {
  const sql = postgres({ ...PG, max: 10, onnotice: () => {} });
  run = async (text, params) => [...(await sql.unsafe(text, params as never[], { prepare: true }))];
} else if (engine === 'mysql') {
  const pool = mysql.createPool({ ...MY, connectionLimit: 10, supportBigNumbers: true, bigNumberStrings: true, dateStrings: true, charset: 'utf8mb4' });
  run = async (text, params) => {
    const [r] = await pool.execute(text, params as never[]);
    return Array.isArray(r) ? (r as Row[]) : [];
  };
} else {
  const db = new Database(file!);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA busy_timeout = 5000');
  run = async (text, params) => db.query(text).all(...(params as never[])) as Row[];
}
const p = (i: number) => (engine === 'pg' ? `$${i}` : '?');
const ph = (n: number, from = 1) => Array.from({ length: n }, (_, i) => p(i + from)).join(', ');
const now = engine === 'sqlite' ? "strftime('%Y-%m-%d %H:%M:%S', 'now')" : 'CURRENT_TIMESTAMP';
const ENTRY = 'id, title, score, created_at';

/** The GraphQL case's rows: books with their authors, as `{ data: { BookList } }`. */
async function booksWithAuthors() {
  const books = await run(`SELECT id, author_id, title, score, created_at FROM book ORDER BY id LIMIT ${p(1)}`, [25]);
  const authorIds = [...new Set(books.map((b) => b.author_id))];
  const authors = new Map((await run(`SELECT id, name FROM author WHERE id IN (${ph(authorIds.length)})`, authorIds)).map((x) => [x.id, x]));
  return { data: { BookList: books.map((b) => ({ ...b, AuthorRead: authors.get(b.author_id) ?? null })) } };
}

const idOf = (url: URL) => Number(url.searchParams.get('id') ?? 1);

const cases: Record<string, (url: URL, req: Request) => Promise<unknown>> = {
  '/list': () => run(`SELECT id, author_id, title, score, created_at FROM book ORDER BY id LIMIT ${p(1)}`, [25]),
  '/filtered': () => run(`SELECT id, author_id, title, score, created_at FROM book WHERE score < ${p(1)} ORDER BY id DESC LIMIT ${p(2)} OFFSET ${p(3)}`, [50, 25, 10000]),
  // The index (status, created_at) walked backwards: the key tiebreak follows the last sort key's direction.
  '/status': () =>
    run(`SELECT id, customer_id, status, amount, created_at FROM purchase WHERE status = ${p(1)} ORDER BY created_at DESC, id DESC LIMIT ${p(2)} OFFSET ${p(3)}`, ['shipped', 25, 10000]),
  '/read': (url) => run(`SELECT id, author_id, title, score, created_at FROM book WHERE id = ${p(1)}`, [idOf(url)]).then((r) => r[0]),
  // The GraphQL case, sent the same POST as Tablo: the body is read and parsed (any server answering it must), nothing more.
  '/graphql': async (_url, req) => {
    const body = (await req.json()) as { query?: unknown };
    if (typeof body.query !== 'string') throw new Error('no query');
    return booksWithAuthors();
  },
  '/nested': async () => {
    const books = await run(`SELECT id, author_id, title, score, created_at FROM book ORDER BY id LIMIT ${p(1)}`, [25]);
    const authorIds = [...new Set(books.map((b) => b.author_id))];
    const bookIds = books.map((b) => b.id);
    const [authors, reviews] = await Promise.all([
      run(`SELECT id, name FROM author WHERE id IN (${ph(authorIds.length)})`, authorIds),
      run(`SELECT id, body, book_id FROM review WHERE book_id IN (${ph(bookIds.length)}) ORDER BY id`, bookIds),
    ]);
    const a = new Map(authors.map((x) => [x.id, x]));
    return books.map((b) => ({ ...b, AuthorRead: a.get(b.author_id) ?? null, ReviewList: reviews.filter((r) => r.book_id === b.id) }));
  },
  '/create': async (_url, req) => {
    const b = (await req.json()) as { Title: string; Score: number };
    return (await run(`INSERT INTO entry (title, score, created_at) VALUES (${ph(2)}, ${now}) RETURNING ${ENTRY}`, [b.Title, b.Score]))[0];
  },
  '/update': async (url, req) => {
    const b = (await req.json()) as { Score: number };
    if (engine !== 'mysql') return (await run(`UPDATE entry SET score = ${p(1)} WHERE id = ${p(2)} RETURNING ${ENTRY}`, [b.Score, idOf(url)]))[0];
    await run('UPDATE entry SET score = ? WHERE id = ?', [b.Score, idOf(url)]);
    return (await run(`SELECT ${ENTRY} FROM entry WHERE id = ?`, [idOf(url)]))[0];
  },
  '/delete': async (url) => (await run(`DELETE FROM entry WHERE id = ${p(1)} RETURNING id`, [idOf(url)]))[0],
  '/bulk': async (_url, req) => {
    const rows = (await req.json()) as { Title: string; Score: number }[];
    const values = rows.map((_, i) => `(${p(2 * i + 1)}, ${p(2 * i + 2)}, ${now})`).join(', ');
    return run(`INSERT INTO entry (title, score, created_at) VALUES ${values} RETURNING id`, rows.flatMap((r) => [r.Title, r.Score]));
  },
};

Bun.serve({
  port: Number(portArg),
  hostname: '127.0.0.1',
  async fetch(req) {
    const url = new URL(req.url);
    const c = cases[url.pathname];
    if (!c) return new Response('not found', { status: 404 });
    const out = await c(url, req);
    return out === undefined ? new Response('{"msg":"not found"}', { status: 404 }) : Response.json(out);
  },
});
console.log(`baseline ${engine} on ${portArg}`);
