/**
 * In-process profile of the REST and GraphQL hot paths (not a test): the cases of rest.ts through
 * app.handle (no network, no wrk), so the figures are Tablo's own time per request next to the time of
 * the bare SQL with the same driver (on SQLite a copy of the bench file; PostgreSQL and MariaDB: the
 * bench databases of rest.ts, loaded when missing).
 *
 *   bun scripts/bench/profile.ts [--engine sqlite|pg|mysql] [--iterations 3000] [--case <regular expression>]
 *   bun --cpu-prof-md scripts/bench/profile.ts --case GraphQL      (CPU profile as Markdown)
 *   bun scripts/bench/profile.ts --case W                           (the write cases W1-W4 of rest.ts)
 *   bun scripts/bench/profile.ts --token                            (as an editor API token, as rest.ts calls; default: the owner's session)
 *   bun --cpu-prof-md scripts/bench/profile.ts --only tablo         (Tablo's side alone, for a profile without the bare SQL in it)
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from 'bun:sqlite';
import postgres from 'postgres';
import mysql from 'mysql2/promise';
import { testConfig } from '../../src/config/config';
import { boot } from '../../src/boot/boot';
import { createApp } from '../../src/app';
import { memoryLogger } from '../../src/lib/log';
import { loadMariadb, loadPostgres, loadSqlite, MY, PG } from './dataset';

const { values } = parseArgs({ options: { iterations: { type: 'string', default: '3000' }, case: { type: 'string' }, work: { type: 'string', default: '/tmp/tablo-bench' }, token: { type: 'boolean', default: false }, engine: { type: 'string', default: 'sqlite' }, only: { type: 'string' } } });
const ITERATIONS = Number(values.iterations);
const ENGINE = values.engine as 'sqlite' | 'pg' | 'mysql';
if (!['sqlite', 'pg', 'mysql'].includes(ENGINE)) throw new Error(`--engine: sqlite, pg or mysql, not ${ENGINE}`);
const SOURCE = join(values.work!, 'data/bench.sqlite');
mkdirSync(join(values.work!, 'data'), { recursive: true });
if (ENGINE === 'sqlite' && !existsSync(SOURCE)) loadSqlite(SOURCE);
if (ENGINE === 'pg') await loadPostgres();
if (ENGINE === 'mysql') await loadMariadb();

const dataDir = mkdtempSync(join(tmpdir(), 'tablo-profile-'));
if (ENGINE === 'sqlite') copyFileSync(SOURCE, join(dataDir, 'bench.sqlite'));
const config = testConfig({ dataDir, jwtSecret: 'bench-secret-bench-secret-0123456789' });
const app = createApp(config, { ...(await boot(config)), log: memoryLogger() });

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await app.handle(new Request(`http://localhost${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) }));
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
};

const token = (await call('POST', '/auth/signup', { email: 'bench@example.com', password: 'benchmark123' })).token as string;
const session = { 'xc-auth': token };
const connection = { sqlite: { client: 'sqlite', connection: { filename: 'bench.sqlite' } }, pg: { client: 'pg', connection: PG }, mysql: { client: 'mysql', connection: MY } }[ENGINE];
const project = await call('POST', '/dashboard', { api: 'projectCreateByWeb', args: { title: `Bench ${ENGINE}`, db: connection } }, session);
const auth = values.token
  ? { 'xc-token': (await call('POST', '/dashboard', { api: 'xcApiTokenCreate', project_id: project.id, args: { description: 'profile', role: 'editor' } }, session)).token as string }
  : session;
const base = `/nc/${project.id}/api/v1`;

// The baseline's SQL, run with the same driver the way baseline-server.ts runs it (one connection: the calls come one after the other).
type Row = Record<string, unknown>;
let run: (sql: string, params: unknown[]) => Row[] | Promise<Row[]>;
let close: () => unknown;
if (ENGINE === 'sqlite') {
  const db = new Database(join(dataDir, 'bench.sqlite'));
  run = (sql, params) => db.query(sql).all(...(params as never[])) as Row[];
  close = () => db.close();
} else if (ENGINE === 'pg') {
  const sql = postgres({ ...PG, max: 1, onnotice: () => {} });
  run = async (text, params) => [...(await sql.unsafe(text, params as never[], { prepare: true }))];
  close = () => sql.end();
} else {
  const pool = mysql.createPool({ ...MY, connectionLimit: 1, supportBigNumbers: true, bigNumberStrings: true, dateStrings: true, charset: 'utf8mb4' });
  run = async (text, params) => {
    const [r] = await pool.execute(text, params as never[]);
    return Array.isArray(r) ? (r as Row[]) : [];
  };
  close = () => pool.end();
}
const p = (i: number) => (ENGINE === 'pg' ? `$${i}` : '?');
const ph = (n: number, from = 1) => Array.from({ length: n }, (_, i) => p(i + from)).join(', ');
const books = () => run(`SELECT id, author_id, title, score, created_at FROM book ORDER BY id LIMIT ${p(1)}`, [25]);
// The write cases work on `entry`, emptied first.
await run(ENGINE === 'sqlite' ? 'DELETE FROM entry' : 'TRUNCATE entry', []);
const ENTRY = 'id, title, score, created_at';
let bareUpdateId = 0;
let tabloUpdateId = 0;
const bulkRows = Array.from({ length: 1000 }, (_, i) => ({ Title: `Bulk ${i}`, Score: i }));
const bulkBody = JSON.stringify(bulkRows);
/** Ids of rows made for the delete cases (W3), taken from the end. */
const toDelete: { tablo: number[]; bare: number[] } = { tablo: [], bare: [] };

