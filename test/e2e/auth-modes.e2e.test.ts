/**
 * The two other auth types in a real browser against the built binary: a Tablo started with a
 * master key asks for that key (the server's message when it is wrong, kept across a reload, gone
 * after Sign Out), and one started with authentication off opens the projects list at once.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, startTablo, type RunningTablo } from './helpers';

// Browser steps wait on the page; a loaded machine can take a few seconds more than the default.
setDefaultTimeout(60_000);

const MASTER_KEY = 'master-key-for-e2e';
const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'auth modes': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('auth modes in the browser', () => {
  let keyed: RunningTablo;
  let open: RunningTablo;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    [keyed, open] = await Promise.all([startTablo({ NC_AUTH_ADMIN_SECRET: MASTER_KEY }), startTablo({ NC_AUTH_TYPE: 'none' })]);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await keyed?.stop();
    await open?.stop();
  });

  browserTest('with a master key the root asks for the key, and no one is offered a sign-up', () => page, async () => {
    await page.goto(keyed.url);
    await page.waitForURL(/#\/user\/authentication\/signin$/);
    await page.getByLabel('Master key').waitFor();
    await expect(page.getByLabel('E-mail').count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'Sign Up' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Master key is required').waitFor();
  });

  browserTest('a wrong key shows the server message; the right one opens the projects list', () => page, async () => {
    await page.getByLabel('Master key').fill('not-the-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Invalid master key').waitFor();
    await shot(page, 'master-key-wrong');
    await page.getByLabel('Master key').fill(MASTER_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/#\/projects/);
    await page.getByText('Get started by creating a new project').waitFor();
    await page.getByRole('button', { name: '+ New Project' }).first().click();
    await page.getByLabel('Project name').fill('Keyed');
    await page.getByRole('button', { name: 'Create' }).click();
    // A new project opens; back to the list.
    await page.getByText('Active Env').waitFor();
    await page.goBack();
    await page.getByRole('cell', { name: 'Keyed' }).waitFor();
  });

  browserTest('the key is kept across a reload and forgotten at Sign Out', () => page, async () => {
    await page.reload();
    await page.getByRole('cell', { name: 'Keyed' }).waitFor();
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menu').getByText('Master key').waitFor();
    await shot(page, 'master-key-menu');
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.getByLabel('Master key').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('tablo.masterKey'))).toBeNull();
    await page.goto(`${keyed.url}/#/projects`);
    await page.waitForURL(/#\/user\/authentication\/signin$/);
  });

  browserTest('with authentication off the root opens the projects list', () => page, async () => {
    await page.goto(open.url);
    await page.waitForURL(/#\/projects/);
    await page.getByText('Get started by creating a new project').waitFor();
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menu').getByText('Authentication is off').waitFor();
    await expect(page.getByRole('menuitem', { name: 'Sign Out' }).count()).resolves.toBe(0);
    await expect(page.getByRole('menuitem', { name: 'Copy auth token' }).count()).resolves.toBe(0);
    await shot(page, 'auth-off-projects');
  });
});
