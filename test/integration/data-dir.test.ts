/**
 * The data directory over time: a metadata database written at an older schema version upgrades in
 * place at start with its users, projects, views and API tokens; a data directory moved to another
 * path (restored elsewhere, mounted at /data in a container) still opens its SQLite projects;
 * instances starting together on one shared data directory agree on the keys they generate.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { chmodSync, cpSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testConfig } from '../../src/config/config';
import { boot } from '../../src/boot/boot';
import { createApp } from '../../src/app';
import { memoryLogger } from '../../src/lib/log';
import { META_MIGRATIONS } from '../../migrations/index';
import { loadChinook } from '../helpers/chinook';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));
const tempRoot = () => {
  const r = mkdtempSync(join(tmpdir(), 'tablo-datadir-'));
  roots.push(r);
  return r;
};

/** The app over `dataDir` (SQLite metadata there), with a JSON request helper. */
async function start(dataDir: string) {
  const config = testConfig({ dataDir, jwtSecret: 'test-secret-test-secret-0123456789', metaDb: undefined });
  const booted = await boot(config);
  const app = createApp(config, { ...booted, log: memoryLogger() });
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await app.handle(
      new Request(`http://localhost${path}`, { method, headers: { 'content-type': 'application/json', 'xc-gui': 'true', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) }),
    );
    return { status: res.status, body: (await res.json()) as any };
  };
  const op = (token: string, api: string, projectId?: string, args: unknown = {}) => call('POST', '/dashboard', { api, project_id: projectId, args }, { 'xc-auth': token });
  return { call, op, stop: async () => (await app.close(), await booted.meta.close()) };
}

/** A data directory with a user, a project over a Chinook file in it, an embedded project, a saved view and an API token. */
async function seed(dataDir: string) {
  const chinook = await loadChinook('sqlite', 'tablo_t_datadir');
  cpSync(chinook.connection.filename!, join(dataDir, 'chinook.sqlite'));
  const a = await start(dataDir);
  try {
    const token = (await a.call('POST', '/auth/signup', { email: 'old@example.com', password: 'old-password1' })).body.token as string;
    const file = await a.op(token, 'projectCreateByWeb', undefined, { title: 'Music', db: { client: 'sqlite', connection: { filename: 'chinook.sqlite' } } });
    expect(file.status).toBe(200);
    const embedded = await a.op(token, 'projectCreateByWeb', undefined, { title: 'Embedded' });
    expect(embedded.status).toBe(200);
    const view = await a.op(token, 'xcVirtualTableCreate', file.body.id, { tn: 'Customer', title: 'Brazil', type: 'grid', query_params: { where: '(Country,eq,Brazil)' } });
    expect(view.status).toBe(200);
    const apiToken = (await a.op(token, 'xcApiTokenCreate', file.body.id, { description: 'reports', role: 'editor' })).body.token as string;
    return { projectId: file.body.id as string, embeddedId: embedded.body.id as string, apiToken };
  } finally {
    await a.stop();
  }
}

/** Everything seed() made is there and works. */
async function expectSeeded(dataDir: string, s: Awaited<ReturnType<typeof seed>>, views: string[]) {
  const b = await start(dataDir);
  try {
    const signin = await b.call('POST', '/auth/signin', { email: 'old@example.com', password: 'old-password1' });
    expect(signin.status).toBe(200);
    const token = signin.body.token as string;
    const listed = await b.call('GET', '/nc/' + s.projectId + '/api/v1/Customer?limit=1&fields=CustomerId', undefined, { 'xc-token': s.apiToken });
    expect(listed).toEqual({ status: 200, body: [{ CustomerId: 1 }] });
    const viewList = await b.op(token, 'xcVirtualTableList', s.projectId, { tn: 'Customer' });
    expect(viewList.status).toBe(200);
    expect(viewList.body.data.list.map((v: { title: string }) => v.title)).toEqual(views);
    expect((await b.op(token, 'tableList', s.embeddedId)).status).toBe(200);
  } finally {
    await b.stop();
  }
}

