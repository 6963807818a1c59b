/**
 * Terminal benchmark (not a test): starts Tablo on loopback, signs up the Super Admin and measures
 * over the terminal websocket
 *   - keystroke echo round trip (a byte typed into `cat`, echoed by the tty): p50 / p99;
 *   - line round trip (a line through `cat`: the tty echo and cat's copy): p50 / p99;
 *   - output throughput (`seq` printing ~16 MB, the browser side reading as fast as it can), beside
 *     the same output read straight from a pty in this process (the ceiling);
 *   - memory per open terminal: the server's RSS growth and the shell's own RSS, for 5 terminals
 *     (the per-person limit), and the server's RSS once they are closed again.
 *
 *   bun scripts/bench/terminal.ts [--keys 2000] [--lines 500]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { keys: { type: 'string', default: '2000' }, lines: { type: 'string', default: '500' } } });
const ROOT = join(import.meta.dir, '../..');
const PORT = 18950;
const BASE = `http://127.0.0.1:${PORT}`;
const work = mkdtempSync(join(tmpdir(), 'tablo-bench-term-'));
const home = join(work, 'home');
Bun.spawnSync(['mkdir', '-p', home]);

const tablo = Bun.spawn(['bun', join(ROOT, 'src/main.ts'), '--port', String(PORT), '--host', '127.0.0.1', '--data-dir', join(work, 'data'), '--log-requests', 'false'], {
  env: { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', BUN_RUNTIME_TRANSPILER_CACHE_PATH: join(process.env.HOME ?? home, '.bun/install/cache/@t@') },
  stdout: 'ignore',
  stderr: 'inherit',
});
process.on('exit', () => {
  tablo.kill();
  rmSync(work, { recursive: true, force: true });
});

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const ms = (x: number) => `${x.toFixed(3)} ms`;

for (let i = 0; i < 100 && !(await fetch(`${BASE}/api/health`).then((r) => r.ok).catch(() => false)); i++) await Bun.sleep(100);
const signup = await fetch(`${BASE}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', password: 'password123' }) });
const token = ((await signup.json()) as { token: string }).token;

/** One terminal socket with an output listener. */
async function openTerminal() {
  const ws = new WebSocket(`ws://127.0.0.1:${PORT}/api/terminal/socket?cols=120&rows=40`, { protocols: ['tablo.terminal', `tablo.jwt.${token}`], headers: { Origin: BASE } } as any);
  ws.binaryType = 'arraybuffer';
  const decoder = new TextDecoder();
  const term = { ws, output: '', bytes: 0, pid: 0, countOnly: false, onOutput: null as null | (() => void) };
  ws.onmessage = (e) => {
    if (typeof e.data === 'string') {
      const m = JSON.parse(e.data);
      if (m.type === 'ready') term.pid = m.pid;
      return;
    }
    term.bytes += (e.data as ArrayBuffer).byteLength;
    // While measuring throughput only the tail is read (like a terminal that draws the last screen).
    if (term.countOnly) {
      term.output = (term.output + decoder.decode(new Uint8Array(e.data as ArrayBuffer).subarray(-512))).slice(-1024);
      return;
    }
    term.output += decoder.decode(e.data as ArrayBuffer, { stream: true });
    if (term.output.length > 1_000_000) term.output = term.output.slice(-1000);
    term.onOutput?.();
  };
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error('the terminal socket did not open'));
  });
  while (!term.pid) await Bun.sleep(5);
  return term;
}
type Term = Awaited<ReturnType<typeof openTerminal>>;

/** Sends text and waits until the output (since sending) contains `expect`; answers ms. */
function roundTrip(term: Term, text: string, expect: string): Promise<number> {
  term.output = '';
  return new Promise((resolve) => {
    const started = performance.now();
    term.onOutput = () => {
      if (term.output.includes(expect)) {
        term.onOutput = null;
        resolve(performance.now() - started);
      }
    };
    term.ws.send(new TextEncoder().encode(text));
  });
}

const waitOutput = async (term: Term, pattern: RegExp) => {
  while (!pattern.test(term.output)) await Bun.sleep(5);
};

const t = await openTerminal();
t.ws.send(new TextEncoder().encode('cat\r'));
await Bun.sleep(500);

const keys: number[] = [];
for (let i = 0; i < Number(values.keys); i++) {
  keys.push(await roundTrip(t, 'x', 'x'));
  // A tty line holds 4095 characters: end it now and then (cat prints it back).
  if (i % 500 === 499) await roundTrip(t, '\r', '\n' + 'x'.repeat(500) + '\r\n');
}
const lines: number[] = [];
for (let i = 0; i < Number(values.lines); i++) lines.push(await roundTrip(t, `line-${i}\r`, `line-${i}\r\nline-${i}\r\n`));
console.log(`keystroke echo round trip (${keys.length}): p50 ${ms(pct(keys, 50))}, p99 ${ms(pct(keys, 99))}`);
console.log(`line through cat round trip (${lines.length}): p50 ${ms(pct(lines, 50))}, p99 ${ms(pct(lines, 99))}`);

// Throughput: Ctrl-C ends cat, seq prints ~16 MB.
t.ws.send(new TextEncoder().encode('\x03'));
await Bun.sleep(200);
t.output = '';
const before = t.bytes;
t.countOnly = true;
const started = performance.now();
t.ws.send(new TextEncoder().encode('seq 1 2200000; echo THROUGHPUT-$((1+1))\r'));
await waitOutput(t, /THROUGHPUT-2/);
const seconds = (performance.now() - started) / 1000;
console.log(`output throughput: ${((t.bytes - before) / 1e6 / seconds).toFixed(1)} MB/s (${((t.bytes - before) / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s)`);
t.ws.send(JSON.stringify({ type: 'close' }));

// Baseline: the same output read straight from a pseudo-terminal in this process, no websocket.
{
  let bytes = 0;
  const begun = performance.now();
  const raw = Bun.spawn(['/bin/sh', '-c', 'seq 1 2200000'], { env: { PATH: process.env.PATH! }, terminal: { cols: 120, rows: 40, data: (_t, d) => void (bytes += d.length) } });
  await raw.exited;
  await Bun.sleep(50);
  const secs = (performance.now() - begun) / 1000 - 0.05;
  console.log(`baseline, the pty read directly (no websocket): ${(bytes / 1e6 / secs).toFixed(1)} MB/s`);
}
await Bun.sleep(1500);

// Memory: the server's RSS before and with 5 open terminals, and each shell's own RSS.
Bun.gc(true);
await Bun.sleep(500);
const base = rssKb(tablo.pid);
const five: Term[] = [];
for (let i = 0; i < 5; i++) five.push(await openTerminal());
await Bun.sleep(1500);
const withFive = rssKb(tablo.pid);
const shells = five.map((x) => rssKb(x.pid));
const shellName = readFileSync(`/proc/${five[0]!.pid}/comm`, 'utf8').trim();
for (const x of five) x.ws.send(JSON.stringify({ type: 'close' }));
await Bun.sleep(2500);
const after = rssKb(tablo.pid);
console.log(`server RSS: ${base} kB idle, ${withFive} kB with 5 terminals: ${((withFive - base) / 5).toFixed(0)} kB per terminal; ${after} kB after closing them`);
console.log(`shell (${shellName}) RSS per terminal: ${(shells.reduce((a, b) => a + b, 0) / shells.length / 1024).toFixed(2)} MB`);
process.exit(0);
