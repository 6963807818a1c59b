/**
 * The account settings page leaves for sign-in, like every signed-in page, once its session has
 * ended while it was open: signed out in another tab of the browser, at once; by a call to the API, at
 * the next section opened, which reads nothing else from the server, not only at a save.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, startTablo, type RunningTablo } from './helpers';

const EMAIL = 'settings@example.com';
const PASSWORD = 'password123';
// Browser steps wait on the page; a loaded machine can take a few seconds more than the default.
setDefaultTimeout(60_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'settings session': ${problem}`);

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/#/user/authentication/signin`);
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/#\/projects/);
}

describe.skipIf(!!problem && !process.env.CI)('account settings when the session ends', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    const res = await fetch(`${tablo.url}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
    expect(res.status).toBe(200);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('signed out in another tab: the settings page goes to sign-in at once', () => page, async () => {
    await signIn(page, tablo.url);
    await page.goto(`${tablo.url}/#/user/settings/profile`);
    await page.getByLabel('First name').waitFor();
    const other = await page.context().newPage();
    await other.goto(`${tablo.url}/#/projects`);
    await other.getByRole('button', { name: 'Profile menu' }).click();
    // The tab leaves for sign-in first and signs out on the server after: wait for that.
    const signedOut = other.waitForResponse((r) => r.url().endsWith('/auth/signout'));
    await other.getByRole('menuitem', { name: 'Sign Out' }).click();
    await other.waitForURL(/#\/user\/authentication\/signin/);
    await signedOut;
    await other.close();
    await page.waitForURL(/#\/user\/authentication\/signin/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await shot(page, 'settings-session-ended-tab');
  });

  browserTest('signed out by an API call: opening another section goes to sign-in; a save does too', () => page, async () => {
    await signIn(page, tablo.url);
    await page.goto(`${tablo.url}/#/user/settings/profile`);
    await page.getByLabel('First name').waitFor();
    const jwt = await page.evaluate(() => localStorage.getItem('tablo.token'));
    const out = await fetch(`${tablo.url}/auth/signout`, { method: 'POST', headers: { 'xc-auth': jwt ?? '' } });
    expect(out.status).toBe(200);
    await page.getByRole('link', { name: 'Picture' }).click();
    await page.getByText('Token expired please login to continue').waitFor();
    await page.waitForURL(/#\/user\/authentication\/signin/);
    await shot(page, 'settings-session-ended-api');

    // A save on a section left open goes to sign-in too.
    await signIn(page, tablo.url);
    await page.goto(`${tablo.url}/#/user/settings/profile`);
    await page.getByLabel('First name').waitFor();
    const again = await page.evaluate(() => localStorage.getItem('tablo.token'));
    expect((await fetch(`${tablo.url}/auth/signout`, { method: 'POST', headers: { 'xc-auth': again ?? '' } })).status).toBe(200);
    await page.getByLabel('First name').fill('Ada');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/user\/authentication\/signin/);
  });
});
