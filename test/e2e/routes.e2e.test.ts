/**
 * Every route of spec section 2 that has its own screen, visited once in a real browser against
 * the built binary: /start (sign-up, then the index), the shared view's addresses (#/nc/view,
 * #/nc/view/{uuid}, the older #/shared/{uuid}), the info pages, the project forms (/project,
 * /project/0, /project/xcdb, /project/name, /project/index.js, /project/{id}, and /project/0 for
 * a project whose database config is missing), the user edit addresses of the Users page (Super
 * Admin only), /apiClient, /inspire and /datatable (three right-clicks on the app bar); last, with
 * the server stopped, a project address leads back to the list that says so, with the one error toast
 * of a project that could not be loaded (spec section 8) and no second one.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import { Database } from 'bun:sqlite';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, dashboardCallInPage, launchBrowser, shot, signInInBrowser, signUpInBrowser, startTablo, type RunningTablo } from './helpers';

setDefaultTimeout(60_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'routes': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('the routes of the spec in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  /** The project on an external SQLite file (with a Books table), and the second user's id. */
  let extId = '';
  let bobId = '';

  const go = (path: string) => page.goto(`${tablo.url}/#${path}`);
  const heading = (name: string | RegExp) => page.getByRole('heading', { name }).waitFor();

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo({ NC_ALLOW_SIGNUP: 'true' });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('/start before anyone signed up opens the sign-up that makes the Super Admin', () => page, async () => {
    await go('/start');
    await page.waitForURL(/#\/user\/authentication\/signup$/);
  });

  browserTest('#/nc/view without a code says the link is incomplete; an unknown code or old #/shared link says it does not exist (no sign-in)', () => page, async () => {
    await go('/nc/view');
    await heading('This link is incomplete');
    await shot(page, 'routes-shared-incomplete');
    await go('/nc/view/00000000-0000-4000-8000-000000000000');
    await page.getByText('This link does not exist, or it was deleted.').waitFor();
    await go('/shared/00000000-0000-4000-8000-000000000000');
    await page.getByText('This link does not exist, or it was deleted.').waitFor();
    expect(page.url()).not.toContain('signin');
  });

  browserTest('the info pages: FAQ, terms, contribute and recommend, linked to each other', () => page, async () => {
    await go('/info/faq');
    await heading('Frequently asked questions');
    await page.getByText('How do API tokens work?').waitFor();
    await shot(page, 'routes-faq');
    await page.getByRole('navigation', { name: 'About Tablo' }).getByRole('link', { name: 'Terms and privacy' }).click();
    await heading('What Tablo sends, and where');
    await page.getByText(/does not state a license yet/).waitFor();
    await go('/info/hiring');
    await heading('Contribute to Tablo');
    await go('/referral');
    await heading('Recommend Tablo');
    await page.getByText('There is no referral programme', { exact: false }).waitFor();
  });

  browserTest('after signing up, /start leads to the index (the projects list)', () => page, async () => {
    await signUpInBrowser(page, tablo.url, 'root@example.com');
    // A project on an external SQLite file in the data directory, with one table.
    mkdirSync(tablo.dataDir, { recursive: true });
    const file = new Database(join(tablo.dataDir, 'library.sqlite'));
    file.run('CREATE TABLE Books (id INTEGER PRIMARY KEY, title TEXT)');
    file.close();
    const made = await dashboardCallInPage(page, 'projectCreateByWeb', { args: { title: 'Library', projectType: 'rest', db: { client: 'sqlite', connection: { filename: 'library.sqlite' } } } });
    expect(made.status).toBe(200);
    extId = made.body.id;
    const bob = await fetch(`${tablo.url}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bob@example.com', password: 'password123' }) });
    expect(bob.status).toBe(200);
    await go('/start');
    await page.waitForURL(/#\/projects$/);
  });

  browserTest('/project/xcdb, /project/name and /project/index.js open New Project with the name focused; it creates and opens the project', () => page, async () => {
    for (const path of ['/project/name', '/project/index.js', '/project/xcdb']) {
      await go(path);
      await heading('New Project on a new embedded SQLite database');
      await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.name === 'title');
    }
    await shot(page, 'routes-project-xcdb');
    await page.getByLabel('Project name').fill('Scratch');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/#\/nc\/[^/?]+/);
  });

  browserTest('/project and /project/0 open the external database form; Cancel goes back to the list', () => page, async () => {
    await go('/project');
    await heading('Connect to an external database');
    // In each row of the form, the labels of drop-downs and of text fields stand at one height, as do the controls.
    const rows = await page.evaluate(() => {
      const fields = [...document.querySelectorAll('.connect-grid > .field')].map((f) => {
        const label = f.querySelector(':scope > label, :scope > span')!.getBoundingClientRect();
        const control = f.querySelector('input, select')!.getBoundingClientRect();
        return { name: f.textContent!.trim().split('\n')[0]!, label: label.top, control: control.top, height: control.height };
      });
      const byRow = new Map<number, typeof fields>();
      // Fields of one grid row overlap vertically: grouped by the middle of their control, to 20 px.
      for (const f of fields) {
        const key = [...byRow.keys()].find((k) => Math.abs(k - (f.control + f.height / 2)) < 20) ?? f.control + f.height / 2;
        byRow.set(key, [...(byRow.get(key) ?? []), f]);
      }
      return [...byRow.values()].map((row) => ({
        names: row.map((f) => f.name).join(', '),
        labels: Math.round(Math.max(...row.map((f) => f.label)) - Math.min(...row.map((f) => f.label))),
        controls: Math.round(Math.max(...row.map((f) => f.control)) - Math.min(...row.map((f) => f.control))),
      }));
    });
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) expect(row).toEqual({ names: row.names, labels: 0, controls: 0 });
    await shot(page, 'routes-connect-form');
    await go('/project/0');
    await heading('Connect to an external database');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(/#\/projects$/);
  });

  browserTest("/project/{id} edits that project's connection; an unknown id is the 404 page", () => page, async () => {
    await go(`/project/${extId}`);
    await heading('Edit connection');
    expect(await page.getByLabel('SQLite file').inputValue()).toEndWith('/library.sqlite');
    await page.getByRole('button', { name: 'Update & Restart' }).waitFor();
    await shot(page, 'routes-project-edit');
    await go('/project/no-such-project');
    await page.getByText('This page could not be found').waitFor();
  });

  browserTest('/user/admin/user/{id} opens that user on the Users page; Disable works there; unknown ids are 404; user-edit asks to pick', () => page, async () => {
    await go('/user/admin/user-edit');
    await page.getByText('Choose a user to edit with Edit in their row.').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'bob@example.com' });
    await row.getByRole('button', { name: 'Edit' }).click();
    await page.waitForURL(/#\/user\/admin\/user\/[^/]+$/);
    bobId = decodeURIComponent(page.url().split('/').pop()!);
    const panel = page.getByRole('region', { name: 'Edit bob@example.com' });
    await panel.getByRole('button', { name: 'Disable' }).click();
    await panel.getByRole('button', { name: 'Enable' }).waitFor();
    await row.getByText('disabled').waitFor();
    await shot(page, 'routes-user-edit');
    await panel.getByRole('button', { name: 'Enable' }).click();
    await panel.getByRole('button', { name: 'Disable' }).waitFor();
    await go('/user/admin/user/no-such-user');
    await page.getByText('This page could not be found').waitFor();
  });

  browserTest('the Users addresses are for the Super Admin only: another user gets the 403 page', () => page, async () => {
    const other = await (await browser.newContext()).newPage();
    try {
      await signInInBrowser(other, tablo.url, 'bob@example.com');
      await other.goto(`${tablo.url}/#/user/admin/user/${bobId}`);
      await other.getByText('You are not allowed to see this page').waitFor();
      // Nor may they open the project forms: creating projects is not theirs until granted.
      await other.goto(`${tablo.url}/#/project/xcdb`);
      await other.getByText('You are not allowed to see this page').waitFor();
    } finally {
      await other.context().close();
    }
  });

  browserTest("a project the user is not a member of says so, with the way to their projects; an unknown project id stays the 404 page", () => page, async () => {
    const other = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    try {
      await signInInBrowser(other, tablo.url, 'bob@example.com');
      await other.goto(`${tablo.url}/#/nc/${extId}`);
      await other.getByRole('heading', { name: 'You are not a member of this project' }).waitFor();
      expect(await other.getByText('This page could not be found').count()).toBe(0);
      await shot(other, 'routes-project-not-member');
      await other.getByRole('link', { name: 'Go to the projects list' }).click();
      await other.waitForURL(/#\/projects$/);
      await other.goto(`${tablo.url}/#/nc/no_such_project`);
      await other.getByText('This page could not be found').waitFor();
      expect(await other.getByText('You are not a member of this project').count()).toBe(0);
    } finally {
      await other.context().close();
    }
  });

  browserTest('/apiClient asks for a project, then shows its API Client', () => page, async () => {
    await go('/apiClient');
    await heading('API Client');
    await page.getByText('Choose the project whose API to call', { exact: false }).waitFor();
    await page.getByRole('button', { name: /Choose a project/ }).click();
    await page.getByRole('option', { name: 'Library' }).click();
    await page.waitForURL(new RegExp(`project=${extId}`));
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    await shot(page, 'routes-api-client');
  });

  browserTest('/inspire is the Themes screen: preset palettes and the custom colours', () => page, async () => {
    await go('/inspire');
    await heading('Themes');
    await page.getByRole('button', { name: /Custom/ }).click();
    await page.getByLabel(/primary/i).first().waitFor();
    await shot(page, 'routes-inspire');
  });

  browserTest("three right-clicks on the app bar open /datatable: the user's projects and tables, linked into the dashboard", () => page, async () => {
    await go('/projects');
    const bar = page.locator('header.top-bar');
    for (let i = 0; i < 3; i++) await bar.click({ button: 'right', position: { x: 600, y: 20 } });
    await page.waitForURL(/#\/datatable$/);
    await heading('Projects and tables');
    await page.getByRole('row').filter({ hasText: 'Scratch' }).getByText('no tables').waitFor();
    await shot(page, 'routes-datatable');
    await page.getByRole('link', { name: 'Books' }).click();
    await page.waitForURL(/#\/nc\/[^?]+\?name=Books&dbalias=db&type=table/);
    await page.getByRole('tab', { name: /Books/ }).waitFor();
  });

  browserTest("a project whose default database is gone lands on /project/0: 'Database config not found', with the form that connects one", () => page, async () => {
    // The Library project, open on its Books table, gets a second database, then loses its default one.
    await go(`/nc/${extId}?name=Books&dbalias=db&type=table`);
    await page.getByRole('tab', { name: /Books/ }).waitFor();
    const file = new Database(join(tablo.dataDir, 'spare.sqlite'));
    file.run('CREATE TABLE Spare (id INTEGER PRIMARY KEY)');
    file.close();
    expect((await dashboardCallInPage(page, 'projectDbAdd', { project_id: extId, args: { env: 'dev', db: { client: 'sqlite', connection: { filename: 'spare.sqlite' } } } })).status).toBe(200);
    expect((await dashboardCallInPage(page, 'projectDbRemove', { project_id: extId, args: { env: 'dev', dbAlias: 'db' } })).status).toBe(200);
    // The open dashboard goes there by itself; the page explains, and no toast repeats the server's 'not found'.
    const explained = async () => {
      await page.waitForURL(/#\/project\/0\?project=/);
      await page.getByText('Database config not found.').waitFor();
      await Bun.sleep(800);
      expect(await page.locator('.toast-error').allInnerTexts()).toEqual([]);
    };
    await explained();
    // And opening the project from the list.
    await go('/projects');
    await page.getByRole('link', { name: 'Library' }).click();
    await explained();
    await shot(page, 'routes-config-missing');
    // Connecting its file again as 'db' opens the project.
    await page.getByLabel('Database type').selectOption('sqlite');
    await page.getByLabel('SQLite file').fill('library.sqlite');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(new RegExp(`#/nc/${extId}`));
    await page.getByRole('button', { name: /Books/ }).first().waitFor();
  });

  // Last: the server is stopped for good.
  browserTest('a stored preview role the server does not know is not sent (it would answer 400): the projects list reads', () => page, async () => {
    await go('/projects');
    await page.evaluate(() => localStorage.setItem('tablo.previewAs', 'admin'));
    try {
      await page.reload();
      await page.getByRole('link', { name: 'Library' }).waitFor();
      expect(await page.locator('.toast-error').count()).toBe(0);
    } finally {
      await page.evaluate(() => localStorage.removeItem('tablo.previewAs'));
    }
  });

  browserTest('with the server gone, a project address leads to the list saying so, with one error toast', () => page, async () => {
    await go('/projects');
    await page.getByRole('link', { name: 'Library' }).waitFor();
    await tablo.stop();
    await go(`/nc/${extId}`);
    await page.waitForURL(/#\/projects$/);
    await page.getByText('The Tablo server could not be reached').first().waitFor();
    await Bun.sleep(800);
    // Spec section 8: a project that fails to load toasts its error and goes to the list; the UI rules' failure adds none.
    expect(await page.locator('.toast-error').allInnerTexts()).toEqual(['The Tablo server could not be reached']);
    // The list could not be read: no 'Get started' as if the user had no projects.
    expect(await page.getByText('Get started by creating a new project').count()).toBe(0);
    await shot(page, 'routes-server-gone');
    // A project form's address says it once too (the list's message), not again in the form's place.
    await go(`/project/0?project=${encodeURIComponent(extId)}`);
    await page.getByText('The Tablo server could not be reached').first().waitFor();
    await Bun.sleep(500);
    await shot(page, 'routes-server-gone-form');
    expect(await page.locator('.form-message-error').filter({ hasText: 'could not be reached' }).count()).toBe(1);
  });
});
