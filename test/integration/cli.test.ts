/** The command line: --version, --help, a bad setting, and a graceful stop on SIGTERM. */
import { describe, expect, test } from 'bun:test';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ENV_NAMES, kebab, testConfig } from '../../src/config/config';
import { boot } from '../../src/boot/boot';

const MAIN = join(import.meta.dir, '../../src/main.ts');
const run = (args: string[], env: Record<string, string> = {}, asUser: string[] = []) =>
  Bun.spawnSync([...asUser, 'bun', MAIN, ...args], { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe', timeout: 60_000 });
/** The single line a refused start prints (stdout carries nothing). */
const oneLine = (r: ReturnType<typeof run>) => {
  const lines = r.stderr.toString().trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
};

/** A Tablo started from source on `port`, answering its health check. */
async function startServer(port: number, dataDir: string) {
  const proc = Bun.spawn(['bun', MAIN, '--port', String(port), '--host', '127.0.0.1', '--data-dir', dataDir], { stdout: 'pipe', stderr: 'pipe' });
  for (let i = 0; i < 100; i++) {
    if (await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok).catch(() => false)) return proc;
    if (proc.exitCode !== null) break;
    await Bun.sleep(100);
  }
  proc.kill('SIGKILL');
  throw new Error(`tablo did not start on ${port}: ${await new Response(proc.stderr).text()}`);
}
/** A port nobody listens on right now, chosen by the system (a random one could be taken by a suite running beside). */
const randomPort = () => {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
};

describe('tablo command line', () => {
  test('--version and --help', () => {
    expect(run(['--version']).stdout.toString().trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = run(['--help']).stdout.toString();
    for (const name of ['PORT', 'NC_DATA_DIR', 'NC_AUTH_JWT_SECRET', 'NC_AUTH_ADMIN_SECRET', 'NC_PUBLIC_URL', 'NC_DB_QUERY_LIMIT_MAX']) expect(help).toContain(name);
  });

  test('--help says what every setting does, in aligned columns', () => {
    const lines = run(['--help']).stdout.toString().split('\n');
    const column = lines.find((l) => l.startsWith('  --port'))!.indexOf('HTTP port');
    for (const [key, env] of Object.entries(ENV_NAMES)) {
      const line = lines.find((l) => l.startsWith(`  --${kebab(key)} `));
      expect(line, kebab(key)).toBeDefined();
      expect(line!.indexOf(env), kebab(key)).toBeGreaterThan(0);
      // The meaning starts in the same column for every flag, and is not empty.
      expect(line!.slice(column).trim().length, kebab(key)).toBeGreaterThan(10);
      expect(line![column - 1], kebab(key)).toBe(' ');
    }
  });

  test('a port in use or an address of another machine: one line naming the setting, exit 1', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tablo-cli-'));
    const taken = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    try {
      const inUse = run(['--port', String(taken.port), '--host', '127.0.0.1', '--data-dir', dataDir]);
      expect(inUse.exitCode).toBe(1);
      expect(oneLine(inUse)).toBe(`tablo: cannot listen on 127.0.0.1:${taken.port}: port ${taken.port} is already in use (choose another with PORT or --port)`);
    } finally {
      taken.stop(true);
    }
    const elsewhere = run(['--port', '0', '--data-dir', dataDir], { HOST: '192.0.2.1' });
    expect(elsewhere.exitCode).toBe(1);
    expect(oneLine(elsewhere)).toContain('192.0.2.1 is not an address of this machine (check HOST or --host)');
  }, 120_000);

  test('a port another Tablo serves is in use too: the second stops instead of sharing the port', async () => {
    const port = randomPort();
    const first = await startServer(port, mkdtempSync(join(tmpdir(), 'tablo-cli-')));
    try {
      const second = run(['--port', String(port), '--host', '127.0.0.1', '--data-dir', mkdtempSync(join(tmpdir(), 'tablo-cli-'))]);
      expect(second.exitCode).toBe(1);
      expect(oneLine(second)).toBe(`tablo: cannot listen on 127.0.0.1:${port}: port ${port} is already in use (choose another with PORT or --port)`);
    } finally {
      first.kill('SIGKILL');
      await first.exited;
    }
  }, 60_000);

  test('a data directory that is a file or may not be written: one line naming the setting, exit 1', () => {
    const root = mkdtempSync(join(tmpdir(), 'tablo-cli-'));
    writeFileSync(join(root, 'file'), 'x');
    const file = run(['--data-dir', join(root, 'file')]);
    expect(file.exitCode).toBe(1);
    expect(oneLine(file)).toBe(`tablo: the data directory ${join(root, 'file')} (NC_DATA_DIR / --data-dir) is a file, not a folder`);
    // Permissions do not stop root: the checks then run as nobody.
    const asUser = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
    const locked = join(root, 'locked');
    chmodSync(root, 0o755);
    mkdirSync(join(locked, 'data'), { recursive: true });
    writeFileSync(join(locked, 'data', 'tablo.db'), '');
    if (asUser.length) chownSync(join(locked, 'data'), 65534, 65534);
    chmodSync(join(locked, 'data', 'tablo.db'), 0o444);
    const readOnlyMeta = run(['--data-dir', join(locked, 'data')], {}, asUser);
    expect(readOnlyMeta.exitCode).toBe(1);
    expect(oneLine(readOnlyMeta)).toMatch(/^tablo: the metadata database .*tablo\.db is not writable by this user.*: permission denied$/);
    chmodSync(join(locked, 'data'), 0o555);
    chmodSync(locked, 0o555);
    const readOnly = run(['--data-dir', join(locked, 'data')], {}, asUser);
    expect(readOnly.exitCode).toBe(1);
    expect(oneLine(readOnly)).toMatch(/^tablo: the data directory .*\/data \(NC_DATA_DIR \/ --data-dir\) is not writable by this user.*: permission denied$/);
    const cannotCreate = run(['--data-dir', join(locked, 'new', 'data')], {}, asUser);
    expect(cannotCreate.exitCode).toBe(1);
    expect(oneLine(cannotCreate)).toMatch(/^tablo: cannot create the data directory .*\/new\/data \(NC_DATA_DIR \/ --data-dir\): permission denied$/);
    chmodSync(locked, 0o755);
  }, 120_000);

  test('a file of the data directory left by another user (the lock, a key): one line naming it, exit 1', () => {
    const root = mkdtempSync(join(tmpdir(), 'tablo-cli-'));
    chmodSync(root, 0o755);
    const dataDir = join(root, 'data');
    mkdirSync(join(dataDir, 'keys'), { recursive: true });
    writeFileSync(join(dataDir, 'tablo.db-lock'), '');
    writeFileSync(join(dataDir, 'keys', 'jwt-secret'), 'x'.repeat(48));
    // As root the checks run as nobody, over files nobody owns but the one left by root.
    const asUser = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
    const leftBehind = (file: string, mode: number) => {
      for (const f of ['', 'keys', 'keys/jwt-secret', 'tablo.db-lock']) if (asUser.length) chownSync(join(dataDir, f), 65534, 65534);
      chmodSync(join(dataDir, 'tablo.db-lock'), 0o644);
      chmodSync(join(dataDir, 'keys', 'jwt-secret'), 0o600);
      if (asUser.length) chownSync(join(dataDir, file), 0, 0);
      chmodSync(join(dataDir, file), asUser.length ? mode : 0);
    };
    leftBehind('tablo.db-lock', 0o644);
    const lock = run(['--data-dir', dataDir], {}, asUser);
    expect(lock.exitCode).toBe(1);
    expect(oneLine(lock)).toMatch(/^tablo: \S+\/data\/tablo\.db-lock in the data directory \(NC_DATA_DIR \/ --data-dir\) is not writable by this user.*: permission denied \(was Tablo run as another user\?\)$/);
    leftBehind('keys/jwt-secret', 0o600);
    const key = run(['--data-dir', dataDir], {}, asUser);
    expect(key.exitCode).toBe(1);
    expect(oneLine(key)).toMatch(/^tablo: \S+\/data\/keys\/jwt-secret in the data directory \(NC_DATA_DIR \/ --data-dir\) is not readable by this user.*: permission denied \(was Tablo run as another user\?\)$/);
  }, 60_000);

  test('a metadata file that is not a database, or a connection key cut short: one line naming the file, exit 1', () => {
    const broken = mkdtempSync(join(tmpdir(), 'tablo-cli-'));
    writeFileSync(join(broken, 'tablo.db'), 'not a database, a note left here by mistake\n'.repeat(20));
    const db = run(['--data-dir', broken]);
    expect(db.exitCode).toBe(1);
    expect(oneLine(db)).toBe(`tablo: cannot open the metadata database ${join(broken, 'tablo.db')} (in NC_DATA_DIR / --data-dir): file is not a database`);
    const cut = mkdtempSync(join(tmpdir(), 'tablo-cli-'));
    mkdirSync(join(cut, 'keys'));
    writeFileSync(join(cut, 'keys', 'connection-key'), 'acTHM7hPG9Phsx2od3\n');
    const key = run(['--data-dir', cut]);
    expect(key.exitCode).toBe(1);
    expect(oneLine(key)).toBe(`tablo: ${join(cut, 'keys', 'connection-key')} is not a key Tablo wrote (32 bytes in base64): put back the one from a backup of the data directory`);
  }, 60_000);

  test('a second Tablo on the same data directory is refused while the first serves; once it is gone, even killed, the next starts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tablo-cli-'));
    const [portA, portB] = [randomPort(), randomPort()];
    const first = await startServer(portA, dataDir);
    try {
      const second = run(['--port', String(portB), '--data-dir', dataDir]);
      expect(second.exitCode).toBe(1);
      expect(oneLine(second)).toBe(
        `tablo: another Tablo is already running on the data directory ${dataDir}: stop it first, or give this one another NC_DATA_DIR / --data-dir (several instances share metadata only through NC_DB=postgres://...)`,
      );
      expect((await fetch(`http://127.0.0.1:${portA}/api/health`)).status).toBe(200);
    } finally {
      first.kill('SIGKILL');
      await first.exited;
    }
    const next = await startServer(portB, dataDir);
    next.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  }, 120_000);

  test('tablo meta: usage, and NC_DB of another kind is refused naming the setting', () => {
    expect(run(['--help']).stdout.toString()).toContain('tablo meta copy --from');
    const bare = run(['meta']);
    expect(bare.exitCode).toBe(2);
    expect(bare.stderr.toString()).toContain('Usage: tablo meta copy --from');
    expect(run(['meta', 'copy', '--from', 'x']).exitCode).toBe(2);
    // A bad setting like any other: exit 2, before the data directory is made.
    const dataDir = join(mkdtempSync(join(tmpdir(), 'tablo-cli-')), 'data');
    const other = run(['--data-dir', dataDir], { NC_DB: 'mysql://root@127.0.0.1/tablo' });
    expect(other.exitCode).toBe(2);
    expect(oneLine(other)).toBe('Invalid setting NC_DB (--meta-db): only postgres://user:password@host:5432/database URLs are supported (unset it for the embedded SQLite store)');
    expect(existsSync(dataDir)).toBe(false);
  }, 120_000);

  test('a bad value stops it with one line naming the setting', () => {
    const flag = run(['--port', 'abc']);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr.toString().trim().split('\n')).toEqual([expect.stringContaining('Invalid setting PORT (--port)')]);
    const env = run([], { NC_COUNT_TIMEOUT_MS: 'soon' });
    expect(env.exitCode).toBe(2);
    expect(env.stderr.toString()).toContain('NC_COUNT_TIMEOUT_MS');
    const unknown = run(['--no-such-flag']);
    expect(unknown.exitCode).toBe(2);
    const missing = run(['--port', '--data-dir', 'x']);
    expect(missing.exitCode).toBe(2);
    expect(oneLine(missing)).toBe("tablo: Option '--port' argument is ambiguous. Try --help.");
  });

  test('a negative number after a flag is its value, as with --flag=-5: the setting\'s own check answers', () => {
    for (const [flag, env] of [['--port', 'PORT'], ['--terminal-idle-min', 'NC_TERMINAL_IDLE_MIN'], ['--query-timeout-ms', 'NC_QUERY_TIMEOUT_MS']]) {
      const spaced = run([flag!, '-5', '--data-dir', 'x']);
      const joined = run([`${flag}=-5`, '--data-dir', 'x']);
      expect(spaced.exitCode, flag).toBe(2);
      expect(oneLine(spaced), flag).toStartWith(`Invalid setting ${env} (${flag}): `);
      expect(oneLine(spaced), flag).toBe(oneLine(joined));
    }
    expect(oneLine(run(['--port', '-1.5']))).toBe("Invalid setting PORT (--port): expected a whole number, got '-1.5'");
    // A flag after a flag still is a flag.
    expect(oneLine(run(['--port', '--data-dir', 'x']))).toBe("tablo: Option '--port' argument is ambiguous. Try --help.");
  });

  test('every true/false setting may stand alone as a switch, before another flag or at the end', () => {
    const bare = run(['--allow-signup', '--disable-terminal', '--terminal', '--api-client-allow-private', '--log-requests', 'false', '--version', '--allow-signup']);
    expect(bare.stderr.toString()).toBe('');
    expect(bare.exitCode).toBe(0);
  }, 60_000);

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

  test('SIGTERM with a grid open: its realtime socket is closed as going away (1001), not waited for until the grace period ends', async () => {
    const port = randomPort();
    const proc = await startServer(port, mkdtempSync(join(tmpdir(), 'tablo-cli-')));
    const base = `http://127.0.0.1:${port}`;
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<any>);
    const { token } = await post('/auth/signup', { email: 'first@example.com', password: 'password123' });
    const project = await post('/dashboard?q=sqlOp_projectCreateByWeb', { api: 'projectCreateByWeb', args: { title: 'Open grid' } }, { 'xc-auth': token });
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/realtime?project_id=${project.id}&token=${token}`);
    await new Promise((hello) => ws.addEventListener('message', hello, { once: true }));
    const closed = new Promise<CloseEvent>((done) => ws.addEventListener('close', done, { once: true }));
    proc.kill('SIGTERM');
    const event = await closed;
    expect([event.code, event.reason]).toEqual([1001, 'Server stopping']);
    expect(await proc.exited).toBe(0);
    const log = await new Response(proc.stdout).text() + (await new Response(proc.stderr).text());
    expect(log).toContain('stopped');
    expect(log).not.toContain('grace period over');
  }, 60_000);

  test('tablo health: exit 0 with the answer while the Tablo on PORT is healthy, 1 with a line saying why when none answers', async () => {
    const port = randomPort();
    const proc = await startServer(port, mkdtempSync(join(tmpdir(), 'tablo-cli-')));
    try {
      const healthy = run(['health'], { PORT: String(port), HOST: '127.0.0.1' });
      expect(healthy.exitCode).toBe(0);
      expect(JSON.parse(healthy.stdout.toString())).toMatchObject({ ok: true });
      expect(run(['health', '--port', String(port)]).exitCode).toBe(0);
    } finally {
      proc.kill('SIGTERM');
      await proc.exited;
    }
    // A port that is not one is named as the server names it, not passed on to a failing fetch ('fetch() URL is invalid').
    const bad = run(['health'], { PORT: 'abc' });
    expect(bad.exitCode).toBe(2);
    expect(oneLine(bad)).toBe("tablo health: Invalid setting PORT (--port): expected a whole number, got 'abc'");
    expect(oneLine(run(['health', '--port', '0']))).toBe('tablo health: --port 0 names no port the server listens on: give its port (1 to 65535)');
    const down = run(['health'], { PORT: String(port) });
    expect(down.exitCode).toBe(1);
    expect(oneLine(down)).toStartWith(`tablo health: http://127.0.0.1:${port}/api/health did not answer`);
  }, 60_000);

  test('tablo health finds the server as the server reads its settings: its own flags, an empty PORT, the path of NC_PUBLIC_URL', async () => {
    const port = randomPort();
    const dataDir = mkdtempSync(join(tmpdir(), 'tablo-cli-'));
    const flags = ['--port', String(port), '--host', '127.0.0.1', '--data-dir', dataDir, '--public-url', `http://localhost:${port}/tablo`, '--log-requests'];
    const proc = Bun.spawn(['bun', MAIN, ...flags], { stdout: 'pipe', stderr: 'pipe' });
    try {
      let up = false;
      for (let i = 0; i < 100 && !up; i++) {
        up = await fetch(`http://127.0.0.1:${port}/tablo/api/health`).then((r) => r.ok).catch(() => false);
        if (!up) await Bun.sleep(100);
      }
      expect(up).toBe(true);
      // The server's own command line, given to the check as it is.
      const same = run(['health', ...flags]);
      expect([same.exitCode, same.stderr.toString()]).toEqual([0, '']);
      expect(JSON.parse(same.stdout.toString())).toMatchObject({ ok: true });
      // The same settings from the environment; an empty PORT is unset for the server (8080), and a flag wins over it.
      const fromEnv = run(['health', '--port', String(port)], { PORT: '', HOST: '127.0.0.1', NC_PUBLIC_URL: `http://localhost:${port}/tablo`, NC_DATA_DIR: dataDir });
      expect(fromEnv.exitCode).toBe(0);
    } finally {
      proc.kill('SIGTERM');
      await proc.exited;
    }
    const down = run(['health', ...flags]);
    expect(down.exitCode).toBe(1);
    expect(oneLine(down)).toStartWith(`tablo health: http://127.0.0.1:${port}/tablo/api/health did not answer`);
    // A setting the server would refuse is named the way the server names it.
    const refused = run(['health', '--port', String(port), '--public-url', 'localhost:8080']);
    expect(refused.exitCode).toBe(2);
    expect(oneLine(refused)).toStartWith('tablo health: Invalid setting NC_PUBLIC_URL (--public-url): ');
  }, 60_000);

  test('the start line names an address a browser opens: an IPv6 host in brackets, every address as localhost', async () => {
    for (const [host, shown] of [['::1', '[::1]'], ['::', 'localhost']]) {
      const proc = Bun.spawn(['bun', MAIN, '--port', '0', '--host', host, '--data-dir', mkdtempSync(join(tmpdir(), 'tablo-cli-'))], { stdout: 'pipe', stderr: 'pipe' });
      let seen = '';
      const decoder = new TextDecoder();
      for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
        seen += decoder.decode(chunk);
        if (seen.includes('listening on')) break;
      }
      proc.kill('SIGTERM');
      await proc.exited;
      expect(seen, host).toMatch(new RegExp(`listening on http://${shown.replace(/[[\]]/g, '\\$&')}:\\d+ \\(data: `));
    }
  }, 60_000);

  test('tablo meta copy refuses a data directory a Tablo is running on (its later writes would be lost), and copies once it stopped', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tablo-cli-'));
    const target = join(mkdtempSync(join(tmpdir(), 'tablo-cli-')), 'copy.db');
    const proc = await startServer(randomPort(), dataDir);
    try {
      const refused = run(['meta', 'copy', '--from', dataDir, '--to', target]);
      expect(refused.exitCode).toBe(1);
      expect(oneLine(refused)).toBe(`tablo meta copy: a Tablo is running on ${dataDir}: stop it first (what it writes after the copy would be lost)`);
    } finally {
      proc.kill('SIGTERM');
      await proc.exited;
    }
    const copied = run(['meta', 'copy', '--from', dataDir, '--to', target]);
    expect(copied.stderr.toString()).toBe('');
    expect(copied.exitCode).toBe(0);
  }, 60_000);
  test('tablo meta copy --to takes a data directory as --from does, and says what is wrong with a target it cannot use', async () => {
    const source = mkdtempSync(join(tmpdir(), 'tablo-cli-'));
    const booted = await boot(testConfig({ dataDir: source, metaDb: undefined }));
    await booted.meta.close();
    const back = mkdtempSync(join(tmpdir(), 'tablo-cli-'));
    const copied = run(['meta', 'copy', '--from', source, '--to', back]);
    expect(copied.stderr.toString()).toBe('');
    expect(copied.exitCode).toBe(0);
    expect(copied.stdout.toString()).toContain(`to ${join(back, 'tablo.db')}, each checked`);
    expect(existsSync(join(back, 'tablo.db'))).toBe(true);
    const missing = join(back, 'no-such-folder', 'tablo.db');
    const nowhere = run(['meta', 'copy', '--from', source, '--to', missing]);
    expect(nowhere.exitCode).toBe(1);
    expect(oneLine(nowhere)).toBe(`tablo meta copy: the folder ${dirname(missing)} of ${missing} does not exist (create it, or give --to an existing data directory)`);
    const other = run(['meta', 'copy', '--from', source, '--to', 'mysql://root:secret@127.0.0.1/tablo']);
    expect(other.exitCode).toBe(2);
    expect(oneLine(other)).toBe('tablo meta copy: --to mysql://root:***@127.0.0.1/tablo: only postgres://user:password@host:5432/database URLs or SQLite files (or data directories) are supported');
    const serving = mkdtempSync(join(tmpdir(), 'tablo-cli-'));
    const proc = await startServer(randomPort(), serving);
    try {
      const refused = run(['meta', 'copy', '--from', source, '--to', serving]);
      expect(refused.exitCode).toBe(1);
      expect(oneLine(refused)).toBe(`tablo meta copy: a Tablo is running on ${serving}: stop it first (it would not see the copied metadata)`);
    } finally {
      proc.kill('SIGTERM');
      await proc.exited;
    }
  }, 60_000);
  test('an NC_DB that does not answer yet: the start says what it waits for instead of staying silent', async () => {
    const port = randomPort();
    const url = `postgres://tablo:secret@127.0.0.1:${port}/tablo`;
    const proc = Bun.spawn(['bun', MAIN, '--port', '0', '--data-dir', mkdtempSync(join(tmpdir(), 'tablo-cli-'))], { env: { ...process.env, NC_DB: url }, stdout: 'pipe', stderr: 'pipe' });
    let said = '';
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) {
      said += decoder.decode(chunk);
      if (said.includes('\n')) break;
    }
    proc.kill('SIGKILL');
    await proc.exited;
    expect(said).toContain(`WARN the metadata database postgres://tablo:***@127.0.0.1:${port}/tablo (NC_DB / --meta-db) does not answer yet (connect ECONNREFUSED 127.0.0.1:${port}): waiting up to 30 s`);
    expect(said).not.toContain('secret');
  }, 60_000);
});
