/**
 * Webhook benchmark: REST write throughput with 0, 1 and 5 active url hooks on the written table
 * (the ratio to 0 hooks shows what queuing and sending deliveries costs writes), and the delivery
 * lag (write answered -> receiver got it) p50 / p99, at full write load and at 50 writes a second.
 * One Tablo app in this process (app.handle, no socket for the writes), an embedded SQLite project,
 * and a receiver on 127.0.0.1 in a process of its own (scripts/bench/hook-receiver.ts).
 *
 * The cases run in turn, `--rounds` times (0, 1, 5, 0, 1, 5, ...), so a busy neighbour on the
 * machine weighs on each alike; writes/s is the median of the rounds, lags are pooled.
 *
 *   bun scripts/bench/hooks.ts [--writes 2000] [--concurrency 16] [--rounds 3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { boot } from '../../src/boot/boot';
import { createApp } from '../../src/app';
import { testConfig } from '../../src/config/config';
import { memoryLogger } from '../../src/lib/log';

const { values } = parseArgs({ options: { writes: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '16' }, rounds: { type: 'string', default: '3' } } });
const WRITES = Number(values.writes);
const CONCURRENCY = Number(values.concurrency);
const ROUNDS = Number(values.rounds);

const receiver = Bun.spawn(['bun', join(import.meta.dir, 'hook-receiver.ts')], { stdout: 'pipe', stderr: 'inherit' });
const port = await (async () => {
  const reader = receiver.stdout.getReader();
  let text = '';
  while (!text.includes('\n')) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the receiver did not start');
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return Number(text.trim());
})();
const rx = `http://127.0.0.1:${port}`;
type Stats = { received: number; distinct: number; arrivals: Record<string, number[]> };
const stats = async () => (await (await fetch(`${rx}/stats`)).json()) as Stats;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};

async function runCase(hooks: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tablo-bench-hooks-'));
  const config = testConfig({ dataDir, jwtSecret: 'bench-secret-bench-secret-0123456789' });
  const booted = await boot(config);
  const app = createApp(config, { ...booted, log: memoryLogger() });
  const call = async (method: string, path: string, body: unknown, token?: string) => {
    const res = await app.handle(new Request(`http://localhost${path}`, { method, headers: { 'content-type': 'application/json', ...(token ? { 'xc-auth': token } : {}) }, body: JSON.stringify(body) }));
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  const token = (await call('POST', '/auth/signup', { email: 'bench@example.com', password: 'password123' })).token;
  const op = (api: string, project_id: string, args: unknown) => call('POST', `/dashboard?q=sqlOp_${api}`, { api, project_id, args }, token);
  const projectId = (await op('projectCreateByWeb', '', { title: 'Bench' })).id;
  await op('tableCreate', projectId, { tn: 'events', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'title', uidt: 'SingleLineText' }, { cn: 'n', uidt: 'Number' }] });
  for (let i = 0; i < hooks; i++) await op('xcHookCreate', projectId, { tn: 'events', title: `h${i}`, event: 'after.insert', notification: { type: 'url', url: `${rx}/h${i}` } });
  await fetch(`${rx}/reset`, { method: 'POST' });
  const answered = new Map<string, number>();
  const write = async (title: string, n: number) => {
    await call('POST', `/nc/${projectId}/api/v1/Events`, { Title: title, N: n }, token);
    answered.set(title, Date.now());
  };
  const lagsOf = (s: Stats, prefix: string) =>
    Object.entries(s.arrivals).filter(([t]) => t.startsWith(prefix)).flatMap(([t, at]) => at.map((x) => x - answered.get(t)!));
  const waitFor = async (count: number) => {
    const until = Date.now() + 120_000;
    while ((await stats()).distinct < count && Date.now() < until) await Bun.sleep(50);
  };
  for (let i = 0; i < 50; i++) await write(`warm-${i}`, i);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < WRITES) {
        const i = next++;
        await write(`full-${i}`, i);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await waitFor((50 + WRITES) * hooks);
  const full = lagsOf(await stats(), 'full-');
  // Steady load: 50 writes a second for 4 seconds.
  for (let i = 0; i < 200; i++) {
    await write(`steady-${i}`, i);
    await Bun.sleep(20);
  }
  await waitFor((250 + WRITES) * hooks);
  const s = await stats();
  const steady = lagsOf(s, 'steady-');
  const retried = await booted.meta.all<{ error: string; n: number }>(`SELECT error, COUNT(*) AS n FROM nc_hook_logs WHERE status <> 'success' GROUP BY error`);
  for (const f of retried) console.log(`${hooks} hooks: ${f.n} attempt(s) failed and were retried: ${f.error}`);
  await app.close();
  await booted.meta.close();
  rmSync(dataDir, { recursive: true, force: true });
  return { hooks, writesPerSec: WRITES / seconds, received: s.received, distinct: s.distinct, want: (250 + WRITES) * hooks, full, steady };
}

const runs: Awaited<ReturnType<typeof runCase>>[] = [];
for (let round = 0; round < ROUNDS; round++) for (const n of [0, 1, 5]) runs.push(await runCase(n));
receiver.kill();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const results = [0, 1, 5].map((hooks) => {
  const mine = runs.filter((r) => r.hooks === hooks);
  return {
    hooks,
    writesPerSec: median(mine.map((r) => r.writesPerSec)),
    each: mine.map((r) => r.writesPerSec.toFixed(0)).join(', '),
    received: mine.reduce((a, r) => a + r.received, 0),
    distinct: mine.reduce((a, r) => a + r.distinct, 0),
    want: mine.reduce((a, r) => a + r.want, 0),
    full: mine.flatMap((r) => r.full),
    steady: mine.flatMap((r) => r.steady),
  };
});
const base = results[0]!.writesPerSec;
const ms = (x: number[]) => `${pct(x, 50).toFixed(0)} / ${pct(x, 99).toFixed(0)}`;
console.log(`writes: ${WRITES} per round, concurrency: ${CONCURRENCY}, rounds: ${ROUNDS}`);
console.log('| active url hooks | writes/s (median; each round) | ratio to 0 hooks | delivered | lag p50 / p99 at full write load (ms) | lag p50 / p99 at 50 writes/s (ms) |');
console.log('|---|---|---|---|---|---|');
for (const r of results) {
  const delivered = `${r.distinct}/${r.want}${r.received > r.distinct ? ` (+${r.received - r.distinct} again)` : ''}`;
  console.log(`| ${r.hooks} | ${r.writesPerSec.toFixed(0)} (${r.each}) | ${(r.writesPerSec / base).toFixed(2)} | ${r.hooks ? delivered : '-'} | ${r.hooks ? ms(r.full) : '-'} | ${r.hooks ? ms(r.steady) : '-'} |`);
}
