/**
 * Scale-out benchmark (not a test): Tablo instances sharing one PostgreSQL metadata store.
 *
 *   bun scripts/bench/scale-out.ts [--duration 8] [--connections 16] [--samples 300]
 *   (needs wrk; the load-balanced rows need caddy: apt-get install -y wrk caddy)
 *
 * 1. Read throughput of one instance against two, with wrk on loopback (`GET .../Tasks?limit=25`,
 *    an embedded SQLite project of 1,000 rows, a signed-in owner): directly (one wrk per instance,
 *    connections split, rates summed) and through Caddy (round-robin to one or two upstreams).
 * 2. Invalidation lag: (a) transport: a publish on one store until another store's subscriber
 *    has it (LISTEN/NOTIFY round trip, `--samples` times); (b) end to end: a rights change answered
 *    by instance A until instance B answers with the new rights (B polled every 2 ms).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freshMetaDb } from '../../test/helpers/meta-db';
import { startInstance, type Instance } from '../../test/helpers/instances';
import { openPgMetaStore } from '../../src/meta/pg-store';
import { invalidation } from '../../src/meta/invalidation';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '8' }, connections: { type: 'string', default: '16' }, samples: { type: 'string', default: '300' } } });
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const SAMPLES = Number(values.samples);
if (!Bun.which('wrk')) {
  console.error('wrk is needed: apt-get install -y wrk');
  process.exit(2);
}

const meta = await freshMetaDb('bench');
const dataDir = mkdtempSync(join(tmpdir(), 'tablo-bench-scale-'));
const cleanup: Array<() => Promise<unknown> | unknown> = [];
const a = await startInstance({ dataDir, metaDb: meta.url });
const b = await startInstance({ dataDir, metaDb: meta.url });
cleanup.push(() => a.stop(), () => b.stop());

try {
  const owner = (await a.call('POST', '/auth/signup', { body: { email: 'bench@example.com', password: 'benchmark123' } })).body.token as string;
  let projectId = '';
  const op = async (on: Instance, api: string, args: unknown, plus = false) => {
    const res = await on.call('POST', `/dashboard?q=${plus ? 'sqlOpPlus' : 'sqlOp'}_${api}`, { body: { api, project_id: projectId || undefined, args }, headers: { 'xc-gui': 'true', 'xc-auth': owner } });
    if (res.status !== 200) throw new Error(`${api}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  projectId = (await op(a, 'projectCreateByWeb', { title: 'Bench' })).id;
  await op(a, 'tableCreate', { tn: 'task', _tn: 'Tasks' }, true);
  const rows = Array.from({ length: 1000 }, (_, i) => ({ title: `Task ${i}` }));
  for (let i = 0; i < rows.length; i += 250) {
    const r = await a.call('POST', `/nc/${projectId}/api/v1/Tasks/bulk`, { body: rows.slice(i, i + 250), headers: { 'xc-auth': owner } });
    if (r.status !== 200) throw new Error(`bulk: ${r.status} ${JSON.stringify(r.body)}`);
  }
  const path = `/nc/${projectId}/api/v1/Tasks?limit=25`;
  for (const on of [a, b]) if ((await on.call('GET', path, { headers: { 'xc-auth': owner } })).status !== 200) throw new Error('read failed');

  /** One wrk run; answers requests/s and p99 ms. */
  const wrk = async (url: string, connections: number, threads: number) => {
    const p = Bun.spawn(['wrk', `-t${threads}`, `-c${connections}`, `-d${DURATION}s`, '--latency', '-H', `xc-auth: ${owner}`, url], { stdout: 'pipe', stderr: 'pipe' });
    const out = await new Response(p.stdout).text();
    await p.exited;
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
    const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(out);
    const ms = p99 ? Number(p99[1]) * (p99[2] === 'us' ? 0.001 : p99[2] === 's' ? 1000 : 1) : NaN;
    if (/Non-2xx/.test(out)) throw new Error(`wrk saw errors:\n${out}`);
    return { rps, p99: ms };
  };

  const results: string[] = ['| setup | req/s | p99 ms |', '| --- | --- | --- |'];
  const one = await wrk(a.url + path, CONNECTIONS, 2);
  results.push(`| one instance, direct | ${one.rps.toFixed(0)} | ${one.p99.toFixed(2)} |`);
  const [x, y] = await Promise.all([wrk(a.url + path, CONNECTIONS / 2, 1), wrk(b.url + path, CONNECTIONS / 2, 1)]);
  const two = x.rps + y.rps;
  results.push(`| two instances, direct (one wrk each, summed) | ${two.toFixed(0)} | ${Math.max(x.p99, y.p99).toFixed(2)} |`);
  let viaCaddy = '';
  if (Bun.which('caddy')) {
    const caddy = async (upstreams: Instance[]) => {
      // A free port: bound by a throw-away listener, then released for Caddy.
      const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
      const port = probe.port;
      probe.stop(true);
      const dir = mkdtempSync(join(tmpdir(), 'tablo-caddy-'));
      const file = join(dir, 'Caddyfile');
      writeFileSync(file, `{\n\tadmin off\n\tauto_https off\n}\n:${port} {\n\treverse_proxy ${upstreams.map((u) => `127.0.0.1:${u.port}`).join(' ')} {\n\t\tlb_policy round_robin\n\t}\n}\n`);
      const p = Bun.spawn(['caddy', 'run', '--config', file, '--adapter', 'caddyfile'], { stdout: 'ignore', stderr: 'ignore' });
      for (let i = 0; i < 50 && !(await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok).catch(() => false)); i++) await Bun.sleep(100);
      try {
        return await wrk(`http://127.0.0.1:${port}${path}`, CONNECTIONS, 2);
      } finally {
        p.kill();
        await p.exited;
        rmSync(dir, { recursive: true, force: true });
      }
    };
    const c1 = await caddy([a]);
    const c2 = await caddy([a, b]);
    results.push(`| one instance behind Caddy | ${c1.rps.toFixed(0)} | ${c1.p99.toFixed(2)} |`);
    results.push(`| two instances behind Caddy | ${c2.rps.toFixed(0)} | ${c2.p99.toFixed(2)} |`);
    viaCaddy = `, behind Caddy ${(c2.rps / c1.rps).toFixed(2)}`;
  }
  console.log(results.join('\n'));
  console.log(`\nthroughput two / one: direct ${(two / one.rps).toFixed(2)}${viaCaddy}`);

  // 2a. Transport lag: publish on one store, received by another store's subscriber.
  const s1 = openPgMetaStore(meta.url);
  const s2 = openPgMetaStore(meta.url);
  cleanup.push(() => s1.close(), () => s2.close());
  await Promise.all([invalidation(s1).ready, invalidation(s2).ready]);
  const waiting = new Map<string, (t: number) => void>();
  invalidation(s2).subscribe('bench', (key) => waiting.get(key)?.(performance.now()));
  const transport: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const key = `k${i}`;
    const got = new Promise<number>((resolve) => waiting.set(key, resolve));
    const t0 = performance.now();
    await invalidation(s1).publish('bench', key);
    transport.push((await got) - t0);
  }

  // 2b. End to end: a rights change through A until B answers with it.
  const token = (await op(a, 'xcApiTokenCreate', { description: 'bench', role: 'viewer' })).token as string;
  const endToEnd: number[] = [];
  const rounds = Math.min(60, SAMPLES);
  for (let i = 0; i < rounds; i++) {
    const deny = i % 2 === 0;
    await op(a, 'aclSave', { tn: 'task', role: 'viewer', rule: deny ? { read: false, create: false, update: false, delete: false, where: null } : null });
    const t0 = performance.now();
    const want = deny ? 403 : 200;
    while ((await fetch(b.url + path, { headers: { 'xc-token': token } })).status !== want) await Bun.sleep(2);
    endToEnd.push(performance.now() - t0);
  }
  const pct = (xs: number[], p: number) => [...xs].sort((m, n) => m - n)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
  console.log(`\ninvalidation lag, transport (${SAMPLES} publishes): p50 ${pct(transport, 50).toFixed(2)} ms, p99 ${pct(transport, 99).toFixed(2)} ms, max ${Math.max(...transport).toFixed(2)} ms`);
  console.log(`invalidation lag, end to end (${rounds} rights changes, B polled every 2 ms): p50 ${pct(endToEnd, 50).toFixed(2)} ms, p99 ${pct(endToEnd, 99).toFixed(2)} ms, max ${Math.max(...endToEnd).toFixed(2)} ms`);
} finally {
  for (const c of cleanup.reverse()) await c();
  await meta.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
