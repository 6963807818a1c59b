/**
 * Pages that outlive their session: a sign-out in one tab of the browser sends every other open tab
 * to sign-in at once (not at its next call), and a sign-in there brings them back to their page on the
 * new session; a page whose realtime socket the server ended because its session ended (4401), with
 * no fresh token to be had, goes to sign-in as a 401 of any other call does; two tabs whose token
 * expired at once refresh one after the other (the refresh cookie they share is rotated by each
 * refresh: presented twice, the server would end the session as stolen).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Browser, Page, Response, WebSocket } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, startTablo, type RunningTablo } from './helpers';
import { chinookProject, until } from './views-helpers';

const EMAIL = 'tabs@example.com';
const PASSWORD = 'password123';
setDefaultTimeout(60_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'session across tabs': ${problem}`);

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/#/user/authentication/signin`);
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/#\/projects/);
}

/** The answers of 401 a page gets from now on (the refresh with the cookie aside). */
function unauthorizedAnswers(page: Page): string[] {
  const seen: string[] = [];
  page.on('response', (r: Response) => {
    if (r.status() === 401 && !r.url().includes('/auth/refresh-token')) seen.push(r.url());
  });
  return seen;
}

describe.skipIf(!!problem && !process.env.CI)('the session across tabs and the realtime socket', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let projectId = '';
  const openTrack = async (p: Page) => {
    await p.goto(`${tablo.url}/#/nc/${projectId}`);
    await p.locator('.tree').getByRole('button', { name: 'Track', exact: true }).click();
    await p.getByRole('gridcell', { name: 'Balls to the Wall', exact: true }).first().waitFor();
  };

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    const res = await fetch(`${tablo.url}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
    expect(res.status).toBe(200);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await signIn(page, tablo.url);
    projectId = await chinookProject(page, tablo, 'Tabs', 'tablo_t_e2e_session_tabs');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('signed out in one tab, the other tab leaves for sign-in at once; signed in again there, it comes back on the new session', () => page, async () => {
    await openTrack(page);
    const refused = unauthorizedAnswers(page);
    const other = await page.context().newPage();
    await other.goto(`${tablo.url}/#/projects`);
    await other.getByRole('button', { name: 'Profile menu' }).click();
    await other.getByRole('menuitem', { name: 'Sign Out' }).click();
    await other.waitForURL(/#\/user\/authentication\/signin/);
    // The grid's tab follows without a call of its own being refused (it made none).
    await page.waitForURL(/#\/user\/authentication\/signin/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(refused).toEqual([]);
    await shot(page, 'session-tabs-signed-out-elsewhere');

    // Signed in again in the other tab: this one takes that session and goes back to the grid it showed.
    await other.getByLabel('E-mail').fill(EMAIL);
    await other.getByLabel('Password').fill(PASSWORD);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.waitForURL(/#\/projects/);
    await page.waitForURL(new RegExp(`#/nc/${projectId}`));
    await page.locator('.tree').getByRole('button', { name: 'Track', exact: true }).waitFor();
    expect(refused).toEqual([]);
    await shot(page, 'session-tabs-signed-in-elsewhere');
    await other.close();
  });

  browserTest('the realtime socket ended by the server because the session ended, with no fresh token: the page goes to sign-in', () => page, async () => {
    await signIn(page, tablo.url);
    const sockets: WebSocket[] = [];
    const frames: string[] = [];
    page.on('websocket', (ws) => {
      if (!ws.url().includes('/api/v1/realtime')) return;
      sockets.push(ws);
      ws.on('framereceived', (f) => void frames.push(String(f.payload)));
    });
    await openTrack(page);
    // The grid's table is subscribed on the socket.
    expect(await until(async () => frames.some((f) => f.includes('"ok"')), true)).toBe(true);
    const ws = sockets.at(-1)!;
    // The session ends on the server (its refresh cookie with it), as when it is signed out elsewhere.
    const jwt = await page.evaluate(() => localStorage.getItem('tablo.token'));
    expect((await fetch(`${tablo.url}/auth/signout`, { method: 'POST', headers: { 'xc-auth': jwt ?? '' } })).status).toBe(200);
    const refused = unauthorizedAnswers(page);
    // What the page was refused before its socket ended (a call of its own may come after, racing the page's leave).
    let refusedBeforeClose: string[] | null = null;
    ws.on('close', () => (refusedBeforeClose = [...refused]));
    // A write to the table the socket shows (by another session of the user, through the API) finds the
    // socket's session ended: the server ends the socket (4401).
    const signin = await fetch(`${tablo.url}/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
    const { token } = (await signin.json()) as { token: string };
    const write = await fetch(`${tablo.url}/nc/${projectId}/api/v1/Track/1`, { method: 'PUT', headers: { 'content-type': 'application/json', 'xc-auth': token }, body: JSON.stringify({ Composer: 'Written elsewhere' }) });
    expect(write.status).toBe(200);
    expect(await until(async () => ws.isClosed(), true)).toBe(true);
    await page.getByText('Token expired please login to continue').waitFor();
    await page.waitForURL(/#\/user\/authentication\/signin/);
    // It was the socket that sent the page to sign-in: no other call was refused before it ended.
    expect(refusedBeforeClose ?? [...refused]).toEqual([]);
    await shot(page, 'session-tabs-socket-ended');
  });

  browserTest('two tabs refreshing an expired token at the same moment both stay signed in', () => page, async () => {
    await signIn(page, tablo.url);
    const other = await page.context().newPage();
    await other.goto(`${tablo.url}/#/projects`);
    await other.getByRole('button', { name: 'Profile menu' }).waitFor();
    const before = await page.evaluate(() => localStorage.getItem('tablo.token'));
    // The first call of each tab with the session's token is refused as if the token had expired, both
    // answers given at the same moment; every refresh is held 500 ms on its way: the second tab's refresh
    // would leave, with the same cookie, while the first is under way.
    const refusedOnce = new Set<Page>();
    let bothRefused!: () => void;
    const both = new Promise<void>((resolve) => (bothRefused = resolve));
    await page.context().route('**/user/me', async (route) => {
      const from = route.request().frame().page();
      if (route.request().headers()['xc-auth'] !== before || refusedOnce.has(from)) return route.continue();
      refusedOnce.add(from);
      if (refusedOnce.size === 2) bothRefused();
      await Promise.race([both, Bun.sleep(5000)]);
      await route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ msg: 'Token expired please login to continue' }) });
    });
    const refreshes: string[] = [];
    await page.context().route('**/auth/refresh-token', async (route) => {
      refreshes.push(route.request().headers().cookie ?? '');
      await Bun.sleep(500);
      await route.continue();
    });
    await Promise.all([page.reload(), other.reload()]);
    await Promise.all([page.waitForURL(/#\/projects/), other.waitForURL(/#\/projects/)]);
    await Promise.all([page.getByRole('button', { name: 'Profile menu' }).waitFor(), other.getByRole('button', { name: 'Profile menu' }).waitFor()]);
    expect(refusedOnce.size).toBe(2);
    // The refreshes went one after the other: none presented a cookie another had already presented (the
    // server would have taken it for a stolen copy and ended the session). The second tab usually takes the
    // first one's token; when the browser has not yet handed it over, it refreshes with the new cookie.
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    expect(new Set(refreshes).size).toBe(refreshes.length);
    // The session lives on in both tabs: the server answers each tab's token.
    for (const p of [page, other]) {
      const jwt = await p.evaluate(() => localStorage.getItem('tablo.token'));
      expect(jwt).not.toBe(before);
      const me = await fetch(`${tablo.url}/user/me`, { headers: { 'xc-auth': jwt ?? '' } });
      expect(((await me.json()) as { email?: string }).email).toBe(EMAIL);
    }
    expect(page.url()).toContain('#/projects');
    expect(other.url()).toContain('#/projects');
    await page.context().unrouteAll();
    await other.close();
  });
});
