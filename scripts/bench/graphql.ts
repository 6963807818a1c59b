/**
 * GraphQL in-process benchmark (not a test): the same reads through REST and GraphQL on a copy of
 * Chinook in SQLite, through app.handle (no network, no wrk), so the figures are Tablo's own time
 * per request: authentication, schema cache, parse/validate, execution, batched loading, JSON.
 * Usage: bun scripts/bench/graphql.ts [iterations=2000]
 * note: graphql-yoga's own request pipeline costs about 80-120 µs per request on the development
 * machine (measured with a one-field schema), which bounds how close GraphQL gets to REST on small reads.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testConfig } from '../../src/config/config';
import { boot } from '../../src/boot/boot';
import { createApp } from '../../src/app';
import { memoryLogger } from '../../src/lib/log';

const ITERATIONS = Number(process.argv[2] ?? 2000);
const CHINOOK = join(import.meta.dir, '../../../shared/datasets/chinook/Chinook_Sqlite.sqlite');

const dataDir = mkdtempSync(join(tmpdir(), 'tablo-bench-gql-'));
copyFileSync(CHINOOK, join(dataDir, 'chinook.sqlite'));
const config = testConfig({ dataDir, jwtSecret: 'bench-secret-bench-secret-0123456789' });
const app = createApp(config, { ...(await boot(config)), log: memoryLogger() });

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await app.handle(new Request(`http://localhost${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) }));
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
};

const token = (await call('POST', '/auth/signup', { email: 'bench@example.com', password: 'password123' })).token as string;
const auth = { 'xc-auth': token };
const project = await call('POST', '/dashboard?q=sqlOp_projectCreateByWeb', { api: 'projectCreateByWeb', args: { title: 'Bench', projectType: 'graphql', db: { client: 'sqlite', connection: { filename: 'chinook.sqlite' } } } }, { ...auth, 'xc-gui': 'true' });

interface Case {
  name: string;
  rest: string;
  graphql: string;
}

const CASES: Case[] = [
  { name: 'list 25', rest: '/Track?limit=25&fields=TrackId,Name,Milliseconds', graphql: '{ TrackList(limit: 25) { TrackId Name Milliseconds } }' },
  { name: 'read one row', rest: '/Track/1?fields=TrackId,Name', graphql: '{ TrackRead(id: "1") { TrackId Name } }' },
  { name: 'list 25 with a belongs-to and a has-many', rest: '/Album?limit=25&fields=AlbumId,Title&bt=Artist&hm=Track&hfields1=TrackId,Name', graphql: '{ AlbumList(limit: 25) { AlbumId Title ArtistRead { ArtistId Name } TrackList { TrackId Name } } }' },
];

async function time(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(200, ITERATIONS); i++) await fn();
  const start = Bun.nanoseconds();
  for (let i = 0; i < ITERATIONS; i++) await fn();
  return (Bun.nanoseconds() - start) / ITERATIONS / 1000;
}

console.log(`| case | REST µs/request | GraphQL µs/request | GraphQL / REST |`);
console.log(`| --- | --- | --- | --- |`);
for (const c of CASES) {
  const restUs = await time(() => call('GET', `/nc/${project.id}/api/v1${c.rest}`, undefined, auth));
  const gqlUs = await time(() => call('POST', `/nc/${project.id}/v1/graphql`, { query: c.graphql }, auth));
  console.log(`| ${c.name} | ${restUs.toFixed(0)} | ${gqlUs.toFixed(0)} | ${(gqlUs / restUs).toFixed(2)} |`);
}
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
