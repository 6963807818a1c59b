/**
 * Realtime delivery under load (not a test): starts Tablo (`bun src/main.ts`) on a free port over a
 * temp data directory with the Chinook SQLite data, opens N websocket clients subscribed to one
 * table, sends W writes per second through the REST API for D seconds, and reports the delivery
 * latency (write sent -> message received by each client, p50/p99), messages delivered, and the
 * server's resident memory before and after.
 *
 *   bun scripts/bench/realtime.ts [--clients 200] [--rate 100] [--seconds 10]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const CLIENTS = arg('clients', 200);
const RATE = arg('rate', 100);
const SECONDS = arg('seconds', 10);

const dir = mkdtempSync(join(tmpdir(), 'tablo-bench-rt-'));
const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
const port = probe.port;
probe.stop(true);
const server = Bun.spawn(['bun', 'src/main.ts', '--port', String(port), '--host', '127.0.0.1', '--data-dir', join(dir, 'data'), '--log-requests', 'false'], { stdout: 'ignore', stderr: 'inherit' });
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 100; i++) {
  try {
    if ((await fetch(`${base}/api/health`)).ok) break;
  } catch {}
  await Bun.sleep(100);
}
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const post = async (path: string, body: unknown, token?: string, method = 'POST') => {
  const res = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', ...(token ? { 'xc-auth': token } : {}) }, body: JSON.stringify(body) });
  return (await res.json()) as any;
};
const token = (await post('/auth/signup', { email: 'bench@example.com', password: 'password123' })).token as string;
await Bun.write(join(dir, 'data', 'chinook.sqlite'), Bun.file(join(import.meta.dir, '../../../shared/datasets/chinook/Chinook_Sqlite.sqlite')));
const projectId = (await post('/dashboard', { api: 'projectCreateByWeb', args: { title: 'Bench', db: { client: 'sqlite', connection: { filename: 'chinook.sqlite' } } } }, token)).id as string;

const latencies: number[] = [];
let delivered = 0;
const sockets: WebSocket[] = [];
await Promise.all(
  Array.from({ length: CLIENTS }, () =>
    new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/realtime?project_id=${projectId}`, ['tablo.realtime', `tablo.jwt.${token}`]);
      ws.onopen = () => ws.send(JSON.stringify({ type: 'subscribe', table: 'Customer' }));
      ws.onmessage = (e) => {
        const m = JSON.parse(String(e.data));
        if (m.type === 'ok') resolve();
        if (m.type === 'rows') {
          const sent = Number(String(m.rows[0]?.Company ?? '').split(':')[1]);
          if (sent) latencies.push(performance.timeOrigin + performance.now() - sent);
          delivered++;
        }
      };
      ws.onerror = () => reject(new Error('socket failed'));
      sockets.push(ws);
    }),
  ),
);
const rssBefore = rss();
console.log(`${CLIENTS} clients subscribed; server RSS ${rssBefore.toFixed(0)} MB; writing ${RATE}/s for ${SECONDS} s`);

const total = RATE * SECONDS;
const started = performance.now();
const writes: Promise<unknown>[] = [];
for (let i = 0; i < total; i++) {
  const due = started + (i * 1000) / RATE;
  const wait = due - performance.now();
  if (wait > 0) await Bun.sleep(wait);
  const id = 1 + (i % 59);
  writes.push(post(`/nc/${projectId}/api/v1/Customer/${id}`, { Company: `bench:${performance.timeOrigin + performance.now()}` }, token, 'PUT'));
}
await Promise.all(writes);
await Bun.sleep(1500);
const rssAfter = rss();
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
console.log(`writes: ${total}; messages delivered: ${delivered} of ${total * CLIENTS} expected`);
console.log(`delivery latency: p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`);
console.log(`server RSS: ${rssBefore.toFixed(0)} MB with the clients open, ${rssAfter.toFixed(0)} MB after the writes`);
for (const ws of sockets) ws.close();
server.kill('SIGTERM');
await server.exited;
rmSync(dir, { recursive: true, force: true });
