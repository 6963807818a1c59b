/**
 * Terminal test helpers: an app served by serveApp on a free loopback port (as main.ts serves
 * it), a raw upgrade request that reads a refusal's status and `{msg}`, and a small websocket
 * client that collects a terminal's output.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'bun';
import { testConfig, type Config } from '../../src/config/config';
import { boot } from '../../src/boot/boot';
import { createApp, type App, type AppDeps } from '../../src/app';
import { memoryLogger } from '../../src/lib/log';
import { serveApp } from '../../src/http/serve';

export interface ServedApp {
  app: App;
  base: string;
  dataDir: string;
  server: Server<any>;
  log: ReturnType<typeof memoryLogger>;
  close(): Promise<void>;
}

/** Boots an app over a fresh data directory and serves it on 127.0.0.1, port 0. */
export async function serveTestApp(overrides: Partial<Config> = {}, deps: Pick<AppDeps, 'hostEnv' | 'terminal'> = {}): Promise<ServedApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tablo-term-'));
  const config = testConfig({ dataDir, jwtSecret: 'test-secret-test-secret-0123456789', ...overrides });
  const booted = await boot(config);
  const log = memoryLogger();
  const app = createApp(config, { ...booted, log, ...deps });
  const server = serveApp(app, { port: 0, hostname: '127.0.0.1' });
  return {
    app,
    base: `http://127.0.0.1:${server.port}`,
    dataDir,
    server,
    log,
    async close() {
      await app.close();
      server.stop(true);
      await booted.meta.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** POSTs JSON and answers the parsed body. */
export async function postJson(base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return res.json();
}

/** Sends a websocket upgrade request and answers the status and body of the answer. */
export async function rawUpgrade(base: string, opts: { origin?: string; protocols?: string[]; query?: string } = {}) {
  const headers: Record<string, string> = {
    Upgrade: 'websocket',
    Connection: 'Upgrade',
    'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
    'Sec-WebSocket-Version': '13',
  };
  if (opts.origin) headers.Origin = opts.origin;
  if (opts.protocols) headers['Sec-WebSocket-Protocol'] = opts.protocols.join(', ');
  const res = await fetch(`${base}/api/terminal/socket${opts.query ?? ''}`, { headers });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body };
}

/** A terminal opened over the websocket: its output as text, its control messages, and helpers. */
export class TermClient {
  output = '';
  controls: any[] = [];
  closed: { code: number; reason: string } | null = null;
  readonly ws: WebSocket;
  private readonly ready: Promise<void>;

  constructor(base: string, token: string, query = '', origin = base) {
    const url = `${base.replace(/^http/, 'ws')}/api/terminal/socket${query}`;
    this.ws = new WebSocket(url, { protocols: ['tablo.terminal', `tablo.jwt.${token}`], headers: { Origin: origin } } as any);
    this.ws.binaryType = 'arraybuffer';
    const decoder = new TextDecoder();
    this.ws.onmessage = (e) => {
      if (typeof e.data === 'string') this.controls.push(JSON.parse(e.data));
      else this.output += decoder.decode(e.data as ArrayBuffer, { stream: true });
    };
    this.ws.onclose = (e) => (this.closed = { code: e.code, reason: e.reason });
    this.ready = new Promise((resolve, reject) => {
      this.ws.onopen = () => resolve();
      this.ws.onerror = () => reject(new Error('websocket failed'));
    });
  }

  /** Waits for the socket to open and the `ready` message; answers it. */
  async opened(): Promise<{ id: string; pid: number; cwd: string; reattached: boolean }> {
    await this.ready;
    await this.until(() => this.controls.some((c) => c.type === 'ready'), 'ready');
    return this.controls.find((c) => c.type === 'ready');
  }

  /** Types text as keystrokes (binary frame). */
  type(text: string): void {
    this.ws.send(new TextEncoder().encode(text));
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  /** Waits until the output matches; answers the match. */
  async waitFor(pattern: RegExp, what = String(pattern)): Promise<RegExpMatchArray> {
    let m: RegExpMatchArray | null = null;
    await this.until(() => !!(m = this.output.match(pattern)), what);
    return m!;
  }

  /** Polls a condition every 20 ms for up to 10 s. */
  async until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output so far: ${JSON.stringify(this.output.slice(-500))}`);
      await Bun.sleep(20);
    }
  }
}

/** True while a process with this pid exists (signal 0, like `kill -0`). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits up to 5 s for a pid to be gone; answers whether it is. */
export async function pidGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 250 && pidAlive(pid); i++) await Bun.sleep(20);
  return !pidAlive(pid);
}
