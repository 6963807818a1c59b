/**
 * The soak (`bun scripts/bench/rest.ts --soak 30m [--window 5m]`): PostgreSQL, an editor API token, 90% reads
 * (45% one row by key at a random id, 30% list 25, 10% list 25 with a belongs-to and a has-many, 5% the status
 * filter sorted -created_at) and 10% writes (5% create one row, 5% update a random row) for the whole time, in
 * windows of `--window`; prints per window requests/s, p50, p99, errors and the RSS of the Tablo process, then
 * the last window's rate over the first's (goal >= 0.9, RSS < 256 MB, no errors).
 */
import { join } from 'node:path';
import type { Access, Servers } from './bench-setup';
import { resetEntries, rssMb } from './bench-setup';
import { luaScript, mixLua, wrk } from './wrk';

const seconds = (s: string) => {
  const m = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(s);
  if (!m) throw new Error(`a duration like 30m, 90s or 1h: ${s}`);
  return Math.round(Number(m[1]) * (m[2] === 'h' ? 3600 : m[2] === 'm' ? 60 : 1));
};

export interface SoakOptions {
  servers: Servers;
  access: Access;
  dataDir: string;
  work: string;
  soak: string;
  window: string;
  connections: number;
}

export async function runSoak(o: SoakOptions): Promise<void> {
  const total = seconds(o.soak);
  const window = Math.min(seconds(o.window), total);
  const ENTRIES = 100_000;
  await resetEntries('pg', join(o.dataDir, 'bench.sqlite'), [[1, ENTRIES]], ENTRIES + 1);
  const p = `/nc/${o.access.projects.pg}/api/v1`;
  const script = luaScript(
    o.work,
    'soak',
    mixLua([
      [45, 'GET', `${p}/Book/{id}`, undefined, 1_000_000],
      [30, 'GET', `${p}/Book?limit=25`, undefined, 1],
      [10, 'GET', `${p}/Book?limit=25&bt=Author&hm=Review`, undefined, 1],
      [5, 'GET', `${p}/Purchase?limit=25&where=${encodeURIComponent('(Status,eq,shipped)')}&sort=-CreatedAt&offset=10000`, undefined, 1],
      [5, 'POST', `${p}/Entry`, JSON.stringify({ Title: 'Soak row', Score: 3 }), 1],
      [5, 'PUT', `${p}/Entry/{id}`, JSON.stringify({ Score: 4 }), ENTRIES],
    ]),
  );
  const headers = [`xc-token: ${o.access.tokens.pg}`];
  console.log(`soak: ${total} s on PostgreSQL in windows of ${window} s, ${o.connections} connections; Tablo RSS at start ${rssMb(o.servers.tabloPid).toFixed(0)} MB`);
  console.log('| window | minutes | req/s | p50 ms | p99 ms | errors | Tablo RSS MB |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  const rates: number[] = [];
  let errors = 0;
  let maxRss = 0;
  for (let start = 0, i = 1; start < total; start += window, i++) {
    const len = Math.min(window, total - start);
    const r = await wrk(`http://127.0.0.1:${o.servers.tabloPort}/`, { connections: o.connections, seconds: len, headers, script });
    const rss = rssMb(o.servers.tabloPid);
    maxRss = Math.max(maxRss, rss);
    rates.push(r.rps);
    errors += r.errors;
    console.log(`| ${i} | ${(start / 60).toFixed(0)}-${((start + len) / 60).toFixed(0)} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.errors} | ${rss.toFixed(0)} |`);
  }
  console.log(`\nlast window ÷ first: ${(rates.at(-1)! / rates[0]!).toFixed(2)} (goal >= 0.9); highest RSS ${maxRss.toFixed(0)} MB (goal < 256); errors ${errors}`);
}
