/**
 * REST and GraphQL benchmark (not a test): 1,000,000 books and 1,000,000 purchases in PostgreSQL, SQLite and
 * MariaDB; Tablo against a minimal Bun server running the same SQL with the same driver (baseline-server.ts),
 * measured with wrk on loopback, the targets interleaved case by case. Every read case runs with an editor API
 * token (`xc-token`) and with a session (`xc-auth`); the write cases (create, update, delete one row, insert
 * 1,000 rows) likewise. Prints requests/s, p50 and p99 for each and the ratios Tablo / baseline.
 *
 *   bun scripts/bench/rest.ts [--duration 8] [--connections 16] [--engine pg|sqlite|mysql] [--case <substring>] [--port 18900] [--work /tmp/tablo-bench]
 *   bun scripts/bench/rest.ts --soak 30m [--window 5m]     (PostgreSQL, 90% reads / 10% writes; see soak.ts)
 * Needs wrk: apt-get install -y wrk
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadMariadb, loadPostgres, loadSqlite } from './dataset';
import { ENGINE_NAME, prepareAccess, resetEntries, startServers, type Engine } from './bench-setup';
import { fixedLua, idLua, luaScript, wrk, type WrkResult } from './wrk';
import { runSoak } from './soak';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '16' },
    engine: { type: 'string' },
    case: { type: 'string' },
    port: { type: 'string', default: '18900' },
    soak: { type: 'string' },
    window: { type: 'string', default: '5m' },
    work: { type: 'string', default: '/tmp/tablo-bench' },
  },
});
const WORK = values.work!;
const DATA = join(WORK, 'data');
mkdirSync(DATA, { recursive: true });
if (!Bun.which('wrk')) {
  console.error('wrk is needed: apt-get install -y wrk');
  process.exit(2);
}

const engines = (values.soak ? ['pg'] : (['pg', 'sqlite', 'mysql'] as Engine[]).filter((e) => !values.engine || e === values.engine)) as Engine[];
if (engines.includes('pg')) await loadPostgres();
if (engines.includes('mysql')) await loadMariadb();
if (engines.includes('sqlite')) loadSqlite(join(DATA, 'bench.sqlite'));

const servers = await startServers(Number(values.port), DATA, engines);
try {
  const access = await prepareAccess(servers.tabloPort, engines);
  if (values.soak) {
    await runSoak({ servers, access, dataDir: DATA, work: WORK, soak: values.soak, window: values.window!, connections: Number(values.connections) });
  } else {
    await runCases(access);
  }
} finally {
  servers.stop();
}
process.exit(0);

async function runCases(access: Awaited<ReturnType<typeof prepareAccess>>) {
  const opts = { connections: Number(values.connections), seconds: Number(values.duration) };
  const GRAPHQL = '{ BookList(limit: 25) { Id AuthorId Title Score CreatedAt AuthorRead { Id Name } } }';
  const graphqlLua = luaScript(WORK, 'graphql', fixedLua('POST', JSON.stringify({ query: GRAPHQL })));
  const BULK = JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ Title: `Bulk ${i}`, Score: i })));
  const bulkLua = luaScript(WORK, 'bulk', fixedLua('POST', BULK));
  const createLua = luaScript(WORK, 'create', fixedLua('POST', JSON.stringify({ Title: 'New row', Score: 5 })));
  /** Per target (token, baseline, session) its own id range of preloaded `entry` rows, two threads each. */
  const PRELOAD = 150_000;
  const RANGE = [100_000_000, 200_000_000, 300_000_000];
  const ranges = RANGE.flatMap((r) => [[r, PRELOAD], [r + 10_000_000, PRELOAD]] as [number, number][]);

  type Case = { name: string; tablo: string; base: string; script?: (target: number, prefix: string) => string | undefined; write?: boolean };
  const ALL: Case[] = [
    { name: 'A list 25 sorted by key', tablo: '/Book?limit=25', base: '/list' },
    { name: 'B1 filter on an index, sort -key, offset 10000', tablo: `/Book?limit=25&where=${encodeURIComponent('(Score,lt,50)')}&sort=-Id&offset=10000`, base: '/filtered' },
    { name: 'B2 status filter, sort -created_at, offset 10000 (index status, created_at)', tablo: `/Purchase?limit=25&where=${encodeURIComponent('(Status,eq,shipped)')}&sort=-CreatedAt&offset=10000`, base: '/status' },
    { name: 'C read one row by key', tablo: '/Book/123457', base: '/read?id=123457' },
    { name: 'D list 25 with one bt and one hm nested', tablo: '/Book?limit=25&bt=Author&hm=Review', base: '/nested' },
    { name: 'E GraphQL: list 25 with one nested relation', tablo: 'graphql', base: '/graphql', script: () => graphqlLua },
    { name: 'W1 create one row', tablo: '/Entry', base: '/create', script: () => createLua, write: true },
    { name: 'W2 update one row', tablo: '/Entry/{id}', base: '/update?id={id}', write: true, script: (t, path) => luaScript(WORK, `update${t}`, idLua('PUT', path, 'random', RANGE[t]!, PRELOAD, JSON.stringify({ Score: 7 }))) },
    { name: 'W3 delete one row', tablo: '/Entry/{id}', base: '/delete?id={id}', write: true, script: (t, path) => luaScript(WORK, `delete${t}`, idLua('DELETE', path, 'seq', RANGE[t]!, PRELOAD)) },
    { name: 'W4 insert 1,000 rows', tablo: '/Entry/bulk', base: '/bulk', script: () => bulkLua, write: true },
  ];
  const CASES = ALL.filter((c) => !values.case || c.name.includes(values.case));

  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(n >= 100 ? 0 : 2) : '-');
  const rows: string[] = [];
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  rows.push(line(['engine', 'case', 'token req/s', 'p50', 'p99', 'session req/s', 'p50', 'p99', 'baseline req/s', 'p50', 'p99', 'token ÷ base', 'session ÷ base', 'token ÷ session', 'errors']));
  rows.push(line(Array(15).fill('---')));
  for (const engine of engines) {
    const pid = access.projects[engine];
    const basePort = servers.basePort[engine];
    if (CASES.some((c) => c.write)) await resetEntries(engine, join(DATA, 'bench.sqlite'), ranges);
    for (const c of CASES) {
      const tabloPrefix = `/nc/${pid}/api/v1`;
      const run = (target: number, seconds = opts.seconds): Promise<WrkResult> => {
        const opts2 = { ...opts, seconds };
        const path = target === 1 ? c.base : `${tabloPrefix}${c.tablo}`;
        const script = c.script?.(target, path);
        const url = (port: number) => `http://127.0.0.1:${port}${path.includes('{id}') ? '/' : path}`;
        if (target === 1) return wrk(url(basePort), { ...opts2, script });
        const headers = [target === 0 ? `xc-token: ${access.tokens[engine]}` : `xc-auth: ${access.session}`];
        if (c.tablo === 'graphql') return wrk(`http://127.0.0.1:${servers.tabloPort}/nc/${pid}/v1/graphql`, { ...opts2, headers, script });
        return wrk(url(servers.tabloPort), { ...opts2, headers, script });
      };
      // A write run leaves requests behind that its server finishes after wrk stops: let them end first.
      const settle = () => (c.write ? Bun.sleep(2000) : Promise.resolve());
      // Warm-up (not measured): the first requests of a shape compile its plan and JIT its code. Writes too
      // (else the first target, the token, pays for it alone), but for the delete, whose measured run must
      // find the rows the warm-up would take.
      if (!c.name.startsWith('W3')) {
        for (const target of [0, 1, 2]) {
          await run(target, 1);
          await settle();
        }
      }
      // Interleaved: token, baseline, session.
      const tok = await run(0);
      await settle();
      const base = await run(1);
      await settle();
      const ses = await run(2);
      await settle();
      const row = line([ENGINE_NAME[engine], c.name, f(tok.rps), f(tok.p50), f(tok.p99), f(ses.rps), f(ses.p50), f(ses.p99), f(base.rps), f(base.p50), f(base.p99), (tok.rps / base.rps).toFixed(2), (ses.rps / base.rps).toFixed(2), (tok.rps / ses.rps).toFixed(2), String(tok.errors + base.errors + ses.errors)]);
      console.log(row);
      rows.push(row);
    }
  }
  console.log(`\n${rows.join('\n')}`);
}
