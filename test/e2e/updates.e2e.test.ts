/**
 * Version & Updates with the real single binary: a copy of dist/tablo in a temp folder runs with
 * NC_UPDATE_FEED pointing at a release feed served on loopback. The feed announces a newer version whose
 * download is a real executable (a small program compiled here with `bun build --compile` that prints
 * its version for --version and answers /api/health and /api/v1/version on the port it is given).
 * The banner announces it and stays closed for it once closed; the Settings tab names the release and
 * Check now reads the feed again; the Super Admin's auto-update switch installs it beside the copy
 * (SHA-256 checked, the old binary kept as .old); stopped and started again at the same path, the new
 * version runs. NC_UPDATE_MODE is left unset: a compiled binary in a folder it may write updates
 * itself even though this machine is a container.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, ensureBinary, freePort, launchBrowser, shot, signUpInBrowser } from './helpers';
import pkg from '../../package.json' with { type: 'json' };

setDefaultTimeout(60_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'updates': ${problem}`);

const next = pkg.version.replace(/^(\d+)\.(\d+)\.(\d+).*$/, (_, a, b) => `${a}.${Number(b) + 1}.0`);

/** The newer release: a real executable that knows its version and answers like a Tablo server. */
const NEXT_SOURCE = `
const VERSION = ${JSON.stringify(next)};
const args = process.argv.slice(2);
if (args.includes('--version')) {
  console.log(VERSION);
  process.exit(0);
}
const port = Number(args[args.indexOf('--port') + 1] || process.env.PORT || 8080);
const server = Bun.serve({
  hostname: '127.0.0.1',
  port,
  fetch(req) {
    const path = new URL(req.url).pathname;
    if (path === '/api/health') return Response.json({ ok: true, version: VERSION });
    if (path === '/api/v1/version') return Response.json({ version: VERSION, feed: false, latest: null, newer: false, checkedAt: null, install: 'binary' });
    return new Response('not found', { status: 404 });
  },
});
process.on('SIGTERM', () => (server.stop(true), process.exit(0)));
`;

/** A started binary at a given path: its URL, output, and how to stop it. */
interface Running {
  url: string;
  logs: string[];
  stop(): Promise<void>;
}

async function start(binary: string, cwd: string, env: Record<string, string>): Promise<Running> {
  const port = freePort();
  const { NC_UPDATE_MODE: _mode, ...inherited } = process.env;
  const proc = Bun.spawn([binary, '--port', String(port)], { cwd, env: { ...inherited, ...env }, stdout: 'pipe', stderr: 'pipe' });
  const logs: string[] = [];
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) logs.push(decoder.decode(chunk, { stream: true }));
  };
  void collect(proc.stdout);
  void collect(proc.stderr);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100 && proc.exitCode === null; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, logs, stop: async () => void (proc.kill('SIGTERM'), await proc.exited) };
    } catch {}
    await Bun.sleep(100);
  }
  proc.kill('SIGKILL');
  throw new Error(`${binary} did not answer on ${url} (exit code ${proc.exitCode ?? 'none'}):\n${logs.join('')}`);
}

const versionOf = (binary: string) => Bun.spawnSync([binary, '--version'], { stdout: 'pipe', stderr: 'pipe' }).stdout.toString().trim();

