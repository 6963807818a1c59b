/**
 * Builds a real app over a fresh data directory (real bun:sqlite metadata, real migrations) and
 * offers a small request helper around app.handle. No server process, no port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testConfig, type Config } from '../../src/config/config';
import { boot } from '../../src/boot/boot';
import { createApp, type App, type AppDeps } from '../../src/app';
import { memoryLogger } from '../../src/lib/log';
import { hashCheaplyForTests } from '../../src/auth/passwords';
import { META_ON_PG, freshMetaDb } from './meta-db';

export interface TestApp {
  app: App;
  config: Config;
  dataDir: string;
  log: ReturnType<typeof memoryLogger>;
  /** Sends a request; `body` objects are sent as JSON. Answers status, headers and parsed JSON (or text). */
  request(
    method: string,
    path: string,
    opts?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; body: any; text: string }>;
  close(): Promise<void>;
}

/**
 * Passwords of these apps are hashed at argon2id's lowest cost (the same code path; the production
 * cost is checked in test/unit/passwords-cost.test.ts and by every browser test's binary).
 */
hashCheaplyForTests();

export async function makeTestApp(overrides: Partial<Config> = {}, deps: Partial<Pick<AppDeps, 'installTarget'>> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tablo-test-'));
  // TABLO_TEST_META=pg: the metadata lives in a fresh PostgreSQL database, dropped on close
  // (unless the test names its store: `metaDb: undefined` keeps SQLite).
  const metaDb = META_ON_PG && !('metaDb' in overrides) ? await freshMetaDb('app') : undefined;
  const config = testConfig({ dataDir, jwtSecret: 'test-secret-test-secret-0123456789', ...(metaDb ? { metaDb: metaDb.url } : {}), ...overrides });
  const booted = await boot(config);
  const log = memoryLogger();
  const app = createApp(config, { ...booted, log, ...deps });
  return {
    app,
    config,
    dataDir,
    log,
    async request(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      let body: BodyInit | undefined;
      if (opts.body !== undefined) {
        if (typeof opts.body === 'string') body = opts.body;
        else {
          body = JSON.stringify(opts.body);
          headers['content-type'] ??= 'application/json';
        }
      }
      const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
      const text = await res.text();
      let parsed: any = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {}
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    async close() {
      await app.close();
      await booted.meta.close();
      await metaDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
