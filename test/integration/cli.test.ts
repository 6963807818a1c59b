/** The command line: --version, --help, a bad setting, and a graceful stop on SIGTERM. */
import { describe, expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAIN = join(import.meta.dir, '../../src/main.ts');
const run = (args: string[], env: Record<string, string> = {}) =>
  Bun.spawnSync(['bun', MAIN, ...args], { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' });

describe('tablo command line', () => {
  test('--version and --help', () => {
    expect(run(['--version']).stdout.toString().trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = run(['--help']).stdout.toString();
    for (const name of ['PORT', 'NC_DATA_DIR', 'NC_AUTH_JWT_SECRET', 'NC_AUTH_ADMIN_SECRET', 'NC_PUBLIC_URL', 'NC_DB_QUERY_LIMIT_MAX']) expect(help).toContain(name);
  });

  test('tablo meta: usage, and NC_DB of another kind is refused naming the setting', () => {
    expect(run(['--help']).stdout.toString()).toContain('tablo meta copy --from');
    const bare = run(['meta']);
    expect(bare.exitCode).toBe(2);
    expect(bare.stderr.toString()).toContain('Usage: tablo meta copy --from');
    expect(run(['meta', 'copy', '--from', 'x']).exitCode).toBe(2);
    const other = run(['--data-dir', mkdtempSync(join(tmpdir(), 'tablo-cli-'))], { NC_DB: 'mysql://root@127.0.0.1/tablo' });
    expect(other.exitCode).toBe(1);
    expect(other.stderr.toString()).toContain('Invalid setting NC_DB');
  }, 30_000);

  test('a bad value stops it with one line naming the setting', () => {
    const flag = run(['--port', 'abc']);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr.toString().trim().split('\n')).toEqual([expect.stringContaining('Invalid setting PORT (--port)')]);
    const env = run([], { NC_COUNT_TIMEOUT_MS: 'soon' });
    expect(env.exitCode).toBe(2);
    expect(env.stderr.toString()).toContain('NC_COUNT_TIMEOUT_MS');
    const unknown = run(['--no-such-flag']);
    expect(unknown.exitCode).toBe(2);
  });

  test('SIGTERM finishes in-flight work and exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tablo-cli-'));
    const port = 30000 + Math.floor(Math.random() * 10000);
    const proc = Bun.spawn(['bun', MAIN, '--port', String(port), '--data-dir', dataDir], { stdout: 'pipe', stderr: 'pipe' });
    let up = false;
    for (let i = 0; i < 100 && !up; i++) {
      up = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok).catch(() => false);
      if (!up) await Bun.sleep(100);
    }
    expect(up).toBe(true);
    // A slow request (sign-up hashes a password) is under way when SIGTERM arrives.
    const inflight = fetch(`http://127.0.0.1:${port}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'first@example.com', password: 'password123' }),
    });
    await Bun.sleep(30);
    proc.kill('SIGTERM');
    const res = await inflight;
    expect(res.status).toBe(200);
    expect((await res.json()).token).toBeString();
    expect(await proc.exited).toBe(0);
    expect(Bun.file(join(dataDir, 'keys', 'jwt-secret')).size).toBeGreaterThan(0);
    const { statSync } = await import('node:fs');
    expect((statSync(join(dataDir, 'keys', 'jwt-secret')).mode & 0o777).toString(8)).toBe('600');
  }, 20_000);
});