describe.skipIf(!!problem && !process.env.CI)('version and updates in the browser, with a copy of the binary', () => {
  let dir: string;
  let binary: string;
  let tablo: Running;
  let browser: Browser;
  let page: Page;
  let feed: ReturnType<typeof Bun.serve>;
  let downloads = 0;
  const release: Record<string, string> = { version: next, notes: 'Faster grids and a new calendar.' };

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    dir = mkdtempSync(join(tmpdir(), 'tablo-update-e2e-'));
    // The newer release, compiled beside the test (a couple of seconds), and the copy of the current binary.
    writeFileSync(join(dir, 'next.ts'), NEXT_SOURCE);
    const [compiled, built] = await Promise.all([
      Bun.spawn(['bun', 'build', '--compile', join(dir, 'next.ts'), '--outfile', join(dir, 'tablo-next')], { cwd: dir, stdout: 'ignore', stderr: 'inherit' }).exited,
      ensureBinary(),
    ]);
    if (compiled !== 0) throw new Error('the newer release did not compile');
    const nextBinary = join(dir, 'tablo-next');
    const bytes = new Uint8Array(await Bun.file(nextBinary).arrayBuffer());
    release.sha256 = new Bun.CryptoHasher('sha256').update(bytes).digest('hex');
    feed = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: (req) => {
        if (new URL(req.url).pathname === '/tablo-linux-x64') return (downloads++, new Response(Bun.file(nextBinary)));
        return Response.json(release);
      },
    });
    release.url = `http://127.0.0.1:${feed.port}/tablo-linux-x64`;
    mkdirSync(join(dir, 'app'));
    binary = join(dir, 'app', 'tablo');
    copyFileSync(built, binary);
    tablo = await start(binary, join(dir, 'app'), { NC_UPDATE_FEED: `http://127.0.0.1:${feed.port}/latest.json`, NC_DATA_DIR: join(dir, 'data') });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    // The first load of the app (several MB of script) is slow on a busy machine.
    page.setDefaultNavigationTimeout(45_000);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
    feed?.stop(true);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  browserTest('a newer release shows the banner; closed, it stays closed for that release', () => page, async () => {
    await signUpInBrowser(page, tablo.url, 'updates@example.com');
    const banner = page.getByRole('status').filter({ hasText: 'New version is available' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain(`Tablo ${next} (you run ${pkg.version})`);
    await shot(page, 'update-banner');
    await banner.getByRole('button', { name: 'Close' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('button', { name: 'Profile menu' }).waitFor();
    await page.waitForTimeout(500);
    expect(await banner.count()).toBe(0);
    // The first page load and sign-up take long on a busy machine.
  }, 60_000);

  browserTest('the Version & Updates tab names the release, its notes, and Check now', () => page, async () => {
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Themes' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('tab', { name: 'Version & Updates' }).click();
    await settings.getByTestId('latest-release').getByText(`Tablo ${next} is available.`).waitFor();
    await settings.getByText('Faster grids and a new calendar.').waitFor();
    await shot(page, 'update-settings');
    await settings.getByRole('button', { name: 'Check now' }).click();
    // The server reads the feed at most once a minute: the answer is the release read at start-up.
    await settings.getByRole('button', { name: 'Check now' }).waitFor();
    expect(await settings.getByTestId('latest-release').textContent()).toContain(`Tablo ${next} is available.`);
    // The hidden Application refresh button shows on a double-click of the first switch's row.
    expect(await settings.getByRole('button', { name: 'Application refresh' }).count()).toBe(0);
    await settings.getByText('Tell me when a new version is available').dblclick();
    await settings.getByRole('button', { name: 'Application refresh' }).waitFor();
    expect(await settings.getByRole('switch', { name: 'Tell me when a new version is available' }).isChecked()).toBe(true);
  });

  browserTest('the auto-update switch installs the release beside the binary, for the next start', () => page, async () => {
    const settings = page.getByRole('dialog', { name: 'Settings' });
    const auto = settings.getByRole('switch', { name: 'Update automatically' });
    expect(await auto.isChecked()).toBe(false);
    expect(downloads).toBe(0);
    // Pressed the way a person does: on its label (the input itself is visually hidden).
    await settings.getByText('Update automatically', { exact: true }).click();
    await page.getByText('Automatic updates are on: new versions run from the next restart').waitFor();
    // The snackbar and the tab ask for a restart once the download is in place and checked.
    await page.getByText(`Tablo ${next} is installed: restart Tablo to run it`, { exact: true }).waitFor();
    await settings.getByText(`Tablo ${next} is installed: restart Tablo to run it.`).waitFor();
    expect(await auto.isChecked()).toBe(true);
    await shot(page, 'update-installed');
    await settings.getByRole('button', { name: 'Close' }).click();
    // The closed banner comes back once, saying a restart runs the installed release.
    await page.getByRole('status').filter({ hasText: `Tablo ${next} is installed: restart Tablo to run it.` }).waitFor();
    expect(downloads).toBe(1);
    const status = await (await fetch(`${tablo.url}/api/v1/version`)).json();
    expect(status).toMatchObject({ version: pkg.version, install: 'binary', autoUpdate: true, installed: next, installing: false });
    // The copy now is the new release; the running process keeps the file it started from.
    expect(versionOf(binary)).toBe(next);
    expect(versionOf(`${binary}.old`)).toBe(pkg.version);
    expect(existsSync(`${binary}.new`)).toBe(false);
    expect(tablo.logs.join('')).toContain(`update: Tablo ${next} installed at ${binary}`);
  }, 40_000);

  browserTest('stopped and started again at the same path, the new version runs', () => page, async () => {
    await tablo.stop();
    tablo = await start(binary, join(dir, 'app'), { NC_UPDATE_FEED: `http://127.0.0.1:${feed.port}/latest.json`, NC_DATA_DIR: join(dir, 'data') });
    expect(await (await fetch(`${tablo.url}/api/health`)).json()).toEqual({ ok: true, version: next });
    expect(await (await fetch(`${tablo.url}/api/v1/version`)).json()).toMatchObject({ version: next });
  });
});
