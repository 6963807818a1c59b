/**
 * First page of a 10,000,000-row table (not a test): makes the table `big` in a SQLite file (a
 * recursive CTE) and in PostgreSQL (database tablo_bench, `generate_series`) once, starts Tablo, and
 * times through HTTP on 127.0.0.1:
 *   - REST first page: `GET /Big?limit=25` with an editor API token;
 *   - the grid's first page: what the grid asks when a table opens, `GET /Big?limit=100&offset=0`
 *     with a session and `xc-gui`, sent together with its `/count` (the grid never waits for the count:
 *     its time and answer are printed apart).
 * The first request after the project is opened (cold) and the median / worst of 20 more (warm).
 *
 *   bun scripts/bench/big-table.ts [--rows 10000000] [--engine pg|sqlite] [--port 18990] [--work /tmp/tablo-bench]
 */
import { mkdirSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from 'bun:sqlite';
import postgres from 'postgres';
import { PG } from './dataset';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000000' },
    engine: { type: 'string' },
    port: { type: 'string', default: '18990' },
    work: { type: 'string', default: '/tmp/tablo-bench' },
  },
});
const ROWS = Number(values.rows);
const WORK = values.work!;
const DATA = join(WORK, 'big-data');
mkdirSync(DATA, { recursive: true });
const engines = (['sqlite', 'pg'] as const).filter((e) => !values.engine || values.engine === e);
const ROOT = join(import.meta.dir, '../..');

