/**
 * The grid's toolbar fits its width, in a real browser against the binary: on a laptop (1280×800)
 * with the Views panel open it keeps two rows, the secondary actions (webhooks, import, export) in a
 * More menu; on a phone (390×844) it takes three short rows, the row height and the grouping in that
 * menu too; on a wide screen every action is a button. Screenshots: test-results/e2e/toolbar-*.png.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { chinookProject } from './views-helpers';

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'toolbar-layout': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('the grid toolbar at a laptop, a phone and a wide screen', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let chinook = '';
  const more = () => page.getByRole('button', { name: 'More actions' });
  const menu = () => page.getByRole('menu', { name: 'More actions' });
  /** Opens Track at a window size, on a fresh load. */
  const openTrack = async (width: number, height: number) => {
    await page.setViewportSize({ width, height });
    await page.goto('about:blank');
    await page.goto(`${tablo.url}/#/nc/${chinook}`);
    await page.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'Track', exact: true }).click();
    await page.getByRole('gridcell').first().waitFor();
  };
  /** The toolbar's rows: the height of each, and how far below the first the grid starts. */
  const toolbar = () =>
    page.evaluate(() => {
      const rows = [...document.querySelectorAll('.grid-wrap .grid-toolbar')].map((e) => e.getBoundingClientRect());
      const grid = document.querySelector('.grid-wrap [role="grid"]')!.getBoundingClientRect();
      return { heights: rows.map((r) => Math.round(r.height)), span: Math.round(grid.top - rows[0]!.top) };
    });

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true })).newPage();
    await signUpInBrowser(page, tablo.url, 'toolbar@example.com');
    chinook = await chinookProject(page, tablo, 'Chinook', 'tablo_t_e2e_toolbar');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('1280×800 with the Views panel: two rows of one line each; webhooks, import and export in the More menu', () => page, async () => {
    await openTrack(1280, 800);
    await page.getByRole('complementary', { name: 'Views' }).waitFor();
    const { heights, span } = await toolbar();
    await shot(page, 'toolbar-1280-views');
    // One line a row (a button is 34 px high), the grid right below.
    expect(heights.length).toBe(2);
    for (const h of heights) expect(h).toBeLessThanOrEqual(40);
    expect(span).toBeLessThanOrEqual(90);
    // The pickers keep their names for screen readers and tests.
    expect(await page.getByLabel('Row height').inputValue()).toBe('short');
    expect(await page.getByRole('button', { name: 'CSV', exact: true }).count()).toBe(0);
    await more().click();
    expect(await menu().getByRole('menuitem').allInnerTexts()).toEqual(['Webhooks', 'Import', 'Export as CSV', 'Export as XLSX']);
    await shot(page, 'toolbar-1280-more-menu');
    const [download] = await Promise.all([page.waitForEvent('download'), menu().getByRole('menuitem', { name: 'Export as CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('Track.csv');
    // Import opens the import dialog of the table.
    await more().click();
    await menu().getByRole('menuitem', { name: 'Import' }).click();
    await page.getByRole('dialog', { name: 'Import into Track' }).waitFor();
    await page.keyboard.press('Escape');
  });

  browserTest('390×844: three short rows; the row height and the grouping are chosen in the More menu', () => page, async () => {
    await openTrack(390, 844);
    const { heights, span } = await toolbar();
    await shot(page, 'toolbar-phone');
    expect(heights.length).toBe(2);
    // The search, the row count and reload; filter, sort and where; add row, fields and More.
    expect(span).toBeLessThanOrEqual(120);
    expect(await page.getByLabel('Row height').count()).toBe(0);
    const rowHeight = () => page.getByRole('row').nth(1).evaluate((r) => Math.round(r.getBoundingClientRect().height));
    const short = await rowHeight();
    await more().click();
    expect(await menu().getByRole('menuitemradio', { name: 'Short' }).getAttribute('aria-checked')).toBe('true');
    await shot(page, 'toolbar-phone-more-menu');
    await menu().getByRole('menuitemradio', { name: 'Tall' }).click();
    for (let i = 0; i < 50 && (await rowHeight()) <= short; i++) await page.waitForTimeout(100);
    expect(await rowHeight()).toBeGreaterThan(short);
    // Grouping by a column from the menu shows the groups.
    await more().click();
    await menu().getByRole('menuitemradio', { name: 'MediaTypeId' }).click();
    await page.getByRole('treegrid').waitFor();
    await more().click();
    await menu().getByRole('menuitemradio', { name: 'none' }).click();
    await page.getByRole('gridcell').first().waitFor();
  });

  browserTest('1700×900: every action is a button, no More menu', () => page, async () => {
    await openTrack(1700, 900);
    for (const name of ['Webhooks', 'Import', 'CSV', 'XLSX']) await page.getByRole('button', { name, exact: true }).waitFor();
    expect(await more().count()).toBe(0);
    expect((await toolbar()).heights.every((h) => h <= 40)).toBe(true);
  });
});
