/**
 * The active dashboard tab in the browser's history: each tab chosen is a step of its own, so Back
 * and Forward go through the tabs shown before (and reload keeps the one shown); closing a tab does
 * not leave a step that would open it again.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, closeTab, launchBrowser, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { chinookProject } from './views-helpers';

setDefaultTimeout(60_000);
const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'tab-history': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('dashboard tabs in the history', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let projectId = '';
  const tree = () => page.getByRole('navigation', { name: 'Project tree' });
  const selected = () => page.getByRole('tab', { selected: true });

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 850 } })).newPage();
    await signUpInBrowser(page, tablo.url, 'tabs@example.com');
    projectId = await chinookProject(page, tablo, 'Chinook', 'tablo_t_e2e_tab_history');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('Back and Forward go through the tabs chosen; reload keeps the one shown', () => page, async () => {
    // The list as it is now (the page showed it before the project was made).
    await page.reload();
    await page.getByRole('link', { name: 'Chinook', exact: true }).click();
    await page.waitForURL(new RegExp(`#/nc/${projectId}$`));
    for (const name of ['Album', 'Artist', 'Genre']) {
      await tree().getByRole('button', { name, exact: true }).click();
      await page.waitForURL(new RegExp(`name=${name}&`));
    }
    await expect(selected().innerText()).resolves.toContain('Genre');

    await page.goBack();
    await page.waitForURL(/name=Artist&/);
    await selected().getByText('Artist').waitFor();
    await page.goBack();
    await page.waitForURL(/name=Album&/);
    await selected().getByText('Album').waitFor();
    await page.goForward();
    await page.waitForURL(/name=Artist&/);
    await selected().getByText('Artist').waitFor();
    // The three tabs stay open throughout: Back only chooses among them.
    expect(await page.getByRole('tab').count()).toBe(3);

    // A tab closed leaves no step behind that would open it again: Back goes to the tab before it.
    await tree().getByRole('button', { name: 'Track', exact: true }).click();
    await page.waitForURL(/name=Track&/);
    await closeTab(page, /Track/);
    await page.waitForURL(/name=Genre&/);
    await selected().getByText('Genre').waitFor();
    await page.getByRole('tab', { name: /Track/ }).waitFor({ state: 'detached' });
    await page.goBack();
    await page.waitForURL(/name=Artist&/);
    await selected().getByText('Artist').waitFor();
    expect(await page.getByRole('tab', { name: /Track/ }).count()).toBe(0);

    await page.reload();
    await selected().getByText('Artist').waitFor();
    expect(page.url()).toContain('name=Artist&');
  });
});
