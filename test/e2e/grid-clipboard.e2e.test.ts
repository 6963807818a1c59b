/**
 * Ranges of cells in the grid against the binary: a 3×3 block copied (TSV on the clipboard) and
 * pasted elsewhere; a TSV block as a spreadsheet puts it on the clipboard pasted at the cursor, one
 * value that does not fit reported, the rows added past the end; one ctrl+z undoes the paste; the fill
 * handle drags a value down.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, startTablo, type RunningTablo } from './helpers';

setDefaultTimeout(40_000);
const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'grid clipboard': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('copy and paste of cell ranges', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let token = '';
  let projectId = '';
  const api = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await fetch(`${tablo.url}${path}`, { method: init.method ?? (init.body ? 'POST' : 'GET'), headers: { 'content-type': 'application/json', 'xc-auth': token }, body: init.body ? JSON.stringify(init.body) : undefined });
    return (await res.json()) as any;
  };
  const rows = async () => (await api(`/nc/${projectId}/api/v1/Item?limit=50&fields=Name,Qty,Note`)) as { Name: string; Qty: number | null; Note: string | null }[];

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    token = (await api('/auth/signup', { body: { email: 'sheet@example.com', password: 'password123' } })).token;
    projectId = (await api('/dashboard?q=sqlOp_projectCreateByWeb', { body: { api: 'projectCreateByWeb', args: { title: 'Sheet' } } })).id;
    const made = await api('/dashboard?q=sqlOpPlus_tableCreate', {
      body: { api: 'tableCreate', project_id: projectId, args: { tn: 'item', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'name', uidt: 'SingleLineText' }, { cn: 'qty', uidt: 'Number' }, { cn: 'note', uidt: 'SingleLineText' }, { cn: 'price', uidt: 'Currency' }, { cn: 'share', uidt: 'Percent' }] } },
    });
    if (made.msg) throw new Error(made.msg);
    await api(`/nc/${projectId}/api/v1/Item/bulk`, { body: Array.from({ length: 6 }, (_, i) => ({ Name: `item ${i + 1}`, Qty: i + 1, Note: `note ${i + 1}` })) });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: tablo.url });
    page = await context.newPage();
    await page.goto(`${tablo.url}/#/user/authentication/signin`);
    await page.getByLabel('E-mail').fill('sheet@example.com');
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/#\/projects/);
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.locator('.tree').getByRole('button', { name: 'Item', exact: true }).click();
    await page.getByRole('gridcell', { name: 'item 1', exact: true }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('a 3×3 block copied and pasted elsewhere', () => page, async () => {
    await page.getByRole('gridcell', { name: 'item 1', exact: true }).click();
    await page.getByRole('gridcell', { name: 'note 3', exact: true }).click({ modifiers: ['Shift'] });
    await page.keyboard.press('Control+c');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('item 1\t1\tnote 1\r\nitem 2\t2\tnote 2\r\nitem 3\t3\tnote 3');
    await page.getByRole('gridcell', { name: 'item 4', exact: true }).click();
    await page.keyboard.press('Control+v');
    await page.getByText('Pasted into 3 rows', { exact: true }).first().waitFor();
    expect((await rows()).map((r) => [r.Name, r.Qty, r.Note])).toEqual([
      ['item 1', 1, 'note 1'], ['item 2', 2, 'note 2'], ['item 3', 3, 'note 3'],
      ['item 1', 1, 'note 1'], ['item 2', 2, 'note 2'], ['item 3', 3, 'note 3'],
    ]);
    await shot(page, 'grid-pasted-block');
    await page.getByRole('gridcell', { name: 'item 1', exact: true }).nth(1).click();
    await page.keyboard.press('Control+z');
    await page.getByText('Undid pasting 3×3 cells').waitFor();
    expect((await rows()).slice(3).map((r) => r.Name)).toEqual(['item 4', 'item 5', 'item 6']);
  });

  browserTest('a TSV block from a spreadsheet: converted, a misfit reported, rows added past the end', () => page, async () => {
    await page.evaluate(() => navigator.clipboard.writeText('Pen\t10\tblue\nInk\tlots\tblack\nPaper\t3\t"A4, 80 g"'));
    await page.getByRole('gridcell', { name: 'item 5', exact: true }).click();
    await page.keyboard.press('Control+v');
    await page.getByText(/Pasted into 2 rows, added 1\. 1 value does not fit \(row 6 Qty 'lots': not a whole number\)/).waitFor();
    expect((await rows()).slice(4).map((r) => [r.Name, r.Qty, r.Note])).toEqual([['Pen', 10, 'blue'], ['Ink', 6, 'black'], ['Paper', 3, 'A4, 80 g']]);
  });

  browserTest('amounts and percentages pasted as a spreadsheet shows them ($1,234.50, 12.5%) go in as numbers', () => page, async () => {
    await page.evaluate(() => navigator.clipboard.writeText('$1,234.50\t12.5%\r\n-$3\t7 %\r\n'));
    const row = page.getByRole('row').filter({ has: page.getByRole('gridcell', { name: 'item 2', exact: true }) }).first();
    await row.getByRole('gridcell').nth(4).click();
    await page.keyboard.press('Control+v');
    await page.getByText('Pasted into 2 rows', { exact: true }).first().waitFor();
    const got = (await api(`/nc/${projectId}/api/v1/Item?limit=50&fields=Name,Price,Share`)) as { Name: string; Price: number | string | null; Share: number | string | null }[];
    expect(got.slice(1, 3).map((r) => [r.Name, Number(r.Price), Number(r.Share)])).toEqual([['item 2', 1234.5, 12.5], ['item 3', -3, 7]]);
  });

  browserTest('the fill handle drags a value down', () => page, async () => {
    await page.getByRole('gridcell', { name: 'note 1', exact: true }).first().click();
    const handle = page.locator('.fill-handle');
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + 3, box.y + 3);
    await page.mouse.down();
    const target = (await page.getByRole('gridcell', { name: 'note 3', exact: true }).first().boundingBox())!;
    await page.mouse.move(target.x + 20, target.y + 10, { steps: 5 });
    await page.mouse.up();
    await page.getByText('Filled 2 cells of Note').waitFor();
    expect((await rows()).slice(0, 3).map((r) => r.Note)).toEqual(['note 1', 'note 1', 'note 1']);
    await shot(page, 'grid-filled');
  });
});
