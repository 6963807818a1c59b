/**
 * An axe-core scan of the main screens (projects list, dashboard with the grid and its tab strip, expanded row, settings,
 * sign-in) in light and dark mode: no serious or critical violation. (The scan is injected, so this
 * context bypasses the page's Content-Security-Policy; security.e2e checks that policy.)
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { chinookProject } from './views-helpers';
import { scan } from './axe-scan';

setDefaultTimeout(60_000);
const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'accessibility': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('accessibility of the main screens', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let chinook = '';

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 850 }, bypassCSP: true })).newPage();
    await signUpInBrowser(page, tablo.url, 'a11y@example.com');
    chinook = await chinookProject(page, tablo, 'Chinook', 'tablo_t_e2e_a11y');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  for (const dark of [false, true]) {
    const mode = dark ? 'dark' : 'light';
    browserTest(`projects list, grid, expanded row and settings in ${mode} mode`, () => page, async () => {
      const problems: string[] = [];
      const check = async (screen: string) => problems.push(...(await scan(page)).map((l) => `${mode} ${screen}: ${l}`));
      await page.goto(`${tablo.url}/#/projects`);
      await page.getByRole('heading', { name: 'Projects' }).waitFor();
      if (dark !== (await page.evaluate(() => document.documentElement.dataset.theme === 'dark'))) await page.getByRole('button', { name: 'Toggle dark mode' }).click();
      await check('projects');
      await page.goto(`${tablo.url}/#/nc/${chinook}`);
      await page.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'Album', exact: true }).click();
      await page.getByRole('gridcell').first().waitFor();
      await check('grid');
      if (!dark) {
        // The tab strip by keyboard: arrows move between the open tabs (each announced with how to
        // close it), Delete closes the focused one and the focus stays in the strip.
        await page.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'Artist', exact: true }).click();
        const artist = page.getByRole('tab', { name: 'Artist' });
        await artist.waitFor();
        expect(await artist.getAttribute('aria-selected')).toBe('true');
        expect(await artist.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent)).toBe('Press Delete to close this tab');
        await artist.focus();
        await page.keyboard.press('ArrowLeft');
        const album = page.getByRole('tab', { name: 'Album' });
        expect(await album.getAttribute('aria-selected')).toBe('true');
        expect(await album.evaluate((el) => el === document.activeElement)).toBe(true);
        await page.getByRole('gridcell', { name: 'For Those About To Rock We Salute You' }).first().waitFor();
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('Delete');
        await artist.waitFor({ state: 'detached' });
        await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'tab');
        expect(await album.getAttribute('aria-selected')).toBe('true');
        await page.getByRole('gridcell').first().waitFor();
      }
      await page.getByRole('gridcell').first().hover();
      await page.getByRole('button', { name: 'Expand row 1' }).click();
      await page.getByRole('dialog', { name: 'Expanded row' }).waitFor();
      await check('expanded row');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Expanded row' }).waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Profile menu' }).click();
      await page.getByRole('menuitem', { name: 'Themes' }).click();
      await page.getByRole('dialog', { name: 'Settings' }).waitFor();
      await check('settings');
      await page.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: 'Close' }).click();
      await page.getByRole('button', { name: 'Profile menu' }).click();
      await page.getByRole('menuitem', { name: 'Sign Out' }).click();
      await page.getByLabel('E-mail').waitFor();
      await check('sign-in');
      await page.getByLabel('E-mail').fill('a11y@example.com');
      await page.getByLabel('Password').fill('password123');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(/#\/projects/);
      expect(problems).toEqual([]);
      // axe reads the whole grid: a scan takes seconds on a busy machine.
    }, 120_000);
  }
});
