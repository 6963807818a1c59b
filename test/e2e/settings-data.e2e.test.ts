/**
 * The settings dialog's Data tab, in a real browser against the binary: filters apply as they change
 * (the default) in a gallery, with the focus kept in the field being typed; switched off, the grid's
 * filters wait for Enter or Apply; many-to-many link tables are listed in the tree when asked. Both
 * choices are kept after a reload.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { chinookProject } from './views-helpers';

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'settings-data': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('the Data settings', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let projectId = '';
  const tree = () => page.getByRole('navigation', { name: 'Project tree' });
  const drawer = () => page.getByRole('complementary', { name: 'Views' });
  const settings = () => page.getByRole('dialog', { name: 'Settings' });
  const openDataSettings = async () => {
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Themes' }).click();
    await settings().getByRole('tab', { name: 'Data' }).click();
  };
  const closeSettings = () => settings().getByRole('button', { name: 'Close' }).click();

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 850 } })).newPage();
    await signUpInBrowser(page, tablo.url, 'data-settings@example.com');
    projectId = await chinookProject(page, tablo, 'Chinook', 'tablo_t_e2e_settings_data');
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await tree().getByRole('button', { name: 'Artist', exact: true }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('a gallery filter applies as it is typed, and the field keeps the focus', () => page, async () => {
    await tree().getByRole('button', { name: 'Artist', exact: true }).click();
    await drawer().getByRole('button', { name: 'Gallery', exact: true }).click();
    await page.getByRole('dialog').getByLabel('View name').fill('Artists');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('view-title').getByText('Artists').waitFor();
    const cards = page.getByRole('list', { name: 'Gallery' }).getByRole('listitem');
    await cards.nth(10).waitFor();
    await page.getByRole('button', { name: '+ Filter' }).click();
    await page.getByLabel('Filter 1 column').selectOption('Name');
    const value = page.getByLabel('Filter 1 value');
    await value.fill('AC/D');
    await value.pressSequentially('C');
    // No Apply (none is shown while filters apply by themselves): one card once the filter applied by itself.
    expect(await page.getByRole('button', { name: 'Apply', exact: true }).count()).toBe(0);
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Gallery"] [role="listitem"]').length === 1);
    expect(await cards.first().textContent()).toContain('AC/DC');
    // The bar was not drawn anew under the typing: the value field still has the focus and its text.
    expect(await value.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await value.inputValue()).toBe('AC/DC');
    await value.pressSequentially('x');
    await page.getByText('No records').waitFor();
    expect(await value.evaluate((el) => el === document.activeElement)).toBe(true);
    await shot(page, 'settings-data-gallery-filter');
  });

  browserTest('switched off, grid filters wait for Enter; the choice is kept after a reload', () => page, async () => {
    await openDataSettings();
    const auto = settings().getByRole('switch', { name: 'Apply filters as they change' });
    expect(await auto.isChecked()).toBe(true);
    await auto.click({ force: true });
    expect(await auto.isChecked()).toBe(false);
    await shot(page, 'settings-data-tab');
    await closeSettings();
    await page.reload();
    await tree().getByRole('button', { name: 'Genre', exact: true }).click();
    await page.getByTestId('row-count').getByText('25 rows').waitFor();
    await page.getByRole('button', { name: '+ Filter' }).click();
    await page.getByLabel('Filter 1 column').selectOption('Name');
    await page.getByLabel('Filter 1 value').fill('Rock');
    // Longer than the 300 ms the filter would wait if it applied by itself.
    await page.waitForTimeout(1000);
    expect(await page.getByTestId('row-count').textContent()).toBe('25 rows');
    await page.getByLabel('Filter 1 value').press('Enter');
    await page.getByTestId('row-count').getByText('1 row', { exact: true }).waitFor();
    // Waiting filters have their Apply button; with the where text open it is there in either mode.
    await page.getByRole('button', { name: 'Apply', exact: true }).waitFor();
    await openDataSettings();
    expect(await settings().getByRole('switch', { name: 'Apply filters as they change' }).isChecked()).toBe(false);
    await settings().getByRole('switch', { name: 'Apply filters as they change' }).click({ force: true });
    await closeSettings();
  });

  browserTest('many-to-many link tables are listed in the tree when asked, and the choice is kept', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await tree().getByRole('button', { name: 'Artist', exact: true }).waitFor();
    expect(await tree().getByRole('button', { name: 'PlaylistTrack', exact: true }).count()).toBe(0);
    await tree().getByText('+1 link table').waitFor();
    await openDataSettings();
    await settings().getByRole('switch', { name: 'Show many-to-many link tables in the tree' }).click({ force: true });
    await closeSettings();
    await tree().getByRole('button', { name: 'PlaylistTrack', exact: true }).waitFor();
    expect(await tree().getByText('+1 link table').count()).toBe(0);
    await page.reload();
    await tree().getByRole('button', { name: 'PlaylistTrack', exact: true }).waitFor();
    await tree().getByRole('button', { name: 'PlaylistTrack', exact: true }).click();
    await page.getByRole('tab', { name: /PlaylistTrack/ }).waitFor();
    await page.getByTestId('row-count').getByText('8715 rows').waitFor();
    await shot(page, 'settings-data-link-tables');
  });
});
