/**
 * The baseline: a minimal Bun HTTP server running the same SQL as Tablo with the same driver,
 * without any of Tablo's parsing, rights, model or JSON shaping. Started by scripts/bench/rest.ts.
 *
 *   bun scripts/bench/baseline-server.ts <port> pg|sqlite <sqlite file>
 */
import postgres from 'postgres';
import { Database } from 'bun:sqlite';

const [portArg, engine, file] = process.argv.slice(2);
type Run = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;
let run: Run;
if (engine === 'pg') {
  const sql = postgres({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'tablo_bench', max: 10, onnotice: () => {} });
  run = async (text, params) => [...(await sql.unsafe(text, params as never[]))];
} else {
  const db = new Database(file!, { readonly: true });
  run = async (text, params) => db.query(text).all(...(params as never[])) as Record<string, unknown>[];
}
const p = (i: number) => (engine === 'pg' ? `$${i}` : '?');

/** The GraphQL case's rows: books with their authors, as `{ data: { BookList } }`. */
async function booksWithAuthors() {
  const books = await run(`SELECT id, author_id, title, score, created_at FROM book ORDER BY id LIMIT ${p(1)}`, [25]);
  const authorIds = [...new Set(books.map((b) => b.author_id))];
  const ph = Array.from({ length: authorIds.length }, (_, i) => p(i + 1)).join(', ');
  const authors = new Map((await run(`SELECT id, name FROM author WHERE id IN (${ph})`, authorIds)).map((x) => [x.id, x]));
  return { data: { BookList: books.map((b) => ({ ...b, AuthorRead: authors.get(b.author_id) ?? null })) } };
}

const cases: Record<string, (url: URL, req: Request) => Promise<unknown>> = {
  '/list': () => run(`SELECT id, author_id, title, score, created_at FROM book ORDER BY id LIMIT ${p(1)}`, [25]),
  '/filtered': () => run(`SELECT id, author_id, title, score, created_at FROM book WHERE score < ${p(1)} ORDER BY id DESC LIMIT ${p(2)} OFFSET ${p(3)}`, [50, 25, 10000]),
  '/read': (url) => run(`SELECT id, author_id, title, score, created_at FROM book WHERE id = ${p(1)}`, [Number(url.searchParams.get('id') ?? 1)]).then((r) => r[0]),
  // The GraphQL case, sent the same POST as Tablo: the body is read and parsed (any server answering it must), nothing more.
  '/graphql': async (_url, req) => {
    const body = (await req.json()) as { query?: unknown };
    if (typeof body.query !== 'string') throw new Error('no query');
    return booksWithAuthors();
  },
  // The same rows for a GET, reading no body (the GraphQL baseline of earlier runs, kept for comparison).
  '/nested-bt': () => booksWithAuthors(),
  '/nested': async () => {
    const books = await run(`SELECT id, author_id, title, score, created_at FROM book ORDER BY id LIMIT ${p(1)}`, [25]);
    const authorIds = [...new Set(books.map((b) => b.author_id))];
    const bookIds = books.map((b) => b.id);
    const ph = (n: number) => Array.from({ length: n }, (_, i) => p(i + 1)).join(', ');
    const [authors, reviews] = await Promise.all([
      run(`SELECT id, name FROM author WHERE id IN (${ph(authorIds.length)})`, authorIds),
      run(`SELECT id, body, book_id FROM review WHERE book_id IN (${ph(bookIds.length)}) ORDER BY id`, bookIds),
    ]);
    const a = new Map(authors.map((x) => [x.id, x]));
    return books.map((b) => ({ ...b, AuthorRead: a.get(b.author_id) ?? null, ReviewList: reviews.filter((r) => r.book_id === b.id) }));
  },
};

Bun.serve({
  port: Number(portArg),
  async fetch(req) {
    const url = new URL(req.url);
    const c = cases[url.pathname];
    if (!c) return new Response('not found', { status: 404 });
    return Response.json(await c(url, req));
  },
});
console.log(`baseline ${engine} on ${portArg}`);
