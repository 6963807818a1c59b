/**
 * Import and export in the browser against the binary, on an embedded (SQLite) project: a CSV
 * becomes a new table from the tree (preview with detected types, a progress bar, the table in the
 * tree and the grid), then a file with a bad row goes into that table from the grid's Import
 * button (the row reported), and the grid's CSV button downloads the rows. A workbook's error cells
 * (#DIV/0!...) show in the preview as their error, and the rows they make reported are counted before the import.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, startTablo, type RunningTablo, signUpInBrowser, toolbarAction } from './helpers';
import { opInPage } from './views-helpers';

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'import': ${problem}`);

const ROWS = 60_000;
const CSV = 'Title;Amount;Day;Done\n' + Array.from({ length: ROWS }, (_, i) => `"Item ${i}; the ${i % 7}th";${i}.5;2024-03-${String((i % 28) + 1).padStart(2, '0')};${i % 2 ? 'yes' : 'no'}`).join('\n') + '\n';

describe.skipIf(!!problem && !process.env.CI)('import and export in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  const tree = () => page.getByRole('navigation', { name: 'Project tree' });

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 850 }, acceptDownloads: true })).newPage();
    await signUpInBrowser(page, tablo.url, 'import@example.com');
    await page.getByRole('button', { name: '+ New Project' }).first().click();
    await page.getByLabel('Project name').fill('Imports');
    await page.getByRole('button', { name: 'Create' }).click();
    // The new project opens at once.
    await page.getByText('Active Env').waitFor();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('a CSV becomes a new table: preview with types, progress, then the table in the tree and the grid', () => page, async () => {
    await tree().getByRole('button', { name: 'Import CSV, Excel or JSON as a new table' }).click();
    const dialog = page.getByRole('dialog', { name: /Import a CSV, Excel or JSON file/ });
    await dialog.getByLabel('File to import').setInputFiles({ name: 'Orders 2024.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await dialog.getByRole('region', { name: 'Preview' }).waitFor();
    expect(await dialog.getByLabel('Delimiter').inputValue()).toBe(';');
    expect(await dialog.getByLabel('New table name').inputValue()).toBe('orders_2024');
    expect(await dialog.getByLabel('Type of Amount').inputValue()).toBe('decimal');
    expect(await dialog.getByLabel('Type of Day').inputValue()).toBe('date');
    expect(await dialog.getByLabel('Type of Done').inputValue()).toBe('checkbox');
    expect(await dialog.getByRole('cell', { name: 'Item 1; the 1th' }).count()).toBe(1);
    await dialog.getByText('The first 20 rows; types detected from the first 1,000.').waitFor();
    await shot(page, 'import-preview');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const bar = dialog.getByRole('progressbar', { name: 'Import progress' });
    await bar.waitFor();
    // A shot while rows go in, when the import is slow enough to be seen running (not a check: it may end first).
    const midway = await dialog.getByTestId('import-counts').filter({ hasText: 'of about' }).waitFor({ timeout: 3000 }).then(() => true, () => false);
    await shot(page, midway ? 'import-progress' : 'import-progress-ended');
    await dialog.getByTestId('import-counts').filter({ hasText: `Imported ${ROWS.toLocaleString('en-US')} rows into` }).waitFor();
    expect(await bar.getAttribute('aria-valuenow')).toBe('100');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await tree().getByRole('button', { name: 'Orders2024', exact: true }).waitFor();
    await page.getByRole('tab', { name: /Orders2024/ }).waitFor();
    await page.getByTestId('row-count').filter({ hasText: `${ROWS} rows` }).waitFor();
    await page.getByRole('columnheader', { name: /Amount/ }).waitFor();
    // An imported row's history tells who imported it, when, and the values it came in with.
    await page.getByRole('row').nth(1).hover();
    await page.getByRole('button', { name: 'Expand row 1' }).click();
    const expanded = page.getByRole('dialog', { name: 'Expanded row' });
    await expanded.getByRole('tab', { name: 'History' }).click();
    const history = expanded.getByRole('list', { name: 'History' });
    await history.getByText('import@example.com created the row').waitFor();
    const created = history.getByRole('definition').filter({ hasText: 'Item 0; the 0th' });
    await created.waitFor();
    expect(await history.getByText('No changes recorded.').count()).toBe(0);
    await shot(page, 'import-row-history');
    await expanded.getByRole('button', { name: 'Close' }).click();
  }, 60_000);

  browserTest('rows go into the open table from its Import button, a bad row is reported; CSV export downloads the rows; a JSON file goes in too', () => page, async () => {
    await toolbarAction(page, 'Import');
    const dialog = page.getByRole('dialog', { name: 'Import into Orders2024' });
    const more = 'title,amount,extra\nfirst,1.25,x\nsecond,not a number,y\n';
    await dialog.getByLabel('File to import').setInputFiles({ name: 'more.csv', mimeType: 'text/csv', buffer: Buffer.from(more) });
    await dialog.getByRole('region', { name: 'Preview' }).waitFor();
    // Headers are matched to columns of the same name; the rest is skipped.
    expect(await dialog.getByLabel('Column for amount').inputValue()).toBe('amount');
    expect(await dialog.getByLabel('Column for extra').inputValue()).toBe('');
    // A file shorter than the preview is shown whole, and said so.
    await dialog.getByText('All 2 rows of the file; types detected from them.').waitFor();
    await shot(page, 'import-preview-short-file');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByTestId('import-counts').filter({ hasText: 'Imported 1 row into Orders2024; 1 row skipped' }).waitFor();
    await dialog.getByRole('cell', { name: 'not a number', exact: true }).waitFor();
    await shot(page, 'import-bad-row');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('row-count').filter({ hasText: `${ROWS + 1} rows` }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), toolbarAction(page, 'CSV')]);
    expect(download.suggestedFilename()).toBe('Orders2024.csv');
    const text = await (await download.createReadStream()).toArray().then((parts) => Buffer.concat(parts).toString('utf8'));
    expect(text.startsWith('\ufeffId,Title,Amount,Day,Done\r\n')).toBe(true);
    expect(text.trim().split('\r\n').length).toBe(ROWS + 2);
    // A JSON array of objects goes in the same way, its keys matched to the columns.
    await toolbarAction(page, 'Import');
    const json = JSON.stringify([{ title: 'from JSON', amount: 2.5 }, { title: 'also from JSON', amount: 3, done: true }]);
    await dialog.getByLabel('File to import').setInputFiles({ name: 'more.json', mimeType: 'application/json', buffer: Buffer.from(json) });
    await dialog.getByRole('region', { name: 'Preview' }).waitFor();
    await dialog.getByText('(86 B, JSON)').waitFor();
    expect(await dialog.getByLabel('Column for amount').inputValue()).toBe('amount');
    // A JSON file has neither sheets nor a delimiter to choose.
    expect(await dialog.getByLabel('Sheet').count()).toBe(0);
    expect(await dialog.getByLabel('Delimiter').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByTestId('import-counts').filter({ hasText: 'Imported 2 rows into Orders2024' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('row-count').filter({ hasText: `${ROWS + 3} rows` }).waitFor();
  }, 60_000);

  browserTest('an open import dialog closes when another project is opened by address, and stays closed on coming back', () => page, async () => {
    const here = /#\/nc\/([^?/]+)/.exec(page.url())![1]!;
    const other = (await opInPage(page, 'projectCreateByWeb', { args: { title: 'Elsewhere' } })).body.id as string;
    await toolbarAction(page, 'Import');
    const dialog = page.getByRole('dialog', { name: 'Import into Orders2024' });
    await dialog.waitFor();
    await page.goto(`${tablo.url}/#/nc/${other}`);
    await page.getByText('Elsewhere has no tables yet').waitFor();
    expect(await dialog.count()).toBe(0);
    await page.goto(`${tablo.url}/#/nc/${here}`);
    await tree().getByRole('button', { name: 'Orders2024', exact: true }).waitFor();
    await page.waitForTimeout(100);
    expect(await page.getByRole('dialog').count()).toBe(0);
  }, 60_000);

  browserTest("a workbook's error cells show in the preview as their error, marked, and the rows they make reported are counted before the import", () => page, async () => {
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sums');
    ws.addRow(['Name', 'Qty', 'Ratio', 'Note']);
    ws.addRow(['a', 1, 0.5, { error: '#REF!' }]);
    ws.addRow(['b', { error: '#DIV/0!' }, 0.25, 'x']);
    ws.addRow(['c', 3, { formula: '1/0', result: { error: '#DIV/0!' } }, 'x']);
    ws.addRow(['d', { error: '#N/A' }, 1, 'x']);
    ws.addRow(['e', 5, 2, 'x']);
    const buffer = Buffer.from(await wb.xlsx.writeBuffer());
    await tree().getByRole('button', { name: 'Import CSV, Excel or JSON as a new table' }).click();
    const dialog = page.getByRole('dialog', { name: /Import a CSV, Excel or JSON file/ });
    await dialog.getByLabel('File to import').setInputFiles({ name: 'sums.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer });
    await dialog.getByRole('region', { name: 'Preview' }).waitFor();
    // Each error cell shows its error, marked and explained, where it showed an empty cell.
    const divided = dialog.getByRole('cell', { name: 'Holds the error #DIV/0!: no value to import' });
    expect(await divided.allTextContents()).toEqual(['#DIV/0!', '#DIV/0!']);
    expect(await divided.first().getAttribute('class')).toContain('import-cell-error');
    expect(await dialog.getByRole('cell', { name: 'Holds the error #N/A: no value to import' }).textContent()).toBe('#N/A');
    expect(await dialog.getByRole('cell', { name: 'Holds the error #REF!: no value to import' }).textContent()).toBe('#REF!');
    // Before the import: how many rows will be reported instead of imported.
    const note = dialog.getByRole('note');
    expect(await note.textContent()).toBe('4 rows of the 5 rows read hold an error value (#DIV/0!, #N/A…) in a column to import: the import reports them as not fitting, instead of importing them.');
    await shot(page, 'import-preview-cell-errors');
    // Note left out: its #REF! no longer counts.
    await dialog.getByLabel('Type of Note').selectOption('skip');
    await note.filter({ hasText: /^3 rows of the 5 rows read/ }).waitFor();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByTestId('import-counts').filter({ hasText: /Imported 2 rows into \w+; 3 rows skipped/ }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
  }, 60_000);
});