interface Case {
  name: string;
  tablo: () => Promise<unknown>;
  bare: () => unknown;
}

const gql = '{ BookList(limit: 25) { Id AuthorId Title Score CreatedAt AuthorRead { Id Name } } }';
const gqlBody = JSON.stringify({ query: gql });
const CASES: Case[] = [
  { name: 'list 25 sorted by key', tablo: () => call('GET', `${base}/Book?limit=25`, undefined, auth), bare: async () => JSON.stringify(await books()) },
  {
    name: 'list 25 filtered on an index, desc, offset 10000',
    tablo: () => call('GET', `${base}/Book?limit=25&where=${encodeURIComponent('(Score,lt,50)')}&sort=-Id&offset=10000`, undefined, auth),
    bare: async () => JSON.stringify(await run(`SELECT id, author_id, title, score, created_at FROM book WHERE score < ${p(1)} ORDER BY id DESC LIMIT ${p(2)} OFFSET ${p(3)}`, [50, 25, 10000])),
  },
  { name: 'read one row by key', tablo: () => call('GET', `${base}/Book/123457`, undefined, auth), bare: async () => JSON.stringify((await run(`SELECT id, author_id, title, score, created_at FROM book WHERE id = ${p(1)}`, [123457]))[0]) },
  {
    name: 'list 25 with one bt and one hm nested',
    tablo: () => call('GET', `${base}/Book?limit=25&bt=Author&hm=Review`, undefined, auth),
    bare: async () => {
      const b = await books();
      const a = await run(`SELECT id, name FROM author WHERE id IN (${ph(b.length)})`, [...new Set(b.map((x) => x.author_id))]);
      const r = await run(`SELECT id, body, book_id FROM review WHERE book_id IN (${ph(b.length)}) ORDER BY id`, b.map((x) => x.id));
      return JSON.stringify({ a, r });
    },
  },
  {
    name: 'GraphQL: list 25 with one nested relation',
    tablo: () => call('POST', `/nc/${project.id}/v1/graphql`, { query: gql }, auth),
    bare: async () => {
      // The request's body is read, as the baseline server does.
      if (typeof JSON.parse(gqlBody).query !== 'string') throw new Error('no query');
      const b = await books();
      const ids = [...new Set(b.map((x) => x.author_id))];
      return JSON.stringify({ b, a: await run(`SELECT id, name FROM author WHERE id IN (${ph(ids.length)})`, ids) });
    },
  },
  {
    name: 'W1 create one row',
    tablo: async () => toDelete.tablo.push((await call('POST', `${base}/Entry`, { Title: 'New row', Score: 5 }, auth)).Id),
    bare: async () => {
      const b = JSON.parse('{"Title":"New row","Score":5}');
      const row = (await run(`INSERT INTO entry (title, score) VALUES (${ph(2)}) RETURNING ${ENTRY}`, [b.Title, b.Score]))[0]!;
      toDelete.bare.push(Number(row.id));
      return JSON.stringify(row);
    },
  },
  {
    name: 'W2 update one row',
    tablo: () => call('PUT', `${base}/Entry/${toDelete.tablo[tabloUpdateId++ % toDelete.tablo.length]}`, { Score: 7 }, auth),
    bare: async () => {
      const id = toDelete.bare[bareUpdateId++ % toDelete.bare.length];
      const score = JSON.parse('{"Score":7}').Score;
      // MariaDB has no UPDATE ... RETURNING: the UPDATE, then a SELECT (as baseline-server.ts).
      if (ENGINE !== 'mysql') return JSON.stringify((await run(`UPDATE entry SET score = ${p(1)} WHERE id = ${p(2)} RETURNING ${ENTRY}`, [score, id]))[0]);
      await run('UPDATE entry SET score = ? WHERE id = ?', [score, id]);
      return JSON.stringify((await run(`SELECT ${ENTRY} FROM entry WHERE id = ?`, [id]))[0]);
    },
  },
  {
    // As rest.ts's W2 once a row already holds the value: the database finds nothing to change (no commit to wait for),
    // so the figure is the cost of the road. Without W1 before it (--case W2b) it makes rows of its own.
    name: 'W2b update one row to the value it holds',
    tablo: async () => {
      while (toDelete.tablo.length < 100) toDelete.tablo.push((await call('POST', `${base}/Entry`, { Title: 'New row', Score: 7 }, auth)).Id);
      return call('PUT', `${base}/Entry/${toDelete.tablo[tabloUpdateId++ % 100]}`, { Score: 7 }, auth);
    },
    bare: async () => {
      while (toDelete.bare.length < 100) toDelete.bare.push(Number((await run(`INSERT INTO entry (title, score) VALUES (${ph(2)}) RETURNING id`, ['New row', 7]))[0]!.id));
      const id = toDelete.bare[bareUpdateId++ % 100];
      const score = JSON.parse('{"Score":7}').Score;
      if (ENGINE !== 'mysql') return JSON.stringify((await run(`UPDATE entry SET score = ${p(1)} WHERE id = ${p(2)} RETURNING ${ENTRY}`, [score, id]))[0]);
      await run('UPDATE entry SET score = ? WHERE id = ?', [score, id]);
      return JSON.stringify((await run(`SELECT ${ENTRY} FROM entry WHERE id = ?`, [id]))[0]);
    },
  },
  {
    name: 'W4 insert 1,000 rows',
    tablo: () => call('POST', `${base}/Entry/bulk`, bulkBody, auth),
    bare: async () => {
      const rows = JSON.parse(bulkBody) as { Title: string; Score: number }[];
      return JSON.stringify(await run(`INSERT INTO entry (title, score) VALUES ${rows.map((_, i) => `(${ph(2, 2 * i + 1)})`).join(', ')} RETURNING id`, rows.flatMap((r) => [r.Title, r.Score])));
    },
  },
  {
    name: 'W3 delete one row',
    tablo: () => call('DELETE', `${base}/Entry/${toDelete.tablo.pop()}`, undefined, auth),
    bare: async () => JSON.stringify((await run(`DELETE FROM entry WHERE id = ${p(1)} RETURNING id`, [toDelete.bare.pop()]))[0]),
  },
];

