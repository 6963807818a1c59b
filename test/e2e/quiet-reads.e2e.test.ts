/**
 * The page asks the server only what a change needs, in a real browser against the binary: a new
 * sort (from the toolbar or a column's menu), hidden fields and row heights keep the grid's row count
 * (no "counting…", no count asked), while a filter or a search counts again; a schema change made in
 * another tab reads the project's environments and the user's roles once each.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { addColumn, opInPage } from './views-helpers';

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'quiet reads': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('reads a change needs, no more', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let projectId = '';
  const tree = () => page.getByRole('navigation', { name: 'Project tree' });
  const count = () => page.getByTestId('row-count');
  /** The requests the page made, kept from the start. */
  const requests: Request[] = [];
  const since = (from: number, matches: (r: Request) => boolean) => requests.slice(from).filter(matches);
  const isCount = (r: Request) => new URL(r.url()).pathname.endsWith('/api/v1/Note/count');

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
    page = await context.newPage();
    page.on('request', (r) => void requests.push(r));
    await signUpInBrowser(page, tablo.url, 'quiet@example.com');
    const file = 'quiet_notes.sqlite';
    const db = new Database(join(tablo.dataDir, file), { create: true });
    db.run('CREATE TABLE note (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT)');
    for (const [i, t] of ['Groceries', 'Dentist', 'Taxes', 'Birthday', 'Holiday'].entries()) db.run('INSERT INTO note (id, title, body) VALUES (?, ?, ?)', [i + 1, t, `about ${t.toLowerCase()}`]);
    db.close();
    const made = await opInPage(page, 'projectCreateByWeb', { args: { title: 'Quiet', db: { client: 'sqlite', connection: { filename: file } } } });
    projectId = made.body.id;
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await tree().getByRole('button', { name: 'Note', exact: true }).click();
    await count().getByText('5 rows').waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('a new sort, fields or row height keep the row count; a filter or a search counts again', () => page, async () => {
    // Every text the row count shows from now on.
    await page.evaluate(() => {
      const w = window as unknown as { countTexts: string[] };
      w.countTexts = [document.querySelector('[data-testid="row-count"]')?.textContent ?? ''];
      const note = () => {
        const text = document.querySelector('[data-testid="row-count"]')?.textContent ?? '';
        if (w.countTexts.at(-1) !== text) w.countTexts.push(text);
      };
      new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const countTexts = () => page.evaluate(() => (window as unknown as { countTexts: string[] }).countTexts);
    const from = requests.length;
    // The toolbar's sort: Title descending.
    await page.getByRole('button', { name: '+ Sort' }).click();
    await page.getByLabel('Sort 1 column').selectOption('Title');
    await page.getByLabel('Sort 1 direction').selectOption('desc');
    await page.getByRole('row').nth(1).getByRole('gridcell', { name: 'Taxes', exact: true }).waitFor();
    // A column's menu: sort by Body ascending.
    await page.getByRole('button', { name: 'Column menu of Body' }).click();
    await page.getByRole('menu', { name: 'Column Body' }).getByRole('menuitem', { name: 'Sort ascending' }).click();
    await page.getByRole('row').nth(1).getByRole('gridcell', { name: 'Birthday', exact: true }).waitFor();
    // A field hidden, tall rows.
    await page.getByRole('button', { name: /^Fields/ }).click();
    await page.getByRole('dialog', { name: 'Show or hide fields' }).getByText('Body').click();
    await page.getByRole('button', { name: /^Fields/ }).click();
    await page.getByRole('columnheader', { name: /^Body/ }).waitFor({ state: 'detached' });
    await page.getByLabel('Row height').selectOption('tall');
    // The rows were read again for each sort, never counted: the footer held its number throughout.
    await page.waitForLoadState('networkidle');
    expect(since(from, (r) => new URL(r.url()).pathname.endsWith('/api/v1/Note')).length).toBeGreaterThanOrEqual(2);
    expect(since(from, isCount)).toHaveLength(0);
    expect(await countTexts()).toEqual(['5 rows']);
    expect(await count().textContent()).toBe('5 rows');
    await shot(page, 'quiet-reads-sorted');

    // A filter changes which rows there are: counted again.
    const beforeFilter = requests.length;
    await page.getByRole('button', { name: '+ Filter' }).click();
    await page.getByLabel('Filter 1 column').selectOption('Title');
    await page.getByLabel('Filter 1 operator').selectOption('like');
    await page.getByLabel('Filter 1 value').fill('a');
    await count().getByText('3 rows').waitFor();
    expect(since(beforeFilter, isCount).length).toBeGreaterThanOrEqual(1);
    // So does a search.
    const beforeSearch = requests.length;
    await page.getByLabel('Search').fill('Tax');
    await count().getByText('1 row').waitFor();
    expect(since(beforeSearch, isCount).length).toBeGreaterThanOrEqual(1);
    await page.getByLabel('Search').fill('');
    await page.getByRole('button', { name: 'Remove filter 1' }).click();
    await count().getByText('5 rows').waitFor();
  });

  browserTest('a column added in another tab reads the environments and the roles once each', () => page, async () => {
    const other = await context.newPage();
    await other.goto(`${tablo.url}/#/nc/${projectId}`);
    await other.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'Note', exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    const from = requests.length;
    await addColumn(other, projectId, 'note', { cn: 'due', uidt: 'Date' });
    // The open grid shows the new column: the page took the schema event.
    await page.getByRole('columnheader', { name: /^Due/ }).waitFor();
    await page.waitForLoadState('networkidle');
    const envReads = since(from, (r) => r.url().includes('sqlOp_projectEnvList'));
    const roleReads = since(from, (r) => new URL(r.url()).pathname === '/user/me' && new URL(r.url()).searchParams.get('project_id') === projectId);
    expect(envReads).toHaveLength(1);
    expect(roleReads).toHaveLength(1);
    await shot(page, 'quiet-reads-schema-event');
    await other.close();
  });
});
