/**
 * Attachment cells in the browser against the binary (SQLite, a 2,000-byte attachment limit):
 * several files picked at once, one of them too large, upload the others and the cell shows them;
 * the toast names the file left out and the limit. An Attachment cell copied and pasted into another
 * row gives that row files of its own, which open from it. A file is removed with its × (Undo in the
 * toast puts it back).
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { opInPage, restInPage, until } from './views-helpers';

/** A 1x1 PNG image. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'attachments': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('attachments in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let projectId = '';

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo({ NC_ATTACHMENT_MAX_BYTES: '2000' });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: tablo.url });
    page = await context.newPage();
    await signUpInBrowser(page, tablo.url, 'files@example.com');
    const made = await opInPage(page, 'projectCreateByWeb', { args: { title: 'Files', inflectionColumn: 'none' } });
    projectId = made.body.id;
    const table = await opInPage(page, 'tableCreate', {
      project_id: projectId,
      plus: true,
      args: { tn: 'doc', _tn: 'Docs', columns: [{ cn: 'id', uidt: 'ID', pk: true, ai: true }, { cn: 'title', uidt: 'SingleLineText' }, { cn: 'files', uidt: 'Attachment' }] },
    });
    if (table.status !== 200) throw new Error(JSON.stringify(table.body));
    for (const title of ['first', 'second']) await restInPage(page, projectId, 'POST', 'doc', { title });
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'Docs', exact: true }).click();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('several files picked at once, one too large: the others go in, the toast names the one left out', () => page, async () => {
    const cell = page.getByTestId('attachments-files-1');
    await cell.waitFor();
    await cell.locator('input[type=file]').setInputFiles([
      { name: 'notes one.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') },
      { name: 'scan ü.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(5000) },
      { name: 'dot.png', mimeType: 'image/png', buffer: PNG },
    ]);
    await page.locator('.toast').getByText("'scan ü.bin' (4.9 KB) was not uploaded: a file may have up to 2.0 KB.").waitFor();
    await shot(page, 'attachments-too-large');
    await cell.getByRole('button', { name: 'notes one.txt', exact: true }).waitFor();
    await cell.getByRole('img', { name: 'dot.png' }).waitFor();
    const titles = async () => ((await restInPage(page, projectId, 'GET', 'doc/1')).body.files ?? []).map((f: { title: string }) => f.title).join(',');
    expect(await until(titles, 'notes one.txt,dot.png')).toBe('notes one.txt,dot.png');
  });

  browserTest('an Attachment cell copied and pasted into another row: the files open from that row', () => page, async () => {
    const from = page.getByTestId('attachments-files-1');
    await from.getByRole('button', { name: 'notes one.txt', exact: true }).waitFor();
    const cellOf = (row: number) => page.getByRole('gridcell').filter({ has: page.getByTestId(`attachments-files-${row}`) });
    await cellOf(1).click({ position: { x: 165, y: 16 } });
    await page.keyboard.press('Control+c');
    await cellOf(2).click({ position: { x: 165, y: 16 } });
    await page.keyboard.press('Control+v');
    await page.getByText('Pasted into 1 row', { exact: true }).first().waitFor();
    const to = page.getByTestId('attachments-files-2');
    const [opened] = await Promise.all([page.context().waitForEvent('page'), to.getByRole('button', { name: 'notes one.txt', exact: true }).click()]);
    await opened.waitForLoadState();
    expect(await opened.locator('body').innerText()).toBe('hello');
    await opened.close();
    await to.getByRole('img', { name: 'dot.png' }).waitFor();
    const ids = async (row: number) => ((await restInPage(page, projectId, 'GET', `doc/${row}`)).body.files as { id: string }[]).map((f) => f.id);
    const [one, two] = [await ids(1), await ids(2)];
    expect(two).toHaveLength(2);
    expect(two.some((id) => one.includes(id))).toBe(false);
    await shot(page, 'attachments-pasted');
  });

  browserTest('a file removed from a cell with its ×, then put back with Undo', () => page, async () => {
    const cell = page.getByTestId('attachments-files-2');
    await cell.getByRole('button', { name: 'notes one.txt', exact: true }).waitFor();
    await page.getByRole('gridcell').filter({ has: cell }).hover();
    await cell.getByRole('button', { name: 'Remove notes one.txt' }).click();
    const toast = page.locator('.toast').filter({ hasText: 'notes one.txt removed' });
    await toast.waitFor();
    await cell.getByRole('button', { name: 'notes one.txt', exact: true }).waitFor({ state: 'detached' });
    const titles = async () => ((await restInPage(page, projectId, 'GET', 'doc/2')).body.files as { title: string }[]).map((f) => f.title).join(',');
    expect(await until(titles, 'dot.png')).toBe('dot.png');
    await toast.getByRole('button', { name: 'Undo' }).click();
    expect(await until(titles, 'notes one.txt,dot.png')).toBe('notes one.txt,dot.png');
  });
});
