/**
 * Typed columns in the browser against the binary: add Currency, Rating, Duration and select
 * columns with their options from the add-column form, enter a row, and see the values formatted
 * (currency with its code, stars, h:mm, coloured chips); set a rating by clicking a star and
 * change a duration by typing h:mm. The add-row form asks for each by type (stars, the currency's
 * sign), and the row's history shows the values as the grid does.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, startTablo, type RunningTablo, signUpInBrowser } from './helpers';

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'column types': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('typed columns in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  const tree = () => page.getByRole('navigation', { name: 'Project tree' });
  const confirm = () => page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Submit' }) });

  async function submitChange() {
    const dialog = confirm();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.waitFor({ state: 'detached' });
  }

  /** Picks a column type (by the name the picker shows) in the column form's type select. */
  async function pickType(form: ReturnType<Page['getByRole']>, label: string) {
    await form.getByRole('button', { name: /Column type$/ }).click();
    await page.getByRole('listbox').getByRole('option', { name: label, exact: true }).click();
  }

  /** Adds a column through the add-column form, filling its type options. */
  async function addColumn(name: string, type: string, fill: (form: ReturnType<Page['getByRole']>) => Promise<void>) {
    await page.getByRole('button', { name: '+ Add column' }).click();
    const form = page.getByRole('dialog', { name: 'Add column' });
    await form.getByLabel('Column name').fill(name);
    await pickType(form, type);
    await fill(form);
    await form.getByRole('button', { name: 'Save' }).click();
    await submitChange();
    await page.getByRole('columnheader', { name: new RegExp(`^${name}`) }).waitFor();
  }

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1400, height: 850 }, locale: 'en-US' });
    page = await context.newPage();
    await signUpInBrowser(page, tablo.url, 'types@example.com');
    await page.getByRole('button', { name: '+ New Project' }).first().click();
    await page.getByLabel('Project name').fill('Travel');
    await page.getByRole('button', { name: 'Create' }).click();
    // The new project opens.
    await page.getByText('Active Env').waitFor();
    await tree().getByRole('button', { name: 'Create table' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create table' });
    await dialog.getByLabel('Table name').fill('Trips');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await submitChange();
    await page.getByRole('tab', { name: /Trips/ }).waitFor();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('the add-column form offers the options of the chosen type', () => page, async () => {
    await addColumn('Price', 'Currency', async (form) => {
      expect(await form.getByRole('combobox', { name: 'Currency', exact: true }).inputValue()).toBe('USD');
      await form.getByRole('combobox', { name: 'Currency', exact: true }).selectOption('EUR');
      await form.getByLabel('Decimal places').fill('2');
      await shot(page, 'column-types-currency-form');
    });
    await addColumn('Stars', 'Rating', async (form) => {
      await form.getByLabel('Maximum rating').selectOption('5');
      expect(await form.getByLabel('Icon').inputValue()).toBe('star');
    });
    await addColumn('Time', 'Duration', async (form) => {
      expect(await form.getByLabel('Duration format').inputValue()).toBe('h:mm');
    });
    await addColumn('Kind', 'Single select', async (form) => {
      await form.getByLabel('New option').fill('city, beach');
      await form.getByRole('button', { name: 'Add option' }).click();
      await form.getByLabel('Colour of city').fill('#ffb4b4');
      await shot(page, 'column-types-select-form');
    });
  }, 90_000);

  browserTest('values are shown by type: currency, stars, h:mm, chips', () => page, async () => {
    await page.getByRole('button', { name: '+ Add row' }).click();
    const form = page.getByRole('form', { name: 'Add row' });
    await form.getByLabel(/^Title/).fill('Paris');
    // The currency shows its sign beside the number; the rating is its stars.
    expect(await form.locator('.field-sign').textContent()).toBe('€');
    await form.getByLabel(/^Price/).fill('1234.5');
    await form.getByRole('radiogroup', { name: 'Stars' }).getByRole('radio', { name: 'Rate 4 of 5' }).locator('..').click();
    await form.getByLabel(/^Time/).fill('1:30');
    // The choices are the column's coloured chips, picked in a list.
    await form.getByRole('button', { name: /Kind$/ }).click();
    await page.getByRole('listbox', { name: /^Kind/ }).getByRole('option', { name: 'city' }).click();
    expect(await form.locator('.choice-pick .chip').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 180, 180)');
    await shot(page, 'column-types-add-row-form');
    await form.getByRole('button', { name: 'Save row' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('gridcell', { name: '€1,234.50' }).waitFor();
    await page.getByRole('gridcell', { name: '1:30', exact: true }).waitFor();
    await page.getByRole('group', { name: 'Stars: 4 of 5' }).waitFor();
    const chip = page.getByRole('gridcell').locator('.chip', { hasText: 'city' });
    expect(await chip.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 180, 180)');
    await shot(page, 'column-types-grid');
  }, 60_000);

  browserTest('a star click sets the rating; a duration is typed as h:mm', () => page, async () => {
    await page.getByRole('button', { name: 'Rate 5 of 5' }).click();
    await page.getByRole('group', { name: 'Stars: 5 of 5' }).waitFor();
    await page.getByRole('gridcell', { name: '1:30', exact: true }).dblclick();
    const input = page.getByLabel('Edit Time');
    expect(await input.inputValue()).toBe('1:30');
    await input.fill('2:15');
    await input.press('Enter');
    await page.getByRole('gridcell', { name: '2:15', exact: true }).waitFor();
    // A bad duration is refused naming the column, and the value stays.
    await page.getByRole('gridcell', { name: '2:15', exact: true }).dblclick();
    await page.getByLabel('Edit Time').fill('soon');
    await page.getByLabel('Edit Time').press('Enter');
    await page.getByText(/Column 'Time'/).first().waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('gridcell', { name: '2:15', exact: true }).waitFor();
    await shot(page, 'column-types-edited');
  }, 60_000);

  browserTest('multi select choices are ticked in the cell; attachments show as links', () => page, async () => {
    await addColumn('Tags', 'Multi select', async (form) => {
      await form.getByLabel('New option').fill('food, art, sea');
      await form.getByRole('button', { name: 'Add option' }).click();
    });
    await addColumn('Files', 'Attachment', async (form) => {
      await form.getByLabel('Maximum files').fill('2');
    });
    const row = page.getByRole('row').filter({ hasText: 'city' });
    const headers = await page.getByRole('columnheader').allTextContents();
    await row.getByRole('gridcell').nth(headers.findIndex((h) => h.startsWith('Tags'))).dblclick();
    const pop = page.getByRole('group', { name: 'Edit Tags' });
    await pop.getByRole('option', { name: 'food' }).click();
    await pop.getByRole('option', { name: 'sea' }).click();
    expect(await pop.getByRole('option', { selected: true }).allTextContents()).toEqual(['✓food', '✓sea']);
    await shot(page, 'column-types-multi-select');
    await pop.getByRole('button', { name: 'Save' }).click();
    await row.locator('.chip', { hasText: 'sea' }).waitFor();
    expect(await row.locator('.chip').allTextContents()).toEqual(['city', 'food', 'sea']);

    await page.getByRole('button', { name: '+ Add row' }).click();
    const form = page.getByRole('form', { name: 'Add row' });
    await form.getByLabel(/^Title/).fill('Rome');
    await form.getByLabel(/^Files/).fill('[{"url":"https://example.com/docs/map.pdf"},{"url":"https://example.com/b.png"},{"url":"https://example.com/c.png"}]');
    await form.getByRole('button', { name: 'Save row' }).click();
    await form.getByRole('alert').filter({ hasText: "Column 'Files' holds at most 2 files" }).waitFor();
    await form.getByLabel(/^Files/).fill('[{"url":"https://example.com/docs/map.pdf"},{"path":"uploads/ticket.png","title":"Ticket"}]');
    await form.getByRole('button', { name: 'Save row' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: /map\.pdf/ }).waitFor();
    // A file chosen in the add-row form is uploaded at once and joins the link typed beside it.
    await page.getByRole('button', { name: '+ Add row' }).click();
    await form.getByLabel(/^Title/).fill('Oslo');
    await form.getByLabel(/^Files/).fill('{"url":"https://example.com/oslo.pdf"}');
    await form.getByRole('button', { name: 'Choose files for Files' }).waitFor();
    await form.locator('input[type=file]').setInputFiles([{ name: 'fjord.txt', mimeType: 'text/plain', buffer: Buffer.from('a fjord') }]);
    const chosen = form.getByRole('list', { name: 'Files chosen for Files' });
    await chosen.getByRole('listitem').filter({ hasText: 'fjord.txt' }).waitFor();
    await chosen.locator('progress').waitFor({ state: 'detached' });
    await shot(page, 'column-types-add-row-file');
    await form.getByRole('button', { name: 'Save row' }).click();
    await form.waitFor({ state: 'detached' });
    const oslo = page.getByRole('row').filter({ hasText: 'Oslo' });
    await oslo.getByText('fjord.txt').waitFor();
    await oslo.getByRole('link', { name: /oslo\.pdf/ }).waitFor();
    expect(await page.getByRole('link', { name: /map\.pdf/ }).getAttribute('href')).toBe('https://example.com/docs/map.pdf');
    await page.getByText('Ticket').waitFor();
    await page.getByText('Ticket').scrollIntoViewIfNeeded();
    await shot(page, 'column-types-files');
  }, 60_000);

  browserTest('typing on a selected date, time or choice cell keeps the first keystroke; a JSON string keeps its quotes; Enter without a change writes nothing', () => page, async () => {
    await addColumn('Day', 'Date', async () => {});
    await addColumn('Clock', 'Time', async () => {});
    await addColumn('Meta', 'JSON', async () => {});
    const row = page.getByRole('row').filter({ hasText: 'Paris' });
    /** The Paris row's cell of a column (by the header's column index: columns off screen are not drawn). */
    const cellOf = async (name: string) => {
      const header = page.getByRole('columnheader', { name: new RegExp(`^${name}`) });
      // Columns far right are drawn once the grid is scrolled there.
      if (!(await header.count())) await page.getByRole('grid').evaluate((el) => el.scrollBy({ left: el.scrollWidth }));
      await header.scrollIntoViewIfNeeded();
      return row.locator(`[role="gridcell"][aria-colindex="${await header.getAttribute('aria-colindex')}"]`);
    };
    // A date typed on the cell is text, read in the language's order too (month first in English).
    await (await cellOf('Day')).click();
    await page.keyboard.type('12252025');
    await page.keyboard.press('Enter');
    await row.getByRole('gridcell', { name: '2025-12-25' }).waitFor();
    // A time cell opened by typing is text, checked by the server: 1130 is refused, 11:30 kept.
    await (await cellOf('Clock')).click();
    await page.keyboard.type('1130');
    await page.keyboard.press('Enter');
    await page.getByText(/Column 'Clock': "1130" is not a time/).first().waitFor();
    await page.keyboard.press('Escape');
    await (await cellOf('Clock')).click();
    await page.keyboard.type('11:30');
    await page.keyboard.press('Enter');
    await row.getByRole('gridcell', { name: /^11:30/ }).waitFor();
    // A letter on a choice cell picks the first choice it starts.
    await (await cellOf('Kind')).click();
    await page.keyboard.type('b');
    await page.keyboard.press('Enter');
    await row.locator('.chip', { hasText: 'beach' }).waitFor();
    // A JSON string is edited with its quotes and saves unchanged (it was refused as invalid JSON).
    const saved = () => page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/api/v1/'));
    await (await cellOf('Meta')).dblclick();
    await page.getByLabel('Edit Meta').fill('"123"');
    let answer = saved();
    await page.getByLabel('Edit Meta').press('Enter');
    expect((await answer).status()).toBe(200);
    expect((await (await answer).json()).Meta).toBe('123');
    await (await cellOf('Meta')).dblclick();
    expect(await page.getByLabel('Edit Meta').inputValue()).toBe('"123"');
    await page.getByLabel('Edit Meta').fill('"456"');
    answer = saved();
    await page.getByLabel('Edit Meta').press('Enter');
    expect((await answer).status()).toBe(200);
    expect((await (await answer).json()).Meta).toBe('456');
    // Enter on an editor left as it opened writes nothing (a duration's seconds under h:mm stay).
    let puts = 0;
    const count = (r: { method(): string }) => void (r.method() === 'PUT' && puts++);
    page.on('request', count);
    await page.getByRole('gridcell', { name: '2:15', exact: true }).dblclick();
    await page.getByLabel('Edit Time').press('Enter');
    await page.getByLabel('Edit Time').waitFor({ state: 'detached' });
    await page.waitForTimeout(300);
    page.off('request', count);
    expect(puts).toBe(0);
    await shot(page, 'column-types-typed');
  }, 90_000);

  browserTest('the row history shows values as the grid does: h:mm, currency, stars, chips, a ticked checkbox', () => page, async () => {
    await addColumn('Booked', 'Checkbox', async () => {});
    const row = page.getByRole('row').filter({ hasText: 'Paris' });
    // The grid's checkbox is ticked once the server has the change.
    await row.getByRole('checkbox', { name: 'Booked', exact: true }).click();
    await row.locator('input[aria-label="Booked"]:checked').waitFor();
    // The price is changed in the expanded row, whose field shows the currency's sign.
    await row.hover();
    await row.getByRole('button', { name: /^Expand row/ }).click();
    const expanded = page.getByRole('dialog', { name: 'Expanded row' });
    expect(await expanded.locator('.field-sign').textContent()).toBe('€');
    await expanded.getByLabel(/Price$/).fill('99');
    await expanded.getByRole('button', { name: 'Save' }).click();
    await expanded.waitFor({ state: 'detached' });
    await row.hover();
    await row.getByRole('button', { name: /^Expand row/ }).click();
    await expanded.getByRole('tab', { name: 'History' }).click();
    const history = expanded.getByRole('list', { name: 'History' });
    const entry = (column: string) => history.getByRole('listitem').filter({ hasText: `changed ${column} from` }).first();
    await entry('Time').waitFor();
    expect(await entry('Time').textContent()).toContain('changed Time from 1:30 to 2:15');
    expect(await entry('Price').textContent()).toContain('changed Price from €1,234.50 to €99.00');
    await entry('Stars').getByRole('group', { name: 'Stars: 4 of 5' }).waitFor();
    await entry('Stars').getByRole('group', { name: 'Stars: 5 of 5' }).waitFor();
    expect(await entry('Kind').locator('.chip').allTextContents()).toEqual(['city', 'beach']);
    expect(await entry('Day').textContent()).toContain('changed Day from empty to 2025-12-25');
    expect(await entry('Booked').textContent()).toMatch(/changed Booked from (empty|unchecked) to checked$/);
    await entry('Booked').scrollIntoViewIfNeeded();
    await shot(page, 'column-types-history');
    await page.keyboard.press('Escape');
  }, 60_000);
});
