/**
 * In-process profile of the REST and GraphQL hot paths (not a test): the five cases of rest.ts on a
 * copy of the bench SQLite file, through app.handle (no network, no wrk), so the figures are Tablo's
 * own time per request next to the time of the bare SQL with the same driver.
 *
 *   bun scripts/bench/profile.ts [--iterations 3000] [--case <substring>]
 *   bun --cpu-prof-md scripts/bench/profile.ts --case GraphQL      (CPU profile as Markdown)
 *   bun scripts/bench/profile.ts --case W                           (the write cases W1-W4 of rest.ts)
 *   bun scripts/bench/profile.ts --token                            (as an editor API token, as rest.ts calls; default: the owner's session)
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from 'bun:sqlite';
import { testConfig } from '../../src/config/config';
import { boot } from '../../src/boot/boot';
import { createApp } from '../../src/app';
import { memoryLogger } from '../../src/lib/log';
import { loadSqlite } from './dataset';

const { values } = parseArgs({ options: { iterations: { type: 'string', default: '3000' }, case: { type: 'string' }, work: { type: 'string', default: '/tmp/tablo-bench' }, token: { type: 'boolean', default: false } } });
const ITERATIONS = Number(values.iterations);
const SOURCE = join(values.work!, 'data/bench.sqlite');
mkdirSync(join(values.work!, 'data'), { recursive: true });
if (!existsSync(SOURCE)) loadSqlite(SOURCE);

const dataDir = mkdtempSync(join(tmpdir(), 'tablo-profile-'));
copyFileSync(SOURCE, join(dataDir, 'bench.sqlite'));
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
const project = await call('POST', '/dashboard', { api: 'projectCreateByWeb', args: { title: 'Bench SQLite', db: { client: 'sqlite', connection: { filename: 'bench.sqlite' } } } }, session);
const auth = values.token
  ? { 'xc-token': (await call('POST', '/dashboard', { api: 'xcApiTokenCreate', project_id: project.id, args: { description: 'profile', role: 'editor' } }, session)).token as string }
  : session;
const base = `/nc/${project.id}/api/v1`;

// The baseline's SQL, run with bun:sqlite the way baseline-server.ts runs it.
const db = new Database(join(dataDir, 'bench.sqlite'), { readonly: true });
const all = (sql: string, params: unknown[]) => db.query(sql).all(...(params as never[])) as Record<string, unknown>[];
const ph = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const books = () => all('SELECT id, author_id, title, score, created_at FROM book ORDER BY id LIMIT ?', [25]);
// The write cases' bare SQL, on a second (writable) connection; `entry` starts empty.
const wdb = new Database(join(dataDir, 'bench.sqlite'));
wdb.exec('DELETE FROM entry');
const ENTRY = 'id, title, score, created_at';
const wall = (sql: string, params: unknown[]) => wdb.query(sql).all(...(params as never[])) as Record<string, unknown>[];
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
  { name: 'list 25 sorted by key', tablo: () => call('GET', `${base}/Book?limit=25`, undefined, auth), bare: () => JSON.stringify(books()) },
  {
    name: 'list 25 filtered on an index, desc, offset 10000',
    tablo: () => call('GET', `${base}/Book?limit=25&where=${encodeURIComponent('(Score,lt,50)')}&sort=-Id&offset=10000`, undefined, auth),
    bare: () => JSON.stringify(all('SELECT id, author_id, title, score, created_at FROM book WHERE score < ? ORDER BY id DESC LIMIT ? OFFSET ?', [50, 25, 10000])),
  },
  { name: 'read one row by key', tablo: () => call('GET', `${base}/Book/123457`, undefined, auth), bare: () => JSON.stringify(all('SELECT id, author_id, title, score, created_at FROM book WHERE id = ?', [123457])[0]) },
  {
    name: 'list 25 with one bt and one hm nested',
    tablo: () => call('GET', `${base}/Book?limit=25&bt=Author&hm=Review`, undefined, auth),
    bare: () => {
      const b = books();
      const a = all(`SELECT id, name FROM author WHERE id IN (${ph(b.length)})`, [...new Set(b.map((x) => x.author_id))]);
      const r = all(`SELECT id, body, book_id FROM review WHERE book_id IN (${ph(b.length)}) ORDER BY id`, b.map((x) => x.id));
      return JSON.stringify({ a, r });
    },
  },
  {
    name: 'GraphQL: list 25 with one nested relation',
    tablo: () => call('POST', `/nc/${project.id}/v1/graphql`, { query: gql }, auth),
    bare: () => {
      // The request's body is read, as the baseline server does.
      if (typeof JSON.parse(gqlBody).query !== 'string') throw new Error('no query');
      const b = books();
      const ids = [...new Set(b.map((x) => x.author_id))];
      return JSON.stringify({ b, a: all(`SELECT id, name FROM author WHERE id IN (${ph(ids.length)})`, ids) });
    },
  },
  {
    name: 'W1 create one row',
    tablo: async () => toDelete.tablo.push((await call('POST', `${base}/Entry`, { Title: 'New row', Score: 5 }, auth)).Id),
    bare: () => {
      const b = JSON.parse('{"Title":"New row","Score":5}');
      const row = wall(`INSERT INTO entry (title, score) VALUES (?, ?) RETURNING ${ENTRY}`, [b.Title, b.Score])[0]!;
      toDelete.bare.push(row.id as number);
      return JSON.stringify(row);
    },
  },
  {
    name: 'W2 update one row',
    tablo: () => call('PUT', `${base}/Entry/${toDelete.tablo[tabloUpdateId++ % toDelete.tablo.length]}`, { Score: 7 }, auth),
    bare: () => JSON.stringify(wall(`UPDATE entry SET score = ? WHERE id = ? RETURNING ${ENTRY}`, [JSON.parse('{"Score":7}').Score, toDelete.bare[bareUpdateId++ % toDelete.bare.length]])[0]),
  },
  {
    name: 'W4 insert 1,000 rows',
    tablo: () => call('POST', `${base}/Entry/bulk`, bulkBody, auth),
    bare: () => {
      const rows = JSON.parse(bulkBody) as { Title: string; Score: number }[];
      return JSON.stringify(wall(`INSERT INTO entry (title, score) VALUES ${rows.map(() => '(?, ?)').join(', ')} RETURNING id`, rows.flatMap((r) => [r.Title, r.Score])));
    },
  },
  {
    name: 'W3 delete one row',
    tablo: () => call('DELETE', `${base}/Entry/${toDelete.tablo.pop()}`, undefined, auth),
    bare: () => JSON.stringify(wall('DELETE FROM entry WHERE id = ? RETURNING id', [toDelete.bare.pop()])[0]),
  },
];

/** µs per call: the best of five rounds, since the machine is shared and other work only adds time. */
async function time(fn: () => unknown): Promise<number> {
  for (let i = 0; i < Math.min(300, ITERATIONS); i++) await fn();
  const round = Math.max(1, Math.floor(ITERATIONS / 5));
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const start = Bun.nanoseconds();
    for (let i = 0; i < round; i++) await fn();
    best = Math.min(best, (Bun.nanoseconds() - start) / round / 1000);
  }
  return best;
}

console.log('| case | Tablo µs/request | bare SQL + JSON µs | Tablo own µs |');
console.log('| --- | --- | --- | --- |');
for (const c of CASES.filter((x) => !values.case || x.name.includes(values.case))) {
  const t = await time(c.tablo);
  const b = await time(c.bare);
  console.log(`| ${c.name} | ${t.toFixed(0)} | ${b.toFixed(0)} | ${(t - b).toFixed(0)} |`);
}
db.close();
await app.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