describe('the data directory', () => {
  test('a SQLite project file in the data directory still opens after the data directory moves', async () => {
    const root = tempRoot();
    const s = await seed(join(root, 'data'));
    renameSync(join(root, 'data'), join(root, 'moved'));
    await expectSeeded(join(root, 'moved'), s, ['Grid view', 'Brazil']);
  }, 60_000);

  /**
   * Takes a current metadata database back to schema version `version`: the later migrations only
   * add tables, indexes and columns (0005, 0013), so removing those gives that version's schema.
   */
  function downgrade(file: string, version: number) {
    const db = new Database(file);
    const later = META_MIGRATIONS.filter((m) => m.version > version).map((m) => m.sql).join('\n');
    const dropped = new Set<string>();
    for (const [, table] of later.matchAll(/CREATE TABLE (\w+)/g)) {
      db.exec(`DROP TABLE ${table}`);
      dropped.add(table!);
    }
    for (const [, index] of later.matchAll(/CREATE (?:UNIQUE )?INDEX (\w+)/g)) db.exec(`DROP INDEX IF EXISTS ${index}`);
    // A column added later to a table that is itself later (0013 on 0011's nc_comments) went with its table.
    for (const [, table, column] of later.matchAll(/ALTER TABLE (\w+) ADD COLUMN (\w+)/g)) if (!dropped.has(table!)) db.exec(`ALTER TABLE ${table} DROP COLUMN ${column}`);
    db.run('DELETE FROM nc_meta_migrations WHERE version > ?', [version]);
    db.close();
  }

  for (const [version, views] of [
    [6, ['Grid view', 'Brazil']],
    [4, ['Grid view']],
  ] as const) {
    test(`a metadata database at schema version ${version} upgrades in place, keeping users, projects, views and tokens`, async () => {
      const dataDir = join(tempRoot(), 'data');
      const s = await seed(dataDir);
      downgrade(join(dataDir, 'tablo.db'), version);
      await expectSeeded(dataDir, s, [...views]);
      const db = new Database(join(dataDir, 'tablo.db'), { readonly: true });
      const applied = db.query('SELECT version FROM nc_meta_migrations ORDER BY version').all() as { version: number }[];
      expect(applied.map((r) => r.version)).toEqual(META_MIGRATIONS.map((m) => m.version));
      // A token made by a user stays a user's token (0005 marks only tokens without a maker as the master key's).
      expect(db.query('SELECT by_master FROM nc_api_tokens').all()).toEqual([{ by_master: 0 }]);
      db.close();
    }, 60_000);
  }
});

test('instances starting together on one fresh shared data directory (NC_DB) all use the keys left on disk', async () => {
  const secrets = join(import.meta.dir, '../../src/boot/secrets.ts');
  // Each process says it is ready, waits for `go`, then loads the keys: six instances reach the empty keys folder at once.
  const child = `import { existsSync, writeFileSync } from 'node:fs'; import { loadSecrets } from ${JSON.stringify(secrets)};
    const [dir, go, ready] = process.argv.slice(-3); writeFileSync(ready, ''); while (!existsSync(go)) {}
    process.stdout.write(JSON.stringify(loadSecrets(dir)));`;
  for (let round = 0; round < 5; round++) {
    const dataDir = tempRoot();
    const [go, ready] = [join(dataDir, 'go'), join(dataDir, 'ready')];
    const procs = Array.from({ length: 6 }, (_, i) => Bun.spawn(['bun', '-e', child, dataDir, go, `${ready}-${i}`], { stdout: 'pipe', stderr: 'inherit' }));
    while (readdirSync(dataDir).filter((f) => f.startsWith('ready-')).length < procs.length) await Bun.sleep(20);
    writeFileSync(go, '');
    const seen = await Promise.all(procs.map((p) => new Response(p.stdout).text()));
    const onDisk = JSON.stringify({ jwtSecret: (await Bun.file(join(dataDir, 'keys', 'jwt-secret')).text()).trim(), connectionKey: (await Bun.file(join(dataDir, 'keys', 'connection-key')).text()).trim() });
    expect(seen).toEqual(Array(6).fill(onDisk));
    expect(readdirSync(join(dataDir, 'keys')).sort()).toEqual(['connection-key', 'jwt-secret']);
  }
}, 60_000);

test('a data directory Tablo makes is readable by its user only (metadata, embedded databases); one given as it is keeps its mode', async () => {
  const made = join(tempRoot(), 'data');
  const fresh = await boot(testConfig({ dataDir: made, metaDb: undefined }));
  await fresh.meta.close();
  expect((statSync(made).mode & 0o777).toString(8)).toBe('700');
  const given = tempRoot();
  chmodSync(given, 0o750);
  const kept = await boot(testConfig({ dataDir: given, metaDb: undefined }));
  await kept.meta.close();
  expect((statSync(given).mode & 0o777).toString(8)).toBe('750');
}, 30_000);

test('a data directory whose key does not open the metadata\'s project connections stops the start with one line saying so (every project answered 500)', async () => {
  const dataDir = tempRoot();
  const a = await start(dataDir);
  try {
    const token = (await a.call('POST', '/auth/signup', { email: 'keys@example.com', password: 'password123' })).body.token as string;
    expect((await a.op(token, 'projectCreateByWeb', undefined, { title: 'Sealed' })).status).toBe(200);
  } finally {
    await a.stop();
  }
  // Another key, as on an instance of a shared NC_DB given a data directory of its own, or a keys/ folder lost.
  const keyFile = join(dataDir, 'keys', 'connection-key');
  const original = readFileSync(keyFile, 'utf8');
  writeFileSync(keyFile, Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64') + '\n');
  const config = testConfig({ dataDir, metaDb: undefined });
  const err = await boot(config).then(() => null, (e: Error) => e);
  expect(err?.message).toBe(
    `the key ${keyFile} does not open the project connections kept in the metadata database: start Tablo on the data directory that metadata was made with (NC_DATA_DIR / --data-dir; instances sharing NC_DB share one data directory, and it moves with the metadata)`,
  );
  // Refused without holding the data directory: with its own key back, it starts.
  writeFileSync(keyFile, original);
  const again = await start(dataDir);
  await again.stop();
}, 30_000);
