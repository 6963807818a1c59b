/**
 * Presence in two browsers against the binary: an owner and an editor of one project; the owner's
 * open table shows the editor's avatar (initials, named by the e-mail, in the "Also here" group) when
 * the editor opens the same table, and it goes when the editor switches to another tab or closes the
 * page. Both see each other. A cell the owner is editing that the editor changes meanwhile says so in
 * the editor, and the owner's typed text stays; it stays on its row when a row added before it moves it, and
 * closes, saying so, when its row is deleted. The expanded row follows the editor's changes: silently
 * without unsaved edits; with them, a notice names who changed which fields and offers to reload the
 * row's values or keep one's own (a save then writes only the fields edited there). The active cell
 * stays on its column when a column is added before it.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, startTablo, type RunningTablo } from './helpers';
import { loadChinook } from '../helpers/engines';

setDefaultTimeout(40_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'presence': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('presence in two browsers', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let owner: Page;
  let editorContext: BrowserContext;
  let editor: Page;
  let projectId = '';
  let ownerToken = '';
  let adaToken = '';

  const call = async (path: string, body: unknown) => {
    const res = await fetch(`${tablo.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'xc-auth': ownerToken }, body: JSON.stringify(body) });
    return (await res.json().catch(() => null)) as any;
  };
  const signIn = async (email: string) => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // The page's websockets, so a test can drop them.
    await context.addInitScript(() => {
      const Real = WebSocket;
      const sockets: WebSocket[] = ((window as unknown as { __sockets: WebSocket[] }).__sockets = []);
      window.WebSocket = class extends Real {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          sockets.push(this);
        }
      } as typeof WebSocket;
    });
    const page = await context.newPage();
    await page.goto(`${tablo.url}/#/user/authentication/signin`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/#\/projects/);
    return { context, page };
  };
  const openTable = async (page: Page, name: string, cell: string) => {
    await page.locator('.tree').getByRole('button', { name, exact: true }).click();
    await page.getByRole('gridcell', { name: cell, exact: true }).first().waitFor();
  };
  const alsoHere = (page: Page) => page.getByRole('group', { name: /^Also here:/ });

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    ownerToken = (await fetch(`${tablo.url}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@example.com', password: 'password123' }) }).then((r) => r.json()) as any).token;
    const cfg = await loadChinook('sqlite', 'tablo_t_e2e_presence');
    await Bun.write(join(tablo.dataDir, 'chinook.sqlite'), Bun.file(cfg.connection.filename!));
    projectId = (await call('/dashboard?q=sqlOp_projectCreateByWeb', { api: 'projectCreateByWeb', args: { title: 'Music', db: { client: 'sqlite', connection: { filename: 'chinook.sqlite' } } } })).id;
    const invite = await call('/admin', { email: 'ada.lovelace@example.com', roles: 'editor', project_id: projectId });
    adaToken = (await call('/auth/signup', { email: 'ada.lovelace@example.com', password: 'password123', token: String(invite.invite_url).split('/signup/')[1] })).token;
    browser = await launchBrowser();
    owner = (await signIn('owner@example.com')).page;
    ({ context: editorContext, page: editor } = await signIn('ada.lovelace@example.com'));
    await owner.goto(`${tablo.url}/#/nc/${projectId}`);
    await openTable(owner, 'Customer', 'Luís');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('the other member appears when they open the same table and goes when they leave it', () => owner, async () => {
    // Alone: no avatars.
    expect(await alsoHere(owner).count()).toBe(0);

    await editor.goto(`${tablo.url}/#/nc/${projectId}`);
    await openTable(editor, 'Customer', 'Luís');
    const ada = alsoHere(owner).getByRole('img', { name: 'ada.lovelace@example.com' });
    await ada.waitFor();
    expect(await ada.textContent()).toBe('AL');
    expect(await ada.getAttribute('title')).toBe('ada.lovelace@example.com');
    expect(await alsoHere(owner).getAttribute('aria-label')).toBe('Also here: ada.lovelace@example.com');
    await alsoHere(editor).getByRole('img', { name: 'owner@example.com' }).waitFor();
    await shot(owner, 'presence-owner-sees-editor');
    await shot(editor, 'presence-editor-sees-owner');

    // The editor switches to another table: gone from the owner's Customer; alone on Album.
    await openTable(editor, 'Album', 'For Those About To Rock We Salute You');
    await ada.waitFor({ state: 'detached' });
    expect(await alsoHere(editor).count()).toBe(0);

    // Back to the Customer tab, then the page closes.
    await editor.getByRole('tab', { name: /Customer/ }).click();
    await ada.waitFor();
    await editorContext.close();
    await ada.waitFor({ state: 'detached' });
    await shot(owner, 'presence-alone-again');
  });

  browserTest("a cell changed by someone else while it is being edited says so in the editor", () => owner, async () => {
    await owner.getByRole('gridcell', { name: 'Leonie', exact: true }).first().dblclick();
    const input = owner.getByLabel('Edit FirstName');
    await input.fill('Leonora');
    const res = await fetch(`${tablo.url}/nc/${projectId}/api/v1/Customer/2`, { method: 'PUT', headers: { 'content-type': 'application/json', 'xc-auth': adaToken }, body: JSON.stringify({ FirstName: 'Leni' }) });
    expect(res.status).toBe(200);
    const notice = owner.getByRole('alert').filter({ hasText: 'Changed by ada.lovelace@example.com while you edit (now: Leni)' });
    await notice.waitFor();
    expect(await input.inputValue()).toBe('Leonora');
    await shot(owner, 'presence-changed-while-editing');
    // Esc keeps the other's value; the notice goes with the editor.
    await input.press('Escape');
    await notice.waitFor({ state: 'detached' });
    await owner.getByRole('gridcell', { name: 'Leni', exact: true }).first().waitFor();
  });

  browserTest("the note under a cell at the grid's right edge stays inside the grid", () => owner, async () => {
    // The first column the grid does not show whole: a cell of it opened scrolls it to the right edge.
    const column = await owner.evaluate(() => {
      const grid = document.querySelector('.grid')!;
      const right = grid.getBoundingClientRect().left + grid.clientLeft + grid.clientWidth;
      const head = [...grid.querySelectorAll('[role=columnheader][aria-colindex]')].find((h) => h.getBoundingClientRect().right > right + 1)!;
      return { index: head.getAttribute('aria-colindex')!, name: head.querySelector('.grid-th-name')!.textContent!.trim() };
    });
    const row = owner.getByRole('row').filter({ has: owner.getByRole('gridcell', { name: 'Bjørn', exact: true }) });
    await row.locator(`[role=gridcell][aria-colindex="${column.index}"]`).dblclick();
    const input = owner.getByLabel(`Edit ${column.name}`);
    await input.fill('Mine');
    const res = await fetch(`${tablo.url}/nc/${projectId}/api/v1/Customer/4`, { method: 'PUT', headers: { 'content-type': 'application/json', 'xc-auth': adaToken }, body: JSON.stringify({ [column.name]: 'Theirs' }) });
    expect(res.status).toBe(200);
    const notice = owner.getByRole('alert').filter({ hasText: 'Changed by ada.lovelace@example.com while you edit (now: Theirs)' });
    await notice.waitFor();
    const inside = await notice.evaluate((note) => {
      const grid = note.closest('.grid')!;
      const area = grid.getBoundingClientRect();
      const box = note.getBoundingClientRect();
      return box.left >= area.left && box.right <= area.left + grid.clientLeft + grid.clientWidth && box.bottom <= area.top + grid.clientTop + grid.clientHeight;
    });
    await shot(owner, 'presence-note-at-right-edge');
    expect(inside).toBe(true);
    await input.press('Escape');
    await notice.waitFor({ state: 'detached' });
  });

  browserTest('a cell being edited stays on its row when a row added by someone else moves it down, and closes, saying so, when its row is deleted', () => owner, async () => {
    const as = (token: string, method: string, path: string, body?: unknown) =>
      fetch(`${tablo.url}/nc/${projectId}/api/v1/Customer${path}`, { method, headers: { 'content-type': 'application/json', 'xc-auth': token }, body: body === undefined ? undefined : JSON.stringify(body) });
    const read = async (id: number) => (await (await as(ownerToken, 'GET', `/${id}`)).json()) as Record<string, unknown>;
    await owner.getByRole('gridcell', { name: 'Leni', exact: true }).first().dblclick();
    const input = owner.getByLabel('Edit FirstName');
    await input.fill('Leonie');
    // The editor adds a row that sorts first: every row moves one place down, the one being edited too.
    expect((await as(adaToken, 'POST', '', { CustomerId: -1, FirstName: 'Ana', LastName: 'Antes', Email: 'ana@example.com' })).status).toBe(200);
    await owner.getByRole('gridcell', { name: 'Ana', exact: true }).waitFor();
    expect(await input.inputValue()).toBe('Leonie');
    expect(await owner.getByRole('alert').filter({ hasText: 'while you edit' }).count()).toBe(0);
    await shot(owner, 'presence-editor-follows-its-row');
    // Enter writes the row that was being edited, not the one that took its place.
    await input.press('Enter');
    await owner.getByRole('gridcell', { name: 'Leonie', exact: true }).waitFor();
    expect((await read(2)).FirstName).toBe('Leonie');
    expect((await read(1)).FirstName).toBe('Luís');

    // The editor deletes the row being edited: the editor closes and says why.
    await owner.getByRole('gridcell', { name: 'Ana', exact: true }).dblclick();
    await owner.getByLabel('Edit FirstName').fill('Anna');
    expect((await as(adaToken, 'DELETE', '/-1')).status).toBe(200);
    await owner.getByText('The row you were editing (FirstName) was deleted or moved out of the rows shown by someone else').waitFor();
    await owner.getByLabel('Edit FirstName').waitFor({ state: 'detached' });
    await owner.getByRole('gridcell', { name: 'Ana', exact: true }).waitFor({ state: 'detached' });
  });

  browserTest('the expanded row follows changes made meanwhile: silently without unsaved edits, else with a notice to reload or keep one\'s values', () => owner, async () => {
    const put = async (body: Record<string, unknown>) => {
      const res = await fetch(`${tablo.url}/nc/${projectId}/api/v1/Customer/3`, { method: 'PUT', headers: { 'content-type': 'application/json', 'xc-auth': adaToken }, body: JSON.stringify(body) });
      expect(res.status).toBe(200);
    };
    const read = async () => (await (await fetch(`${tablo.url}/nc/${projectId}/api/v1/Customer/3`, { headers: { 'xc-auth': ownerToken } })).json()) as Record<string, unknown>;
    const expanded = owner.getByRole('dialog', { name: 'Expanded row' });
    const field = (cn: string) => expanded.locator(`#expand-${cn}`);
    const valueIs = (cn: string, value: string) => owner.waitForFunction(([cn, value]) => (document.getElementById(`expand-${cn}`) as HTMLInputElement | null)?.value === value, [cn, value] as const);
    const notice = expanded.locator('.expand-meanwhile');
    const open = async () => {
      const row = owner.getByRole('row').filter({ has: owner.getByRole('gridcell', { name: 'Montréal', exact: true }) }).first();
      await row.hover();
      await row.getByRole('button', { name: /^Expand row/ }).click();
      await expanded.waitFor();
    };
    await open();
    expect(await field('FirstName').inputValue()).toBe('François');

    // Nothing edited: the new value is simply shown.
    await put({ Address: '1 rue Ada' });
    await valueIs('Address', '1 rue Ada');
    expect(await notice.count()).toBe(0);

    // The owner edits the first name; the editor changes it and the company meanwhile.
    await field('FirstName').fill('Frank');
    await put({ FirstName: 'Francis', Company: 'Ada & Co' });
    const alert = expanded.getByRole('alert').filter({ hasText: 'Changed by ada.lovelace@example.com while you edit: FirstName and Company' });
    await alert.waitFor();
    // The owner's text stays, with the other's value beside it; the field they did not edit follows.
    expect(await field('FirstName').inputValue()).toBe('Frank');
    await expanded.getByText('Now: Francis').waitFor();
    await valueIs('Company', 'Ada & Co');
    await shot(owner, 'presence-expanded-row-changed');
    // Keep mine: the notice goes; the save writes the owner's first name and leaves the editor's company.
    await alert.getByRole('button', { name: 'Keep mine' }).click();
    await alert.waitFor({ state: 'detached' });
    await expanded.getByRole('button', { name: 'Save' }).click();
    await expanded.waitFor({ state: 'detached' });
    expect(await read()).toMatchObject({ FirstName: 'Frank', Company: 'Ada & Co', Address: '1 rue Ada' });

    // Reload: the editor's values replace the owner's unsaved ones.
    await open();
    await field('LastName').fill('Tremblay-Roy');
    // A row added before it moves it down the grid: the form stays on its row, with the edits.
    const made = await fetch(`${tablo.url}/nc/${projectId}/api/v1/Customer`, { method: 'POST', headers: { 'content-type': 'application/json', 'xc-auth': adaToken }, body: JSON.stringify({ CustomerId: 0, FirstName: 'Zoé', LastName: 'Zero', Email: 'zero@example.com' }) });
    expect(made.status).toBe(200);
    await owner.getByRole('gridcell', { name: 'Zoé', exact: true }).waitFor();
    expect(await field('LastName').inputValue()).toBe('Tremblay-Roy');
    expect(await field('FirstName').inputValue()).toBe('Frank');
    expect(await field('CustomerId').inputValue()).toBe('3');
    await put({ LastName: 'Tremblay-Lovelace' });
    await expanded.getByRole('alert').filter({ hasText: 'Changed by ada.lovelace@example.com while you edit: LastName' }).waitFor();
    await expanded.getByRole('button', { name: "Reload the row's values" }).click();
    await notice.waitFor({ state: 'detached' });
    expect(await field('LastName').inputValue()).toBe('Tremblay-Lovelace');
    expect(await field('FirstName').inputValue()).toBe('Frank');
    await shot(owner, 'presence-expanded-row-reloaded');
    await expanded.getByRole('button', { name: 'Close' }).click();
    await expanded.waitFor({ state: 'detached' });
    expect((await read()).LastName).toBe('Tremblay-Lovelace');
  });

  browserTest('an expanded row open while the live connection drops reads its row again when it comes back', () => owner, async () => {
    const expanded = owner.getByRole('dialog', { name: 'Expanded row' });
    const row = owner.getByRole('row').filter({ has: owner.getByRole('gridcell', { name: 'Montréal', exact: true }) }).first();
    await row.hover();
    await row.getByRole('button', { name: /^Expand row/ }).click();
    await expanded.waitFor();
    expect(await expanded.locator('#expand-Phone').inputValue()).not.toBe('+1 555 0100');
    // The socket drops; the row changes before it opens again (half a second later), so no event tells it.
    await owner.evaluate(() =>
      Promise.all(
        (window as unknown as { __sockets: WebSocket[] }).__sockets
          .filter((s) => s.readyState === WebSocket.OPEN)
          .map((s) => new Promise((closed) => (s.addEventListener('close', closed), s.close()))),
      ),
    );
    const res = await fetch(`${tablo.url}/nc/${projectId}/api/v1/Customer/3`, { method: 'PUT', headers: { 'content-type': 'application/json', 'xc-auth': adaToken }, body: JSON.stringify({ Phone: '+1 555 0100' }) });
    expect(res.status).toBe(200);
    await owner.waitForFunction(() => (document.getElementById('expand-Phone') as HTMLInputElement | null)?.value === '+1 555 0100');
    expect(await expanded.locator('.expand-meanwhile').count()).toBe(0);
    await expanded.getByRole('button', { name: 'Close' }).click();
    await expanded.waitFor({ state: 'detached' });
  });

  browserTest('an expanded row deleted by someone else meanwhile stays on screen saying so, without Save', () => owner, async () => {
    const zoe = owner.getByRole('row').filter({ has: owner.getByRole('gridcell', { name: 'Zoé', exact: true }) }).first();
    await zoe.hover();
    await zoe.getByRole('button', { name: /^Expand row/ }).click();
    const expanded = owner.getByRole('dialog', { name: 'Expanded row' });
    await expanded.locator('#expand-City').fill('Nowhere');
    expect((await fetch(`${tablo.url}/nc/${projectId}/api/v1/Customer/0`, { method: 'DELETE', headers: { 'xc-auth': adaToken } })).status).toBe(200);
    await expanded.getByRole('alert').filter({ hasText: 'Deleted by ada.lovelace@example.com while you edit: this row can no longer be saved' }).waitFor();
    // The grid lost the row; the form keeps it as it was, with the typed text, and offers no Save.
    await owner.getByRole('gridcell', { name: 'Zoé', exact: true }).waitFor({ state: 'detached' });
    expect(await expanded.locator('#expand-FirstName').inputValue()).toBe('Zoé');
    expect(await expanded.locator('#expand-City').inputValue()).toBe('Nowhere');
    expect(await expanded.getByRole('button', { name: 'Save' }).count()).toBe(0);
    // Nor a comment on a row that is no more.
    expect(await expanded.getByRole('button', { name: 'Comment', exact: true }).count()).toBe(0);
    await shot(owner, 'presence-expanded-row-deleted');
    await expanded.getByRole('button', { name: 'Close' }).click();
    await expanded.waitFor({ state: 'detached' });
  });

  browserTest('the active cell stays on its column when someone adds a column before it', () => owner, async () => {
    const op = async (api: string, args: unknown) => expect((await call(`/dashboard?q=sqlOpPlus_${api}`, { api, project_id: projectId, args }))?.msg).toBeUndefined();
    const active = owner.locator('.grid-cell.active');
    await owner.getByRole('gridcell', { name: 'Gonçalves', exact: true }).click();
    expect(await active.textContent()).toBe('Gonçalves');
    // Someone adds a column and shows it second, before the active one.
    await op('columnAdd', { tn: 'Customer', column: { cn: 'Nickname', uidt: 'SingleLineText' } });
    const columns = (await call('/dashboard?q=sqlOp_tableMeta', { api: 'tableMeta', project_id: projectId, args: { tn: 'Customer' } })).columns.map((c: { cn: string }) => c.cn);
    await op('columnReorder', { tn: 'Customer', order: ['CustomerId', 'Nickname', ...columns.filter((c: string) => c !== 'CustomerId' && c !== 'Nickname')] });
    await owner.waitForFunction(() => [...document.querySelectorAll('[role="columnheader"]')].map((h) => h.textContent?.trim().split(/\s/)[0])[1] === 'Nickname');
    // The outline is still on LastName of the same row, one place to the right; the arrows go on from there.
    expect(await active.textContent()).toBe('Gonçalves');
    await shot(owner, 'presence-active-cell-follows-its-column');
    await owner.keyboard.press('ArrowLeft');
    expect(await active.textContent()).toBe('Luís');
    await op('columnDelete', { tn: 'Customer', cn: 'Nickname' });
    await owner.waitForFunction(() => [...document.querySelectorAll('[role="columnheader"]')].map((h) => h.textContent?.trim().split(/\s/)[0])[1] === 'FirstName');
    expect(await active.textContent()).toBe('Luís');
  });
});
