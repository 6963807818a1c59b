/**
 * An axe-core scan of the screens beyond the main ones, in light and dark mode: the Users page, Team &
 * Auth, App Store, Project Metadata, the Audit node with an applied migration, the SQL Client with its
 * three editors, the Terminal with a shell open, Cron jobs, the API Client, the connection form and
 * the account settings. No serious or critical violation (status text readable on its tint, no
 * control nested in a tab).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { addColumn, chinookProject } from './views-helpers';
import { scan } from './axe-scan';

setDefaultTimeout(60_000);
const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'accessibility-tools': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('accessibility of the tools and admin screens', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let chinook = '';

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    // On loopback the Terminal is on.
    tablo = await startTablo({ HOST: '127.0.0.1' });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 850 }, bypassCSP: true })).newPage();
    await signUpInBrowser(page, tablo.url, 'a11y-tools@example.com');
    chinook = await chinookProject(page, tablo, 'Chinook', 'tablo_t_e2e_a11y_tools');
    // A schema change, so the Audit node lists an applied migration.
    await addColumn(page, chinook, 'Genre', { cn: 'Mood', uidt: 'SingleLineText' });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  const panel = (name: string) => `${tablo.url}/#/nc/${chinook}?name=${name}&dbalias=db&type=panel`;

  for (const dark of [false, true]) {
    const mode = dark ? 'dark' : 'light';
    browserTest(`users, team, App Store, metadata, audit, SQL Client, terminal, cron jobs, API Client and forms in ${mode} mode`, () => page, async () => {
      const problems: string[] = [];
      const check = async (screen: string) => {
        await page.waitForLoadState('networkidle');
        problems.push(...(await scan(page)).map((l) => `${mode} ${screen}: ${l}`));
      };
      await page.goto(`${tablo.url}/#/user/admin/user-edit`);
      await page.locator('.form-message-success').waitFor();
      if (dark !== (await page.evaluate(() => document.documentElement.dataset.theme === 'dark'))) await page.getByRole('button', { name: 'Toggle dark mode' }).click();
      await check('users');
      await page.goto(panel('roles'));
      await page.getByRole('heading', { name: 'API Tokens Management' }).waitFor();
      await check('team & auth');
      await page.goto(panel('appStore'));
      await page.getByRole('heading', { name: 'App Store' }).waitFor();
      await check('app store');
      await page.goto(panel('meta'));
      await page.locator('.badge-started').first().waitFor();
      await check('project metadata');
      await page.goto(panel('audit'));
      await page.locator('.badge-applied').first().waitFor();
      await check('audit');
      await page.goto(panel('sqlClient'));
      await page.getByRole('tab', { name: 'Query 3' }).waitFor();
      await check('sql client');
      await shot(page, `a11y-tools-sql-${mode}`);
      await page.goto(panel('terminal'));
      await page.getByRole('tab', { name: /Local \(1\)/ }).waitFor();
      await check('terminal');
      await page.goto(panel('crons'));
      await check('cron jobs');
      await page.goto(panel('apiClient'));
      await check('api client');
      await page.goto(`${tablo.url}/#/project/0`);
      await check('connect a database');
      await page.goto(`${tablo.url}/#/user/settings`);
      await check('account settings');
      expect(problems).toEqual([]);
    }, 120_000);
  }
});
