/**
 * The Info tab of a project: its counts of tables, views, functions, procedures and sequences, and
 * when they cannot be read (the project stopped meanwhile from the projects list) the reason
 * instead of counts of 0.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, closeTab, dashboardCallInPage, launchBrowser, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { chinookProject } from './views-helpers';

setDefaultTimeout(60_000);
const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'project-info': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('the Info tab', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let projectId = '';
  const tree = () => page.getByRole('navigation', { name: 'Project tree' });

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 850 } })).newPage();
    await signUpInBrowser(page, tablo.url, 'info@example.com');
    projectId = await chinookProject(page, tablo, 'Chinook', 'tablo_t_e2e_project_info');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('counts what the database holds, and says why when the project was stopped meanwhile', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}?name=info&dbalias=db&type=panel`);
    await page.getByTestId('count-tables').getByText(/^\d+$/).waitFor();
    expect(Number(await page.getByTestId('count-tables').innerText())).toBeGreaterThanOrEqual(10);
    await closeTab(page, /Info/);

    // Someone stops the project from the projects list while this page has it open.
    expect((await dashboardCallInPage(page, 'projectStop', { project_id: projectId })).status).toBe(200);
    await tree().getByRole('button', { name: 'Info', exact: true }).click();
    await page.getByText("Project 'Chinook' is stopped; start it to use it.").first().waitFor();
    // The same words may show first in a toast: the tab's counts give way to them once its read answers.
    await page.getByTestId('count-tables').waitFor({ state: 'hidden', timeout: 10_000 });
  });
});
