/**
 * Browser tests against the built binary: build dist/tablo when it is missing or older than the
 * sources, start it on a free port over a temp data directory, drive Debian's Chromium with
 * playwright-core, keep screenshots in test-results/e2e.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'bun:test';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { ensureBinary } from './binary';

export { ensureBinary };

/** The repository root. */
export const ROOT = join(import.meta.dir, '../..');
/** Debian's Chromium, driven by playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';
/** Where screenshots are kept (test-results/e2e). */
export const SHOTS = join(ROOT, 'test-results/e2e');

/** Why the browser suite cannot run here, or null. Under CI a missing browser is a failure. */
export function browserProblem(): string | null {
  return existsSync(CHROMIUM) ? null : `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium)`;
}

/** A started binary: its URL, data directory, log lines and how to stop it (which removes its folder). */
export interface RunningTablo {
  url: string;
  dataDir: string;
  /** The server's output so far, one complete line (with its newline) per entry. */
  logs: string[];
  stop(): Promise<void>;
}

/** A port nobody listens on right now (the system picks it). */
export function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/** Starts the binary from a temp directory (no node_modules there) on a free port (or the one given). */
export async function startTablo(env: Record<string, string> = {}, port: number = freePort()): Promise<RunningTablo> {
  const binary = await ensureBinary();
  const cwd = mkdtempSync(join(tmpdir(), 'tablo-e2e-'));
  const proc = Bun.spawn([binary, '--port', String(port)], { cwd, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' });
  const logs: string[] = [];
  // Whole lines only: a chunk may end mid-line, and stdout and stderr interleave.
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    let pending = '';
    for await (const chunk of stream) {
      pending += decoder.decode(chunk, { stream: true });
      const end = pending.lastIndexOf('\n') + 1;
      if (end > 0) {
        logs.push(...pending.slice(0, end).split(/(?<=\n)/));
        pending = pending.slice(end);
      }
    }
    if (pending) logs.push(pending);
  };
  void collect(proc.stdout);
  void collect(proc.stderr);
  const url = `http://127.0.0.1:${port}`;
  let healthy = false;
  for (let i = 0; i < 100 && !healthy && proc.exitCode === null; i++) {
    try {
      healthy = (await fetch(`${url}/api/health`)).ok;
    } catch {}
    if (!healthy) await Bun.sleep(100);
  }
  if (!healthy) {
    proc.kill('SIGKILL');
    throw new Error(`tablo did not answer on ${url} (exit code ${proc.exitCode ?? 'none'}):\n${logs.join('')}`);
  }
  return {
    url,
    dataDir: join(cwd, 'data'),
    logs,
    async stop() {
      proc.kill('SIGTERM');
      await proc.exited;
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}

/** Headless Chromium with a fresh profile and no background traffic. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'],
  });
}

/** Saves a screenshot of the viewport as test-results/e2e/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  // A screenshot is for people to look at, not a check: Chromium refusing one now and then under load
  // ('Unable to capture screenshot') is tried again, then reported without failing the test.
  for (let attempt = 1; ; attempt++) {
    try {
      await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
      return;
    } catch (e) {
      if (attempt >= 3 || page.isClosed()) {
        console.warn(`screenshot ${name} not taken: ${(e as Error).message.split('\n')[0]}`);
        return;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/**
 * Closes a tab of the project page by its × (a pointer control; on the keyboard, Delete on the
 * focused tab closes it).
 */
export async function closeTab(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('tab', { name }).locator('.tab-close').click();
}

/** Closes every tab of the project page. */
export async function closeAllTabs(page: Page): Promise<void> {
  const close = page.locator('.tab-bar [role="tab"] .tab-close');
  while ((await close.count()) > 0) await close.first().click();
}

/** How long one page action or wait may take; below the suites' 60 s test limit. */
export const PAGE_WAIT_MS = 15_000;

/**
 * A browser test that, when it fails, keeps a screenshot of the page as
 * test-results/e2e/FAILED-<test name>.png beside the error.
 */
export function browserTest(name: string, page: () => Page | undefined, body: () => Promise<void>, timeoutMs?: number): void {
  test(
    name,
    async () => {
      // Page waits give up before the test's own time limit, so the failure shot can be taken.
      page()?.setDefaultTimeout(PAGE_WAIT_MS);
      await loadAgainAfterFailure(page());
      try {
        await body();
      } catch (e) {
        const p = page();
        const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80);
        if (p && !p.isClosed()) {
          await shot(p, `FAILED-${slug}`).catch(() => {});
          failedOn.add(p);
        }
        throw e;
      }
    },
    timeoutMs,
  );
}

/** Pages a failed browser test left as they were then (a dialog open, an editor, a menu). */
const failedOn = new WeakSet<Page>();

/**
 * A page a failed test left behind is loaded again before the next test uses it: whatever the failed
 * test left open (a modal dialog makes the rest of the page inert) does not fail the tests after it.
 */
async function loadAgainAfterFailure(p: Page | undefined): Promise<void> {
  if (!p || p.isClosed() || !failedOn.has(p)) return;
  failedOn.delete(p);
  try {
    await p.reload({ waitUntil: 'load' });
    // The app's own first reads are over before the next test starts (it may watch or hold them).
    await p.waitForLoadState('networkidle');
  } catch (e) {
    console.warn(`page not loaded again after a failed test: ${(e as Error).message.split('\n')[0]}`);
  }
}

/**
 * Picks the row titled `title` in an open row picker: types it in the search box, waits until the
 * list answers that search (no longer busy: the first list, answered before, may still be shown and
 * is replaced under the pointer when the answer comes), then clicks it.
 */
export async function pickRow(picker: Locator, title: string): Promise<void> {
  await picker.getByLabel('Search rows').fill(title);
  await picker.locator('.picker-list[aria-busy="false"]').waitFor();
  await picker.getByRole('button', { name: title, exact: true }).click();
}

/** Signs up through the sign-up form (the first account becomes the Super Admin) and waits for the projects list. */
export async function signUpInBrowser(page: Page, url: string, email: string, password = 'password123'): Promise<void> {
  await page.goto(`${url}/#/user/authentication/signup`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL(/#\/projects/);
}

/** Signs in through the sign-in form and waits for the projects list. */
export async function signInInBrowser(page: Page, url: string, email: string, password = 'password123'): Promise<void> {
  await page.goto(`${url}/#/user/authentication/signin`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/#\/projects/);
}

/**
 * Runs a dashboard operation from the page with the page's own session, the way the web app calls
 * it; answers the status and the JSON body.
 */
export function dashboardCallInPage(page: Page, api: string, body: { project_id?: string; args?: unknown } = {}): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ([api, body]) => {
      const res = await fetch(`/dashboard?q=sqlOp_${api}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'xc-gui': 'true', 'xc-auth': localStorage.getItem('tablo.token') ?? '' },
        body: JSON.stringify({ api, ...body }),
      });
      return { status: res.status, body: await res.json() };
    },
    [api, body] as const,
  );
}

/**
 * Holds back the first answer to a request matching `matches`: the server answers it at once (so it
 * reads the data as it is then), the page receives it only when `release` is called, after any later
 * answers. For showing that an earlier answer arriving last does not replace a later one.
 */
export async function holdFirstAnswer(page: Page, matches: (url: string) => boolean) {
  let held = false;
  let read = () => {};
  let release = () => {};
  const readByServer = new Promise<void>((r) => (read = r));
  const released = new Promise<void>((r) => (release = r));
  const route = (url: URL) => matches(url.href);
  const sent = page.waitForRequest((r) => matches(r.url()));
  await page.route(route, async (r) => {
    if (held) return r.continue().catch(() => {});
    held = true;
    const response = await r.fetch();
    read();
    await released;
    await r.fulfill({ response }).catch(() => {});
  });
  return {
    /** Resolves once the held request has been sent and the server has answered it. */
    readByServer: sent.then(() => readByServer),
    /** Hands the held answer to the page and waits until it has it; later requests go through untouched. */
    async deliver(): Promise<void> {
      release();
      await (await sent).response();
      await page.unroute(route);
    },
  };
}

/** The grid toolbar's action buttons and their items in its More actions menu. */
const TOOLBAR_MENU_ITEMS = { Import: 'Import', CSV: 'Export as CSV', XLSX: 'Export as XLSX' } as const;

/**
 * Clicks a grid toolbar action: its button, or its item of the More actions menu where the toolbar
 * is too narrow for the buttons (beside the tree and the Views panel, or on a phone).
 */
export async function toolbarAction(page: Page, action: keyof typeof TOOLBAR_MENU_ITEMS): Promise<void> {
  const more = page.getByRole('button', { name: 'More actions' });
  if (await more.isVisible()) {
    await more.click();
    await page.getByRole('menu', { name: 'More actions' }).getByRole('menuitem', { name: TOOLBAR_MENU_ITEMS[action] }).click();
  } else await page.getByRole('button', { name: action, exact: true }).click();
}
