/**
 * REST and GraphQL benchmark (not a test): 1,000,000 books in PostgreSQL and SQLite, Tablo against a minimal
 * Bun server running the same SQL with the same driver, both measured with wrk on loopback.
 * Prints requests/s, p50 and p99 for both and the ratio Tablo / baseline (goal: >= 0.7).
 *
 *   bun scripts/bench/rest.ts [--duration 8] [--connections 16] [--engine pg|sqlite] [--case <substring>]   (needs wrk: apt-get install -y wrk)
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadPostgres, loadSqlite } from './dataset';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '8' }, connections: { type: 'string', default: '16' }, engine: { type: 'string' }, case: { type: 'string' } } });
const ROOT = join(import.meta.dir, '../..');
const WORK = '/tmp/tablo-bench';
mkdirSync(join(WORK, 'data'), { recursive: true });

if (!Bun.which('wrk')) {
  console.error('wrk is needed: apt-get install -y wrk');
  process.exit(2);
}

const pg = await loadPostgres();
loadSqlite(join(WORK, 'data', 'bench.sqlite'));

async function waitFor(url: string) {
  for (let i = 0; i < 100; i++) {
    if (await fetch(url).then((r) => r.status < 500).catch(() => false)) return;
    await Bun.sleep(100);
  }
  throw new Error(`${url} did not come up`);
}

const procs: { kill(): void }[] = [];
const tablo = Bun.spawn(['bun', join(ROOT, 'src/main.ts'), '--port', '18900', '--data-dir', join(WORK, 'data'), '--log-requests', 'false'], { stdout: 'ignore', stderr: 'inherit' });
procs.push(tablo);
const pgBase = Bun.spawn(['bun', join(import.meta.dir, 'baseline-server.ts'), '18901', 'pg'], { stdout: 'ignore', stderr: 'inherit' });
const liteBase = Bun.spawn(['bun', join(import.meta.dir, 'baseline-server.ts'), '18902', 'sqlite', join(WORK, 'data', 'bench.sqlite')], { stdout: 'ignore', stderr: 'inherit' });
procs.push(pgBase, liteBase);
process.on('exit', () => procs.forEach((p) => p.kill()));

try {
  await waitFor('http://127.0.0.1:18900/api/health');
  await waitFor('http://127.0.0.1:18901/list');
  await waitFor('http://127.0.0.1:18902/list');

  const api = async (path: string, body?: unknown, token?: string) => {
    const res = await fetch(`http://127.0.0.1:18900${path}`, { method: body ? 'POST' : 'GET', headers: { 'content-type': 'application/json', ...(token ? { 'xc-auth': token } : {}) }, body: body ? JSON.stringify(body) : undefined });
    return res.json() as Promise<any>;
  };
  let auth = await api('/auth/signup', { email: 'bench@example.com', password: 'benchmark123' });
  if (!auth.token) auth = await api('/auth/signin', { email: 'bench@example.com', password: 'benchmark123' });
  const token: string = auth.token;
  const projects = (await api('/dashboard', { api: 'PROJECT_READ_BY_WEB' }, token)).data.list as { id: string; title: string }[];
  const ensure = async (title: string, db: unknown) =>
    projects.find((p) => p.title === title)?.id ?? (await api('/dashboard', { api: 'projectCreateByWeb', args: { title, db } }, token)).id;
  const ids = {
    pg: await ensure('Bench PostgreSQL', { client: 'pg', connection: pg }),
    sqlite: await ensure('Bench SQLite', { client: 'sqlite', connection: { filename: 'bench.sqlite' } }),
  };

  const GRAPHQL = '{ BookList(limit: 25) { Id AuthorId Title Score CreatedAt AuthorRead { Id Name } } }';
  const CASES: { name: string; tablo?: string; graphql?: string; base: string; basePost?: boolean }[] = [
    { name: 'list 25 sorted by key', tablo: '/Book?limit=25', base: '/list' },
    { name: 'list 25 filtered on an index, desc, offset 10000', tablo: `/Book?limit=25&where=${encodeURIComponent('(Score,lt,50)')}&sort=-Id&offset=10000`, base: '/filtered' },
    { name: 'read one row by key', tablo: '/Book/123457', base: '/read?id=123457' },
    { name: 'list 25 with one bt and one hm nested', tablo: '/Book?limit=25&bt=Author&hm=Review', base: '/nested' },
    // The baseline is sent the same POST and reads it; the second row keeps the earlier baseline (a GET, no body read) for comparison.
    { name: 'GraphQL: list 25 with one nested relation', graphql: GRAPHQL, base: '/graphql', basePost: true },
    { name: 'GraphQL, against a baseline sent a GET (no body to read)', graphql: GRAPHQL, base: '/nested-bt', basePost: false },
  ];
  const luaFor = (query: string) => {
    const file = join(WORK, 'graphql.lua');
    require('node:fs').writeFileSync(file, `wrk.method = "POST"\nwrk.body = ${JSON.stringify(JSON.stringify({ query }))}\nwrk.headers["Content-Type"] = "application/json"\n`);
    return file;
  };

  const wrk = async (url: string, headers: string[] = [], script?: string) => {
    const args = ['wrk', '-t2', `-c${values.connections}`, `-d${values.duration}s`, '--latency', ...(script ? ['-s', script] : []), ...headers.flatMap((h) => ['-H', h]), url];
    const out = await new Response(Bun.spawn(args, { stdout: 'pipe' }).stdout).text();
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
    const ms = (label: string) => {
      const m = new RegExp(`${label}\\s+([\\d.]+)(us|ms|s)`).exec(out);
      if (!m) return NaN;
      const v = Number(m[1]);
      return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
    };
    const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
    if (errors) throw new Error(`${url}: ${errors} error responses`);
    return { rps, p50: ms('50%'), p99: ms('99%') };
  };

  const rows: string[] = [];
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  rows.push(line(['engine', 'case', 'Tablo req/s', 'p50 ms', 'p99 ms', 'baseline req/s', 'p50 ms', 'p99 ms', 'ratio']));
  rows.push(line(Array(9).fill('---')));
  for (const [engine, port] of ([['pg', 18901], ['sqlite', 18902]] as const).filter(([e]) => !values.engine || e === values.engine)) {
    for (const c of CASES.filter((x) => !values.case || x.name.includes(values.case))) {
      const t = c.graphql
        ? await wrk(`http://127.0.0.1:18900/nc/${ids[engine]}/v1/graphql`, [`xc-auth: ${token}`], luaFor(c.graphql))
        : await wrk(`http://127.0.0.1:18900/nc/${ids[engine]}/api/v1${c.tablo}`, [`xc-auth: ${token}`]);
      const b = await wrk(`http://127.0.0.1:${port}${c.base}`, [], c.basePost ? luaFor(c.graphql!) : undefined);
      const row = line([engine === 'pg' ? 'PostgreSQL' : 'SQLite', c.name, t.rps.toFixed(0), t.p50.toFixed(2), t.p99.toFixed(2), b.rps.toFixed(0), b.p50.toFixed(2), b.p99.toFixed(2), (t.rps / b.rps).toFixed(2)]);
      console.log(row);
      rows.push(row);
    }
  }
  console.log(`\n${rows.join('\n')}`);
} finally {
  procs.forEach((p) => p.kill());
}
process.exit(0);
