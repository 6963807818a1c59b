/**
 * The binary the browser tests run: dist/tablo, built when it is missing or older than any file it
 * is built from. Apart from helpers.ts so that the test runner builds it once before the browser
 * suite's shards start (it imports no test framework).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '../..');
const BINARY = join(ROOT, 'dist/tablo');

/** The newest modification time of a file, or of any file below a folder. */
function newestSource(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestSource(join(path, name)));
  return newest;
}

/** What the binary is built from: a change to any of these makes it stale. */
const SOURCES = ['common', 'src', 'web', 'migrations', 'package.json', 'bun.lock', 'scripts/build.ts'];

let building: Promise<string> | null = null;

/** Builds the binary unless it is newer than every file it is built from; one build at a time. */
export function ensureBinary(): Promise<string> {
  building ??= buildIfStale().finally(() => {
    building = null;
  });
  return building;
}

async function buildIfStale(): Promise<string> {
  const stale = !existsSync(BINARY) || SOURCES.some((d) => newestSource(join(ROOT, d)) > statSync(BINARY).mtimeMs);
  if (stale) {
    const proc = Bun.spawn(['bun', 'run', 'build'], { cwd: ROOT, stdout: 'ignore', stderr: 'inherit' });
    if ((await proc.exited) !== 0) throw new Error('bun run build failed');
  }
  return BINARY;
}

