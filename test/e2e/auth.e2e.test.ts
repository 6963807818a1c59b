/**
 * The first-run flow in a real browser against the built binary: the root opens the Super Admin
 * sign-up, sign-in validation, sign up as Super Admin, land on the projects list, sign out, a
 * wrong password shows the server's message, sign in, an expired session, the error pages, the
 * spinner until project info has loaded, and a server that cannot be reached.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, startTablo, type RunningTablo } from './helpers';

// Browser steps wait on the page; a loaded machine can take a few seconds more than the default.
setDefaultTimeout(60_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'first run': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('first run in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('the root of a new install opens the Super Admin sign-up, which links to sign-in', () => page, async () => {
    await page.goto(tablo.url);
    await page.waitForURL(/#\/user\/authentication\/signup$/);
    await page.getByText('You will be the Super Admin').waitFor();
    await page.getByRole('link', { name: 'Login' }).waitFor();
    await page.getByRole('link', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/#\/user\/authentication\/signin$/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await shot(page, 'signin');
  });

  browserTest('sign-in form validation uses the spec wording', () => page, async () => {
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('E-mail is required').waitFor();
    await page.getByText('Password is required').waitFor();
    await page.getByLabel('E-mail').fill('not-an-email');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('E-mail must be valid').waitFor();
    await page.getByText('Your password must be at least 8 characters').waitFor();
    await shot(page, 'signin-validation');
    // Password managers fill the sign-in with the saved account (the browser names what each field is).
    expect(await page.getByLabel('E-mail').getAttribute('autocomplete')).toBe('username');
    expect(await page.getByLabel('Password').getAttribute('autocomplete')).toBe('current-password');
  });

  browserTest('the first sign-up says Super Admin and lands on the projects list', () => page, async () => {
    await page.getByRole('link', { name: 'Sign up', exact: true }).click();
    await page.getByText('You will be the Super Admin').waitFor();
    await shot(page, 'signup-first-user');
    // A new account: password managers offer a new password (and save it), not the sign-in's.
    expect(await page.getByLabel('E-mail').getAttribute('autocomplete')).toBe('username');
    expect(await page.getByLabel('Password').getAttribute('autocomplete')).toBe('new-password');
    await page.getByLabel('E-mail').fill('owner@example.com');
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(/#\/projects/);
    await page.getByText('Get started by creating a new project').waitFor();
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menu').getByText('owner@example.com').waitFor();
    await page.getByRole('menuitem', { name: 'Copy auth token' }).waitFor();
    await shot(page, 'projects-empty-with-menu');
    const me = await page.evaluate(async () => {
      const res = await fetch('/user/me', { headers: { 'xc-auth': localStorage.getItem('tablo.token') ?? '' } });
      return res.json();
    });
    expect(me.roles.super).toBe(true);
  });

  browserTest('a new embedded project appears in the list', () => page, async () => {
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '+ New Project' }).first().click();
    await page.getByLabel('Project name').fill('Inventory');
    await page.getByRole('button', { name: 'Create' }).click();
    // A new project opens; back to the list.
    await page.getByText('Active Env').waitFor();
    await page.goBack();
    await page.getByRole('cell', { name: 'Inventory' }).waitFor();
    await shot(page, 'projects-list');
  });

  browserTest('sign out, a wrong password shows the server message, then sign in', () => page, async () => {
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL(/#\/user\/authentication\/signin/);
    await page.getByLabel('E-mail').fill('owner@example.com');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Invalid email or password').waitFor();
    await shot(page, 'signin-wrong-password');
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/#\/projects/);
    await page.getByRole('cell', { name: 'Inventory' }).waitFor();
  });

  browserTest('a session token the server refuses is renewed once with the refresh cookie, unseen', () => page, async () => {
    await page.evaluate(() => localStorage.setItem('tablo.token', 'expired.or.forged.token'));
    const refreshes: number[] = [];
    page.on('response', (res) => {
      if (res.url().endsWith('/auth/refresh-token')) refreshes.push(res.status());
    });
    await page.reload();
    await page.getByRole('cell', { name: 'Inventory' }).waitFor();
    expect(refreshes).toEqual([200]);
    const renewed = await page.evaluate(() => localStorage.getItem('tablo.token'));
    expect(renewed).not.toBe('expired.or.forged.token');
    await expect(page.getByText('Token expired please login to continue').count()).resolves.toBe(0);
    page.removeAllListeners('response');
  });

  browserTest('an expired session that cannot be refreshed goes back to sign-in with the spec message', () => page, async () => {
    const context = page.context();
    await context.clearCookies();
    await page.evaluate(() => localStorage.setItem('tablo.token', 'expired.or.forged.token'));
    await page.reload();
    await page.getByText('Token expired please login to continue').waitFor();
    await page.waitForURL(/#\/user\/authentication\/signin/);
    await shot(page, 'token-expired');
    await page.getByLabel('E-mail').fill('owner@example.com');
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/#\/projects/);
  });

  browserTest('going offline shows a banner until the network is back', () => page, async () => {
    await page.context().setOffline(true);
    try {
      await page.getByText('You are offline').waitFor();
      await shot(page, 'offline-banner');
    } finally {
      await page.context().setOffline(false);
    }
    await page.getByText('You are offline').waitFor({ state: 'detached' });
  });

  browserTest('Copy auth token puts the session token on the clipboard', () => page, async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: tablo.url });
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Copy auth token' }).click();
    await page.getByText('Auth token copied to clipboard').waitFor();
    const [copied, held] = await page.evaluate(async () => [await navigator.clipboard.readText(), localStorage.getItem('tablo.token')]);
    expect(copied.length).toBeGreaterThan(20);
    expect(copied).toBe(held!);
  });

  browserTest('a reload keeps the session; an unknown route shows the 404 page', () => page, async () => {
    await page.reload();
    await page.getByRole('cell', { name: 'Inventory' }).waitFor();
    await page.goto(`${tablo.url}/#/no/such/page`);
    await page.getByText('This page could not be found').waitFor();
    await page.getByRole('link', { name: 'Back to the home page' }).waitFor();
    await shot(page, 'not-found');
    await page.getByRole('link', { name: 'Back to the home page' }).click();
    await page.waitForURL(/#\/projects/);
  });

  browserTest('the error pages 400 and 403 link home', () => page, async () => {
    await page.goto(`${tablo.url}/#/error/400`);
    await page.getByText('An error occurred').waitFor();
    await page.goto(`${tablo.url}/#/error/403`);
    await page.getByText('403 Forbidden').waitFor();
    await page.getByRole('link', { name: 'Home page' }).click();
    await page.waitForURL(/#\/projects/);
  });

  browserTest('a spinner covers the page until the project info has loaded', () => page, async () => {
    // The server's real answer, only held back a moment so the wait can be seen.
    await page.route('**/auth/type', async (route) => {
      await Bun.sleep(800);
      await route.continue();
    });
    await page.reload();
    await page.getByRole('progressbar', { name: 'Loading' }).waitFor();
    await expect(page.getByRole('heading', { name: 'Projects' }).count()).resolves.toBe(0);
    await page.getByRole('cell', { name: 'Inventory' }).waitFor();
    await expect(page.getByRole('progressbar', { name: 'Loading' }).count()).resolves.toBe(0);
    await page.unroute('**/auth/type');
  });

  browserTest('when the server cannot be reached at start the page says so and can try again', () => page, async () => {
    await page.route('**/auth/type', (route) => route.abort('connectionrefused'));
    await page.reload();
    await page.getByText('Tablo could not start: The Tablo server could not be reached').waitFor();
    await shot(page, 'server-unreachable');
    await page.unroute('**/auth/type');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('cell', { name: 'Inventory' }).waitFor();
  });
});