/** SQLite: 10M rows from a recursive CTE, in one transaction (kept between runs when the count matches). */
function loadSqliteBig(file: string): void {
  const db = new Database(file, { create: true });
  db.exec('PRAGMA journal_mode = WAL');
  const has = db.query("SELECT 1 FROM sqlite_master WHERE name = 'big'").get() && (db.query('SELECT max(id) AS n FROM big').get() as { n: number }).n === ROWS;
  if (!has) {
    const t0 = performance.now();
    console.log(`SQLite: making big (${ROWS.toLocaleString('en')} rows)…`);
    db.exec('DROP TABLE IF EXISTS big');
    db.exec('CREATE TABLE big (id INTEGER PRIMARY KEY, title TEXT NOT NULL, score INTEGER NOT NULL, created_at TEXT NOT NULL)');
    db.exec(`INSERT INTO big (id, title, score, created_at)
      WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${ROWS})
      SELECT n, 'Row ' || n, n % 1000, datetime(1577836800 + n * 60, 'unixepoch') FROM g`);
    console.log(`SQLite: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  db.close();
}

/** PostgreSQL: 10M rows from generate_series in tablo_bench (kept between runs when the count matches). */
async function loadPgBig(): Promise<void> {
  const admin = postgres({ ...PG, database: 'postgres', max: 1, onnotice: () => {} });
  if ((await admin`SELECT 1 FROM pg_database WHERE datname = 'tablo_bench'`).length === 0) await admin.unsafe('CREATE DATABASE tablo_bench');
  await admin.end();
  const sql = postgres({ ...PG, max: 1, onnotice: () => {} });
  const exists = (await sql`SELECT 1 FROM information_schema.tables WHERE table_name = 'big'`).length > 0;
  const max = exists ? (await sql`SELECT max(id)::int AS n FROM big`)[0]!.n : -1;
  if (max !== ROWS) {
    const t0 = performance.now();
    console.log(`PostgreSQL: making big (${ROWS.toLocaleString('en')} rows)…`);
    await sql.unsafe(`
      DROP TABLE IF EXISTS big;
      CREATE TABLE big (id integer NOT NULL, title text NOT NULL, score integer NOT NULL, created_at timestamp NOT NULL);
      INSERT INTO big SELECT g, 'Row ' || g, g % 1000, timestamp '2020-01-01' + (g || ' minutes')::interval FROM generate_series(1, ${ROWS}) g;
      ALTER TABLE big ADD PRIMARY KEY (id);
      ANALYZE big;
    `);
    console.log(`PostgreSQL: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  await sql.end();
}

if (engines.includes('sqlite')) loadSqliteBig(join(WORK, 'big.sqlite'));
if (engines.includes('pg')) await loadPgBig();

const port = Number(values.port);
const dataDir = join(DATA, `run-${Date.now()}`);
mkdirSync(dataDir, { recursive: true });
const tablo = Bun.spawn(['bun', join(ROOT, 'src/main.ts'), '--port', String(port), '--data-dir', dataDir, '--log-requests', 'false'], { stdout: 'ignore', stderr: 'inherit' });
const url = `http://127.0.0.1:${port}`;
try {
  for (let i = 0; ; i++) {
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) break;
    if (i > 600 || tablo.exitCode !== null) throw new Error('Tablo did not start');
    await Bun.sleep(100);
  }
  const api = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, any>>;
  };
  const session = (await api('/auth/signup', { email: 'big@example.com', password: 'benchmark123' })).token as string;
  const auth = { 'xc-auth': session };

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rows: string[] = ['| engine | request | cold ms | warm median ms | warm max ms | rows |', '| --- | --- | --- | --- | --- | --- |'];
  for (const engine of engines) {
    // The SQLite file is copied into the data folder (an embedded project's file lives there).
    if (engine === 'sqlite') {
      const target = join(dataDir, 'big.sqlite');
      if (existsSync(target)) rmSync(target);
      await Bun.write(target, Bun.file(join(WORK, 'big.sqlite')));
    }
    const db = engine === 'pg' ? { client: 'pg', connection: { ...PG } } : { client: 'sqlite', connection: { filename: 'big.sqlite' } };
    const t0 = performance.now();
    const project = await api('/dashboard', { api: 'projectCreateByWeb', args: { title: `Big ${engine}`, db } }, auth);
    const opened = performance.now() - t0;
    const token = (await api('/dashboard', { api: 'xcApiTokenCreate', project_id: project.id, args: { description: 'big table', role: 'editor' } }, auth)).token as string;
    const base = `${url}/nc/${project.id}/api/v1/Big`;
    const timed = async (path: string, headers: Record<string, string>) => {
      const s = performance.now();
      const res = await fetch(`${base}${path}`, { headers });
      const body = (await res.json()) as unknown[];
      if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
      return { ms: performance.now() - s, n: Array.isArray(body) ? body.length : 0 };
    };
    const grid = { ...auth, 'xc-gui': 'true' };
    /** The grid's opening: page and count sent together; the page's time is what the grid waits for. */
    const gridOpen = async () => {
      const count = (async () => {
        const s = performance.now();
        const res = await fetch(`${base}/count`, { headers: grid });
        return { ms: performance.now() - s, status: res.status, body: await res.text() };
      })();
      const page = await timed('?limit=100&offset=0', grid);
      return { page, count: await count };
    };
    const restCold = await timed('?limit=25', { 'xc-token': token });
    const gridCold = await gridOpen();
    const restWarm: number[] = [];
    const gridWarm: number[] = [];
    for (let i = 0; i < 20; i++) {
      restWarm.push((await timed('?limit=25', { 'xc-token': token })).ms);
      gridWarm.push((await timed('?limit=100&offset=0', grid)).ms);
    }
    const name = engine === 'pg' ? 'PostgreSQL' : 'SQLite';
    rows.push(`| ${name} | REST \`GET /Big?limit=25\` (token) | ${restCold.ms.toFixed(1)} | ${median(restWarm).toFixed(1)} | ${Math.max(...restWarm).toFixed(1)} | ${restCold.n} |`);
    rows.push(`| ${name} | grid first page \`?limit=100&offset=0\` (session, xc-gui; count sent with it) | ${gridCold.page.ms.toFixed(1)} | ${median(gridWarm).toFixed(1)} | ${Math.max(...gridWarm).toFixed(1)} | ${gridCold.page.n} |`);
    console.log(`${name}: project opened (introspection) in ${opened.toFixed(0)} ms; the grid's count answered ${gridCold.count.status} ${gridCold.count.body.slice(0, 60)} after ${gridCold.count.ms.toFixed(0)} ms (not waited for)`);
  }
  console.log(`\n${rows.join('\n')}`);
} finally {
  tablo.kill();
  await tablo.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
