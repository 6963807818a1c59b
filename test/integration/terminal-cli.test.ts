/**
 * The terminal switches on the command line (bare `--disable-terminal` and `--terminal`, the
 * start-up line saying whether the terminal is on and why), and a SIGTERM with a terminal open:
 * Tablo exits 0 and ends the shell.
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../e2e/helpers';
import { pidGone, postJson, TermClient } from '../helpers/terminal';

setDefaultTimeout(20_000);
const MAIN = join(import.meta.dir, '../../src/main.ts');

/** Starts `bun src/main.ts` with the flags; answers its URL, output and process. */
async function start(flags: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'tablo-term-cli-'));
  const port = freePort();
  const proc = Bun.spawn(['bun', MAIN, '--port', String(port), '--data-dir', join(dir, 'data'), '--log-requests', 'false', ...flags], {
    // A bare home (no shell start-up files), keeping Bun's transpiler cache of the real one.
    env: { PATH: process.env.PATH, HOME: dir, LANG: 'C.UTF-8', BUN_RUNTIME_TRANSPILER_CACHE_PATH: join(process.env.HOME ?? dir, '.bun/install/cache/@t@') },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let out = '';
  void (async () => {
    for await (const chunk of proc.stdout) out += new TextDecoder().decode(chunk);
  })();
  for (let i = 0; i < 100 && !out.includes('The terminal'); i++) await Bun.sleep(100);
  return { url: `http://127.0.0.1:${port}`, proc, output: () => out, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('terminal switches on the command line', () => {
  test('a bare --disable-terminal turns it off even with --terminal; a bare --terminal turns it on beyond loopback', async () => {
    const off = await start(['--host', '127.0.0.1', '--terminal', '--disable-terminal']);
    const on = await start(['--host', '0.0.0.0', '--terminal']);
    try {
      expect(off.output()).toContain('The terminal is turned off by NC_DISABLE_TERMINAL (--disable-terminal).');
      expect(on.output()).toContain('The terminal is turned on by NC_TERMINAL=1.');
    } finally {
      for (const s of [off, on]) {
        s.proc.kill('SIGTERM');
        await s.proc.exited;
        s.cleanup();
      }
    }
  });

  test('SIGTERM with a terminal open ends its shell and exits 0', async () => {
    const s = await start(['--host', '127.0.0.1']);
    try {
      const token = (await postJson(s.url, '/auth/signup', { email: 'root@example.com', password: 'password123' })).token;
      const c = new TermClient(s.url, token);
      const ready = await c.opened();
      s.proc.kill('SIGTERM');
      expect(await s.proc.exited).toBe(0);
      expect(c.controls).toContainEqual({ type: 'exit', reason: 'Tablo stopped' });
      expect(await pidGone(ready.pid)).toBe(true);
    } finally {
      s.cleanup();
    }
  });
});
