/**
 * Tablo server processes for scale-out tests and benchmarks: `bun src/main.ts` on a free port
 * (port 0; the port is read from its "listening on" line), with the given data directory and
 * metadata store (none: the embedded SQLite one). Several instances share one NC_DB and one data
 * directory (connection key, files).
 */
import { join } from 'node:path';
import type { Subprocess } from 'bun';

const MAIN = join(import.meta.dir, '../../src/main.ts');

export interface Instance {
  url: string;
  port: number;
  proc: Subprocess;
  /** The last 4,000 characters the process wrote to stderr (why it stopped, if it did). */
  stderr(): string;
  /** Sends a JSON request; answers status and parsed body. */
  call(method: string, path: string, opts?: { body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

/** Starts one instance and waits until it answers /api/health. */
export async function startInstance(opts: { dataDir: string; metaDb?: string; env?: Record<string, string> }): Promise<Instance> {
  const metaDb = opts.metaDb ? ['--meta-db', opts.metaDb] : [];
  const proc = Bun.spawn(['bun', MAIN, '--port', '0', '--host', '127.0.0.1', '--data-dir', opts.dataDir, ...metaDb], {
    env: { ...process.env, NC_AUTH_JWT_SECRET: 'scale-out-secret-0123456789abcdef', NC_LOG_REQUESTS: 'false', ...opts.env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let err = '';
  void (async () => {
    // stderr is drained (the child must never block on a full pipe) and kept for a failed start.
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) err = (err + decoder.decode(chunk)).slice(-4000);
  })();
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('instance did not start within 30 s')), 30_000);
    void (async () => {
      let seen = '';
      let found = false;
      const decoder = new TextDecoder();
      for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
        if (found) continue;
        seen += decoder.decode(chunk);
        const m = /listening on http:\/\/[^:]+:(\d+)/.exec(seen);
        if (m) {
          found = true;
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      }
      if (!found) reject(new Error(`instance exited: ${seen}${err}`));
    })();
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    proc,
    stderr: () => err,
    async call(method, path, o = {}) {
      const res = await fetch(url + path, {
        method,
        headers: { ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(o.headers ?? {}) },
        body: o.body !== undefined ? JSON.stringify(o.body) : undefined,
      });
      const text = await res.text();
      let body: any = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {}
      return { status: res.status, body };
    },
    async stop() {
      proc.kill('SIGTERM');
      await proc.exited;
    },
  };
}

/** Polls `check` every 10 ms until it holds or `ms` have passed; answers the time it took, or null. */
export async function tookUntil(ms: number, check: () => Promise<boolean>): Promise<number | null> {
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    if (await check()) return performance.now() - t0;
    await Bun.sleep(10);
  }
  return (await check()) ? performance.now() - t0 : null;
}
