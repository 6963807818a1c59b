/**
 * Webhook benchmark: REST write throughput with 0, 1 and 5 active url hooks on the written table
 * (the ratio to 0 hooks shows what queuing deliveries costs a write), and the delivery lag (write
 * answered -> receiver got the delivery) p50 / p99. One Tablo app in this process (app.handle, no
 * socket for the writes), an embedded SQLite project, a receiver on 127.0.0.1 that answers 200.
 *
 *   bun scripts/bench/hooks.ts [--writes 2000] [--concurrency 16]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { boot } from '../../src/boot/boot';
import { createApp } from '../../src/app';
import { testConfig } from '../../src/config/config';
import { memoryLogger } from '../../src/lib/log';

const { values } = parseArgs({ options: { writes: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '16' } } });
const WRITES = Number(values.writes);
const CONCURRENCY = Number(values.concurrency);

const answered = new Map<string, number>();
const lags: number[] = [];
let received = 0;
/** Distinct deliveries seen: a delivery retried after a time-out may arrive twice (at least once). */
const deliveryIds = new Set<string>();
const receiver = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(req) {
    const body = (await req.json()) as { data: { Title: string } };
    deliveryIds.add(req.headers.get('x-tablo-delivery') ?? '');
    const done = answered.get(body.data.Title);
    if (done !== undefined) lags.push(performance.now() - done);
    received++;
    return new Response('ok');
  },
});

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
  for (let i = 0; i < hooks; i++) await op('xcHookCreate', projectId, { tn: 'events', title: `h${i}`, event: 'after.insert', notification: { type: 'url', url: `http://127.0.0.1:${receiver.port}/h${i}` } });
  answered.clear();
  lags.length = 0;
  received = 0;
  deliveryIds.clear();
  // Warm-up, then the measured writes.
  for (let i = 0; i < 50; i++) await call('POST', `/nc/${projectId}/api/v1/Events`, { Title: `warm-${hooks}-${i}`, N: i }, token);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < WRITES) {
        const i = next++;
        const title = `row-${hooks}-${i}`;
        await call('POST', `/nc/${projectId}/api/v1/Events`, { Title: title, N: i }, token);
        answered.set(title, performance.now());
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const want = 50 * hooks + WRITES * hooks;
  const until = Date.now() + 120_000;
  while (received < want && Date.now() < until) await Bun.sleep(20);
  const burst = { p50: pct(lags, 50), p99: pct(lags, 99) };
  // Steady load: 50 writes a second for 4 seconds, each delivery's lag measured.
  lags.length = 0;
  for (let i = 0; i < 200; i++) {
    const title = `steady-${hooks}-${i}`;
    await call('POST', `/nc/${projectId}/api/v1/Events`, { Title: title, N: i }, token);
    answered.set(title, performance.now());
    await Bun.sleep(20);
  }
  const until2 = Date.now() + 30_000;
  while (received < want + 200 * hooks && Date.now() < until2) await Bun.sleep(20);
  const steady = { p50: pct(lags, 50), p99: pct(lags, 99) };
  const log = (app.ctx.log as ReturnType<typeof memoryLogger>).lines.filter((l) => l.includes('hook'));
  if (log.length) console.log(`case ${hooks}: ${log.length} hook log lines, first: ${log[0]}`);
  await app.close();
  await booted.meta.close();
  rmSync(dataDir, { recursive: true, force: true });
  return { hooks, writesPerSec: WRITES / seconds, delivered: received, distinct: deliveryIds.size, want: want + 200 * hooks, burst, steady };
}

const results = [];
for (const n of [0, 1, 5]) results.push(await runCase(n));
receiver.stop(true);
const base = results[0]!.writesPerSec;
console.log(`writes: ${WRITES}, concurrency: ${CONCURRENCY}`);
console.log('| active url hooks | writes/s | ratio to 0 hooks | delivered | lag p50 / p99 at full write load (ms) | lag p50 / p99 at 50 writes/s (ms) |');
console.log('|---|---|---|---|---|---|');
const ms = (x: { p50: number; p99: number }) => `${x.p50.toFixed(0)} / ${x.p99.toFixed(0)}`;
for (const r of results) {
  console.log(`| ${r.hooks} | ${r.writesPerSec.toFixed(0)} | ${(r.writesPerSec / base).toFixed(2)} | ${r.hooks ? `${r.distinct}/${r.want}${r.delivered > r.distinct ? ` (+${r.delivered - r.distinct} again)` : ''}` : '-'} | ${r.hooks ? ms(r.burst) : '-'} | ${r.hooks ? ms(r.steady) : '-'} |`);
}
