/**
 * A table of several million rows in the grid: the scroll range is scaled past the browsers'
 * height limit, yet the first, the middle and the last rows are all reached by scrolling, at
 * their real height, fetching only the pages in view.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, startTablo, type RunningTablo, signUpInBrowser, dashboardCallInPage } from './helpers';

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'grid-scale': ${problem}`);
const ROWS = 3_000_000;

describe.skipIf(!!problem && !process.env.CI)('a grid of millions of rows', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let projectId = '';
  const dir = mkdtempSync(join(tmpdir(), 'tablo-e2e-big-'));
  const pageRequests: string[] = [];

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    const file = join(dir, 'big.sqlite');
    const db = new Database(file, { create: true });
    db.exec(`CREATE TABLE big (id INTEGER PRIMARY KEY, label TEXT NOT NULL);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
      INSERT INTO big (id, label) SELECT i, 'row ' || i FROM n;`);
    db.close();
    tablo = await startTablo({ NC_SQLITE_ALLOW_DIRS: dir });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1200, height: 800 } })).newPage();
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/Big?')) pageRequests.push(r.url());
    });
    await signUpInBrowser(page, tablo.url, 'big@example.com');
    const id: string = projectId = (await dashboardCallInPage(page, 'projectCreateByWeb', { args: { title: 'Big', db: { client: 'sqlite', connection: { filename: file } } } })).body.id;
    await page.goto(`${tablo.url}/#/nc/${id}?name=Big&dbalias=db&type=table`);
    await page.getByRole('gridcell', { name: 'row 1', exact: true }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const scrollToShare = (share: number) =>
    page.locator('.grid').evaluate((el, s) => (el.scrollTop = s * (el.scrollHeight - el.clientHeight)), share);

  browserTest('the last row is reached by scrolling to the end, the middle by scrolling half way', () => page, async () => {
    await page.getByTestId('row-count').getByText(`${ROWS} rows`).waitFor();
    const height = await page.locator('.grid').evaluate((el) => el.scrollHeight);
    // Capped: a plain 32 px per row would be 96 million px, more than any browser lays out.
    expect(height).toBeLessThan(20_000_000);

    await scrollToShare(1);
    await page.getByRole('gridcell', { name: `row ${ROWS}`, exact: true }).waitFor();
    await shot(page, 'grid-scale-end');
    const last = await page.getByRole('gridcell', { name: `row ${ROWS}`, exact: true }).boundingBox();
    const before = await page.getByRole('gridcell', { name: `row ${ROWS - 1}`, exact: true }).boundingBox();
    // Rows keep their real height next to each other.
    expect(Math.round(last!.y - before!.y)).toBe(32);

    await scrollToShare(0.5);
    const middle = page.getByRole('gridcell', { name: /^row 1500\d{3}$/ }).first();
    await middle.waitFor();
    const n = Number((await middle.textContent())!.replace('row ', ''));
    expect(Math.abs(n - ROWS / 2)).toBeLessThan(50);

    await scrollToShare(0);
    await page.getByRole('gridcell', { name: 'row 1', exact: true }).waitFor();
    // Only the pages in view were fetched, never the whole table.
    expect(pageRequests.length).toBeLessThan(12);
  });

  browserTest('arrow keys move through the scaled rows and keep the active row in view', () => page, async () => {
    await page.getByRole('gridcell', { name: 'row 2', exact: true }).click();
    for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowDown');
    const cell = page.getByRole('gridcell', { name: 'row 32', exact: true });
    await cell.waitFor();
    const box = await cell.boundingBox();
    expect(box!.y).toBeGreaterThan(0);
    expect(box!.y).toBeLessThan(800);
  });

  browserTest('a row scrolled to past the first thousand rows shows its comment count', () => page, async () => {
    expect((await dashboardCallInPage(page, 'commentCreate', { project_id: projectId, args: { tn: 'big', pk: '1250', body: 'checked' } })).status).toBe(200);
    // Down through the first pages, as a reader scrolling would (each page is read in turn).
    for (let row = 0; row <= 1240; row += 20) {
      await page.locator('.grid').evaluate((el, r) => (el.scrollTop = (r / 3_000_000) * (el.scrollHeight - el.clientHeight)), row);
      await page.waitForTimeout(30);
    }
    await page.getByRole('gridcell', { name: 'row 1250', exact: true }).waitFor();
    await page.getByRole('button', { name: '1 comment on row 1250', exact: true }).waitFor();
  });
});
