/**
 * REST and GraphQL benchmark (not a test): 1,000,000 books and 1,000,000 purchases in PostgreSQL, SQLite and
 * MariaDB; Tablo against a minimal Bun server running the same SQL with the same driver (baseline-server.ts),
 * measured with wrk on loopback, the targets interleaved case by case. Every read case runs with an editor API
 * token (`xc-token`) and with a session (`xc-auth`); the write cases (create, update, delete one row, insert
 * 1,000 rows) likewise. Prints requests/s, p50 and p99 for each and the ratios Tablo / baseline.
 *
 *   bun scripts/bench/rest.ts [--duration 8] [--connections 16] [--engine pg|sqlite|mysql] [--case <substring>] [--port 18900] [--work /tmp/tablo-bench]
 *   bun scripts/bench/rest.ts --soak 30m [--window 5m]     (PostgreSQL, 90% reads / 10% writes; see soak.ts)
 *   bun scripts/bench/rest.ts --engine pg --platformatic http://127.0.0.1:18950
 *     also runs each case Platformatic DB can serve against a Platformatic DB server over the same PostgreSQL
 *     database, started beforehand (docs/benchmarks.md says how); its rate is printed beside Tablo's.
 * Needs wrk: apt-get install -y wrk
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadMariadb, loadPostgres, loadSqlite } from './dataset';
import { cpuSeconds, ENGINE_NAME, prepareAccess, resetEntries, startServers, trimNewEntries, type Engine } from './bench-setup';
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
    platformatic: { type: 'string' },
  },
});
const WORK = values.work!;
/** A Platformatic DB server over the PostgreSQL bench database, when given (loopback only, as wrk). */
const PLT = values.platformatic?.replace(/\/$/, '');
if (PLT && !PLT.startsWith('http://127.0.0.1:')) throw new Error(`--platformatic stays on loopback: ${PLT}`);
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
  /** Per target (token, baseline, session, Platformatic) its own id range of preloaded `entry` rows, two threads each. */
  const PRELOAD = 150_000;
  const RANGE = [100_000_000, 200_000_000, 300_000_000, ...(PLT ? [400_000_000] : [])];
  const ranges = RANGE.flatMap((r) => [[r, PRELOAD], [r + 10_000_000, PRELOAD]] as [number, number][]);

  /**
   * What Platformatic DB is sent for a case it can serve: a path (its own REST names: singular, camelCase), or a
   * script of its own. Its PUT replaces the row, so W2 sends the NOT NULL title with the score; W4 is its GraphQL
   * insert of many rows (its REST has no bulk insert); D it cannot serve in one request (no nested REST lists).
   */
  type Plt = { path: string; script?: () => string };
  type Case = { name: string; tablo: string; base: string; script?: (target: number, prefix: string) => string | undefined; write?: boolean; grows?: boolean; plt?: Plt };
  const PLT_GRAPHQL = '{ book(limit: 25, orderBy: { field: id, direction: ASC }) { id title score createdAt author { id name } } }';
  const pltGraphqlLua = () => luaScript(WORK, 'plt-graphql', fixedLua('POST', JSON.stringify({ query: PLT_GRAPHQL })));
  const pltBulkLua = () =>
    luaScript(WORK, 'plt-bulk', fixedLua('POST', JSON.stringify({ query: 'mutation ($rows: [EntryInput]!) { insertEntry(inputs: $rows) { id } }', variables: { rows: Array.from({ length: 1000 }, (_, i) => ({ title: `Bulk ${i}`, score: i })) } })));
  const ALL: Case[] = [
    { name: 'A list 25 sorted by key', tablo: '/Book?limit=25', base: '/list', plt: { path: '/book?limit=25&orderby.id=asc' } },
    { name: 'B1 filter on an index, sort -key, offset 10000', tablo: `/Book?limit=25&where=${encodeURIComponent('(Score,lt,50)')}&sort=-Id&offset=10000`, base: '/filtered', plt: { path: '/book?where.score.lt=50&orderby.id=desc&limit=25&offset=10000' } },
    { name: 'B2 status filter, sort -created_at, offset 10000 (index status, created_at)', tablo: `/Purchase?limit=25&where=${encodeURIComponent('(Status,eq,shipped)')}&sort=-CreatedAt&offset=10000`, base: '/status', plt: { path: '/purchase?where.status.eq=shipped&orderby.createdAt=desc&orderby.id=desc&limit=25&offset=10000' } },
    { name: 'C read one row by key', tablo: '/Book/123457', base: '/read?id=123457', plt: { path: '/book/123457' } },
    { name: 'D list 25 with one bt and one hm nested', tablo: '/Book?limit=25&bt=Author&hm=Review', base: '/nested' },
    { name: 'E GraphQL: list 25 with one nested relation', tablo: 'graphql', base: '/graphql', script: () => graphqlLua, plt: { path: '/graphql', script: pltGraphqlLua } },
    { name: 'W1 create one row', tablo: '/Entry', base: '/create', script: () => createLua, write: true, plt: { path: '/entry', script: () => luaScript(WORK, 'plt-create', fixedLua('POST', JSON.stringify({ title: 'New row', score: 5 }))) } },
    { name: 'W2 update one row', tablo: '/Entry/{id}', base: '/update?id={id}', write: true, script: (t, path) => luaScript(WORK, `update${t}`, idLua('PUT', path, 'random', RANGE[t]!, PRELOAD, JSON.stringify({ Score: 7 }))), plt: { path: '/entry/{id}', script: () => luaScript(WORK, 'plt-update', idLua('PUT', '/entry/{id}', 'random', RANGE[3]!, PRELOAD, JSON.stringify({ title: 'Row', score: 7 }))) } },
    { name: 'W3 delete one row', tablo: '/Entry/{id}', base: '/delete?id={id}', write: true, script: (t, path) => luaScript(WORK, `delete${t}`, idLua('DELETE', path, 'seq', RANGE[t]!, PRELOAD)), plt: { path: '/entry/{id}', script: () => luaScript(WORK, 'plt-delete', idLua('DELETE', '/entry/{id}', 'seq', RANGE[3]!, PRELOAD)) } },
    { name: 'W4 insert 1,000 rows', tablo: '/Entry/bulk', base: '/bulk', script: () => bulkLua, write: true, grows: true, plt: { path: '/graphql', script: pltBulkLua } },
  ];
  const CASES = ALL.filter((c) => !values.case || c.name.includes(values.case));

  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(n >= 100 ? 0 : 2) : '-');
  const rows: string[] = [];
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const pltHead = PLT ? ['Platformatic req/s', 'p50', 'p99', 'token ÷ Platformatic'] : [];
  rows.push(line(['engine', 'case', 'token req/s', 'p50', 'p99', 'session req/s', 'p50', 'p99', 'baseline req/s', 'p50', 'p99', 'token ÷ base', 'session ÷ base', 'token ÷ session', 'CPU µs/req token', 'session', 'base', ...pltHead, 'errors']));
  rows.push(line(Array(18 + pltHead.length).fill('---')));
  for (const engine of engines) {
    const pid = access.projects[engine];
    const basePort = servers.basePort[engine];
    if (CASES.some((c) => c.write)) await resetEntries(engine, join(DATA, 'bench.sqlite'), ranges);
    for (const c of CASES) {
      const tabloPrefix = `/nc/${pid}/api/v1`;
      // Platformatic DB (target 3) serves PostgreSQL cases it has a request for.
      const withPlt = !!PLT && engine === 'pg' && !!c.plt;
      /** A measured run, with the CPU time its server process spent per request (µs; NaN for a server not started here). */
      const run = async (target: number, seconds = opts.seconds): Promise<WrkResult & { cpuUs: number }> => {
        const pid = target === 1 ? servers.basePid[engine] : target === 3 ? undefined : servers.tabloPid;
        const cpu0 = pid ? cpuSeconds(pid) : NaN;
        const r = await runWrk(target, seconds);
        return { ...r, cpuUs: pid ? ((cpuSeconds(pid) - cpu0) * 1e6) / Math.max(1, r.rps * seconds) : NaN };
      };
      const runWrk = (target: number, seconds: number): Promise<WrkResult> => {
        const opts2 = { ...opts, seconds };
        if (target === 3) {
          const path = c.plt!.path;
          return wrk(`${PLT}${path.includes('{id}') ? '/' : path}`, { ...opts2, script: c.plt!.script?.() });
        }
        const path = target === 1 ? c.base : `${tabloPrefix}${c.tablo}`;
        const script = c.script?.(target, path);
        const url = (port: number) => `http://127.0.0.1:${port}${path.includes('{id}') ? '/' : path}`;
        if (target === 1) return wrk(url(basePort), { ...opts2, script });
        const headers = [target === 0 ? `xc-token: ${access.tokens[engine]}` : `xc-auth: ${access.session}`];
        if (c.tablo === 'graphql') return wrk(`http://127.0.0.1:${servers.tabloPort}/nc/${pid}/v1/graphql`, { ...opts2, headers, script });
        return wrk(url(servers.tabloPort), { ...opts2, headers, script });
      };
      // A write run leaves requests behind that its server finishes after wrk stops: let them end first.
      // The bulk insert adds millions of rows per run: each target starts on the table as the first found it.
      const settle = async () => {
        if (!c.write) return;
        await Bun.sleep(2000);
        if (c.grows) await trimNewEntries(engine, join(DATA, 'bench.sqlite'), ranges);
      };
      // Warm-up (not measured): the first requests of a shape compile its plan and JIT its code. Writes too
      // (else the first target, the token, pays for it alone), but for the delete, whose measured run must
      // find the rows the warm-up would take.
      const targets = withPlt ? [0, 1, 2, 3] : [0, 1, 2];
      if (!c.name.startsWith('W3')) {
        for (const target of targets) {
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
      const plt = withPlt ? await run(3) : undefined;
      if (plt) await settle();
      const pltCells = PLT ? (plt ? [f(plt.rps), f(plt.p50), f(plt.p99), (tok.rps / plt.rps).toFixed(2)] : ['-', '-', '-', '-']) : [];
      const errors = tok.errors + base.errors + ses.errors + (plt?.errors ?? 0);
      const row = line([ENGINE_NAME[engine], c.name, f(tok.rps), f(tok.p50), f(tok.p99), f(ses.rps), f(ses.p50), f(ses.p99), f(base.rps), f(base.p50), f(base.p99), (tok.rps / base.rps).toFixed(2), (ses.rps / base.rps).toFixed(2), (tok.rps / ses.rps).toFixed(2), f(tok.cpuUs), f(ses.cpuUs), f(base.cpuUs), ...pltCells, String(errors)]);
      console.log(row);
      rows.push(row);
    }
  }
  console.log(`\n${rows.join('\n')}`);
}