/**
 * µs per call: the best of five rounds, since the machine is shared and other work only adds time;
 * `cpu` is this process's CPU time per call (user + system) in that round: on PostgreSQL and MariaDB
 * the database server's own work is left out, so it is the figure to compare when their latency varies.
 */
async function time(fn: () => unknown): Promise<{ wall: number; cpu: number }> {
  for (let i = 0; i < Math.min(300, ITERATIONS); i++) await fn();
  const round = Math.max(1, Math.floor(ITERATIONS / 5));
  let best = { wall: Infinity, cpu: Infinity };
  for (let r = 0; r < 5; r++) {
    const start = Bun.nanoseconds();
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < round; i++) await fn();
    const wall = (Bun.nanoseconds() - start) / round / 1000;
    const used = process.cpuUsage(cpu0);
    const cpu = (used.user + used.system) / round;
    if (wall < best.wall) best = { wall, cpu };
  }
  return best;
}

console.log('| case | Tablo µs/request | bare SQL + JSON µs | Tablo own µs | Tablo CPU µs | bare CPU µs |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const c of CASES.filter((x) => !values.case || new RegExp(values.case).test(x.name))) {
  const skip = async () => ({ wall: 0, cpu: 0 });
  const t = values.only === 'bare' ? await skip() : await time(c.tablo);
  const b = values.only === 'tablo' ? await skip() : await time(c.bare);
  console.log(`| ${c.name} | ${t.wall.toFixed(0)} | ${b.wall.toFixed(0)} | ${(t.wall - b.wall).toFixed(0)} | ${t.cpu.toFixed(0)} | ${b.cpu.toFixed(0)} |`);
}
await close();
await app.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
