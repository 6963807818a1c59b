/**
 * A keyboard-only run: sign in, open a project and a table, edit a cell and open a menu without
 * touching the mouse (Tab, arrows, Enter and Escape only).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { chinookProject, until } from './views-helpers';

setDefaultTimeout(60_000);
const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'keyboard': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('keyboard only', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;

  /** Presses Tab (or shift+Tab, going back) until `target` has the focus (at most 250 times). */
  const tabTo = async (target: Locator, key = 'Tab') => {
    for (let i = 0; i < 250; i++) {
      if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
      await page.keyboard.press(key);
    }
    throw new Error(`Tab never reached ${target}`);
  };

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    const setup = await (await browser.newContext()).newPage();
    await signUpInBrowser(setup, tablo.url, 'keys@example.com');
    await chinookProject(setup, tablo, 'Chinook', 'tablo_t_e2e_keyboard');
    await setup.context().close();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 850 } })).newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('sign in, open a table, edit a cell and open a menu with the keyboard alone', () => page, async () => {
    await page.goto(`${tablo.url}/#/user/authentication/signin`);
    await tabTo(page.getByLabel('E-mail'));
    await page.keyboard.type('keys@example.com');
    await tabTo(page.getByLabel('Password'));
    await page.keyboard.type('password123');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/projects/);

    await tabTo(page.getByRole('link', { name: 'Chinook', exact: true }));
    await page.keyboard.press('Enter');
    const album = page.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'Album', exact: true });
    await album.waitFor();
    await tabTo(album);
    await page.keyboard.press('Enter');
    await page.getByRole('gridcell').first().waitFor();

    await tabTo(page.getByRole('grid'));
    await page.keyboard.press('ArrowDown'); // the first cell
    await page.keyboard.press('ArrowRight'); // Title of the first album
    await page.keyboard.press('Enter');
    const editor = page.getByLabel('Edit Title');
    await editor.waitFor();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Typed without a mouse');
    await page.keyboard.press('Enter');
    await page.getByText('Saved Title', { exact: true }).waitFor();
    await page.getByRole('gridcell', { name: 'Typed without a mouse' }).waitFor();
    // The rest of the row stays as it was, its related artist included.
    await page.getByRole('row').nth(1).getByText('AC/DC', { exact: true }).waitFor();

    // The ARIA grid pattern: counts and indexes, the active cell named by aria-activedescendant and
    // selected, one tab stop, and the navigation keys (End, ctrl+End, ctrl+Home, up to the headers).
    const grid = page.getByRole('grid');
    const activeCell = async () => {
      const id = await grid.getAttribute('aria-activedescendant');
      return id ? page.locator(`[id="${id}"]`) : null;
    };
    expect(await grid.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await grid.getAttribute('aria-rowcount')).toBe('348'); // 347 albums and the header row
    expect(Number(await grid.getAttribute('aria-colcount'))).toBeGreaterThan(3);
    expect(await page.getByRole('row').first().getAttribute('aria-rowindex')).toBe('1');
    expect(await page.getByRole('row').nth(1).getAttribute('aria-rowindex')).toBe('2');
    expect(await page.getByRole('row').nth(1).getByRole('rowheader').count()).toBe(1);
    let cell = (await activeCell())!;
    expect(await cell.getAttribute('role')).toBe('gridcell');
    expect(await cell.getAttribute('aria-selected')).toBe('true');
    expect(await cell.getAttribute('aria-colindex')).toBe('3');
    expect(await cell.textContent()).toBe('Typed without a mouse');
    expect(await page.getByRole('gridcell', { selected: true }).count()).toBe(1);
    // Nothing inside the grid is a tab stop of its own.
    expect(await grid.evaluate((el) => [...el.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]')].filter((x) => x.tabIndex >= 0).length)).toBe(0);
    // Up from the first row reaches the headers; Enter opens the column's menu, Esc gives the keys back.
    await page.keyboard.press('ArrowUp');
    expect(await (await activeCell())!.getAttribute('role')).toBe('columnheader');
    await page.keyboard.press('Enter');
    await page.getByRole('menu', { name: 'Column Title' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('menu', { name: 'Column Title' }).waitFor({ state: 'detached' });
    // The keys come back once the grid has the focus again (the menu gives it back as it closes).
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'grid');
    await page.keyboard.press('ArrowDown');
    expect(await (await activeCell())!.getAttribute('role')).toBe('gridcell');
    await page.keyboard.press('End');
    expect(await (await activeCell())!.getAttribute('aria-colindex')).toBe(String(Number(await grid.getAttribute('aria-colcount')) - 1));
    await page.keyboard.press('ControlOrMeta+End');
    await page.locator('[role="row"][aria-rowindex="348"]').waitFor();
    expect(await (await activeCell())!.locator('xpath=..').getAttribute('aria-rowindex')).toBe('348');
    await page.keyboard.press('ControlOrMeta+Home');
    // The first row is drawn again once the grid has scrolled back to the top.
    await page.locator('[role="row"][aria-rowindex="2"]').waitFor();
    expect(await until(async () => (await activeCell()) !== null, true, 5_000)).toBe(true);
    cell = (await activeCell())!;
    expect(await cell.getAttribute('aria-colindex')).toBe('2');
    expect(await cell.locator('xpath=..').getAttribute('aria-rowindex')).toBe('2');

    // Back up to the top bar: the grid lets shift+Tab out past its first column.
    await tabTo(page.getByRole('button', { name: 'Profile menu' }), 'Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Sign Out' }).waitFor();
    await shot(page, 'keyboard-menu');
    await page.keyboard.press('Escape');
    await page.getByRole('menuitem', { name: 'Sign Out' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('gridcell', { name: 'Typed without a mouse' }).count()).toBe(1);
  });
});
