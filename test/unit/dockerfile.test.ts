/**
 * The Dockerfile, read (no Docker daemon needed): its install step has every file `bun install`
 * reads, the image it ships fetches nothing from the network, and the health check (the binary's own
 * `tablo health`, which reads PORT as the server does) asks the port the server listens on.
 */
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '../..');
const dockerfile = await Bun.file(join(ROOT, 'Dockerfile')).text();
const pkg = (await Bun.file(join(ROOT, 'package.json')).json()) as { patchedDependencies?: Record<string, string> };

/** Instructions with their continuation lines joined, comments left out. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

describe('Dockerfile', () => {
  test('the install step has every file bun install reads (the lockfile and the patches package.json names)', () => {
    const install = instructions.findIndex((l) => /^RUN .*bun install/.test(l));
    expect(install).toBeGreaterThan(0);
    // What COPY has put in the build stage before it (sources relative to the build context).
    const copied = instructions
      .slice(0, install)
      .filter((l) => l.startsWith('COPY ') && !l.includes('--from'))
      .flatMap((l) => l.split(/\s+/).slice(1, -1));
    const present = (file: string) => copied.some((src) => src === '.' || src === file || file.startsWith(src.replace(/\/?$/, '/')));
    for (const file of ['package.json', 'bun.lock', ...Object.values(pkg.patchedDependencies ?? {})]) expect(present(file), file).toBe(true);
  });

  test('the image it ships installs nothing from the network (only the build stage reaches npm)', () => {
    const stages = instructions.map((l, i) => (l.startsWith('FROM ') ? i : -1)).filter((i) => i >= 0);
    const runtime = instructions.slice(stages[stages.length - 1]);
    expect(runtime.filter((l) => l.startsWith('RUN ')).join('\n')).not.toMatch(/apt|curl|wget|npm|bun install|pip/);
  });

  test('the health check is the binary itself, which asks the port the server listens on', () => {
    const health = instructions.find((l) => l.startsWith('HEALTHCHECK'))!;
    expect(health).toMatch(/CMD \["\/usr\/local\/bin\/tablo", "health"\]$/);
    // PORT set at `docker run -e PORT=...` moves the server: `tablo health` reads the same PORT.
    expect(instructions.find((l) => l.startsWith('ENV '))).toMatch(/\bPORT=8080\b/);
  });
});
