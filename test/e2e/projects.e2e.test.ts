/**
 * The projects list in a real browser against the built binary: New Project with the server's
 * message on a taken title, search with its no-match line, refresh, stop and start, and delete
 * through the confirm dialog (Esc cancels, Enter submits); a screen that fails to render shows the
 * error layout; Test Database Connection says it is testing while a host keeps it waiting; the tree
 * of a database with many tables finds one by name; the tree says it is reading a database that
 * takes long to answer, and says why it could not, with a way to try again; Rename changes a title.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, startTablo, type RunningTablo } from './helpers';
import { PG, dbName, dropDatabase, freshDatabase, runScript } from '../helpers/engines';
import { startTcpProxy } from '../helpers/tcp-proxy';

// Browser steps wait on the page; a loaded machine can take a few seconds more than the default.
setDefaultTimeout(60_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'projects list': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('projects list in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let token = '';
  /** The project over a SQLite file of 61 tables. */
  let manyTables = '';

  /** Creates a project through the same dashboard call the page makes, as another tab would. */
  const createElsewhere = async (title: string) => {
    const res = await fetch(`${tablo.url}/dashboard?q=sqlOp_projectCreateByWeb`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'xc-auth': token, 'xc-gui': 'true' },
      body: JSON.stringify({ api: 'projectCreateByWeb', args: { title, projectType: 'rest' } }),
    });
    expect(res.status).toBe(200);
  };

  const row = (title: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name: title, exact: true }) });

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    const res = await fetch(`${tablo.url}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'lists@example.com', password: 'password123' }),
    });
    token = ((await res.json()) as { token: string }).token;
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(`${tablo.url}/#/user/authentication/signin`);
    await page.getByLabel('E-mail').fill('lists@example.com');
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/#\/projects/);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('New Project asks for a title and shows the server message when it is taken', () => page, async () => {
    await page.getByText('Get started by creating a new project').waitFor();
    await page.getByRole('button', { name: '+ New Project' }).first().click();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Project name is required').waitFor();
    await page.getByLabel('Project name').fill('Orders');
    await page.getByRole('button', { name: 'Create' }).click();
    // A new project opens; back to the list.
    await page.getByText('Active Env').waitFor();
    await page.goBack();
    await row('Orders').waitFor();

    await page.getByRole('button', { name: '+ New Project' }).first().click();
    await page.getByLabel('Project name').fill('Orders');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText("A project named 'Orders' already exists").waitFor();
    await shot(page, 'projects-title-taken');
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  browserTest('refresh shows a project created elsewhere; search filters and says when nothing matches', () => page, async () => {
    await createElsewhere('Customers');
    await expect(row('Customers').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await row('Customers').waitFor();
    await page.getByLabel('Search projects').fill('cust');
    await row('Orders').waitFor({ state: 'detached' });
    await row('Customers').waitFor();
    await page.getByLabel('Search projects').fill('zebra');
    await page.getByText("No project matches 'zebra'").waitFor();
    await shot(page, 'projects-search-no-match');
    await page.getByLabel('Search projects').fill('');
    await row('Orders').waitFor();
  });

  browserTest('a stopped project is no longer a link until it starts again', () => page, async () => {
    await row('Orders').getByRole('button', { name: 'Stop', exact: true }).click();
    await row('Orders').getByText('stopped').waitFor();
    // The action is named 'Stop Orders' while it runs; its success says so in the past.
    await page.getByRole('region', { name: /Messages/ }).getByText('Stopped Orders', { exact: true }).waitFor();
    await expect(row('Orders').getByRole('link', { name: 'Orders' }).count()).resolves.toBe(0);
    await shot(page, 'projects-stopped');
    // Opened by its address, a stopped project says so and goes back to the list (no empty dashboard).
    const orders = await page.evaluate(async () => {
      const res = await fetch('/dashboard?q=sqlOp_PROJECT_READ_BY_WEB', { method: 'POST', headers: { 'content-type': 'application/json', 'xc-gui': 'true', 'xc-auth': localStorage.getItem('tablo.token') ?? '' }, body: JSON.stringify({ api: 'PROJECT_READ_BY_WEB' }) });
      return ((await res.json()) as { data: { list: { id: string; title: string }[] } }).data.list.find((p) => p.title === 'Orders')!.id;
    });
    await page.goto(`${tablo.url}/#/nc/${orders}`);
    await page.getByText("Project 'Orders' is stopped; start it to use it.").first().waitFor();
    await page.waitForURL(/#\/projects$/);
    expect(await page.getByRole('navigation', { name: 'Project tree' }).count()).toBe(0);
    await row('Orders').getByRole('button', { name: 'Start', exact: true }).click();
    await row('Orders').getByRole('link', { name: 'Orders' }).waitFor();
  });

  browserTest('delete asks first: Esc cancels, Enter deletes', () => page, async () => {
    await row('Customers').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByText("Delete project 'Customers'?").waitFor();
    await shot(page, 'projects-delete-confirm');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await row('Customers').waitFor();

    await row('Customers').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Enter');
    await row('Customers').waitFor({ state: 'detached' });
    await row('Orders').waitFor();
  });

  browserTest('the bare dashboard route /nc leads to the projects list', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc`);
    await page.waitForURL(/#\/projects$/);
    await row('Orders').waitFor();
  });

  browserTest('a new project opens with no tab, not with the tab last open in another project', () => page, async () => {
    const orders = await page.evaluate(async () => {
      const res = await fetch('/dashboard?q=sqlOp_PROJECT_READ_BY_WEB', { method: 'POST', headers: { 'content-type': 'application/json', 'xc-gui': 'true', 'xc-auth': localStorage.getItem('tablo.token') ?? '' }, body: JSON.stringify({ api: 'PROJECT_READ_BY_WEB' }) });
      return ((await res.json()) as { data: { list: { id: string; title: string }[] } }).data.list.find((p) => p.title === 'Orders')!.id;
    });
    await page.goto(`${tablo.url}/#/nc/${orders}?name=info&dbalias=db&type=panel`);
    await page.locator('.tab-bar [role="tab"]').filter({ hasText: 'Info' }).waitFor();
    await page.goto(`${tablo.url}/#/projects`);
    await page.getByRole('button', { name: '+ New Project' }).first().click();
    await page.getByLabel('Project name').fill('Invoices');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Invoices has no tables yet').waitFor();
    await page.waitForURL(/#\/nc\/[^?]+$/);
    expect(await page.locator('.tab-bar [role="tab"]').count()).toBe(0);
    await shot(page, 'projects-new-project-no-stale-tab');
    await page.goto(`${tablo.url}/#/projects`);
    await row('Invoices').waitFor();
  });

  browserTest('Test Database Connection says it is testing while the host keeps it waiting, and cannot be clicked twice', () => page, async () => {
    // A host that takes the connection and never answers, as one behind a firewall keeps the test waiting.
    const held: { end(): void }[] = [];
    const silent = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { open: (s) => void held.push(s), data() {} } });
    let tests = 0;
    const count = (r: { url(): string }) => void (r.url().includes('sqlOp_testConnection') && tests++);
    page.on('request', count);
    try {
      await page.goto(`${tablo.url}/#/projects`);
      await page.getByRole('button', { name: 'Connect to an external database' }).click();
      await page.getByLabel('Host').fill('127.0.0.1');
      await page.getByLabel('Port').fill(String(silent.port));
      await page.getByLabel('Username').fill('postgres');
      await page.getByLabel('Database', { exact: true }).fill('waiting');
      await page.getByRole('button', { name: 'Test Database Connection' }).click();
      const busy = page.getByRole('button', { name: 'Testing the connection…' });
      await busy.waitFor();
      expect(await busy.isDisabled()).toBe(true);
      await shot(page, 'projects-connect-testing');
      await busy.click({ force: true }).catch(() => {});
      expect(tests).toBe(1);
      // The host hangs up: the failure shows and the button is back.
      silent.stop(true);
      for (const s of held) s.end();
      await page.getByText(/^Connection Failure: /).waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: 'Test Database Connection' }).waitFor();
      expect(tests).toBe(1);
      await page.getByRole('button', { name: 'Cancel' }).click();
    } finally {
      page.off('request', count);
      silent.stop(true);
    }
  });

  browserTest('the tree of a database with many tables finds a table by name', () => page, async () => {
    const file = new Database(join(tablo.dataDir, 'many-tables.sqlite'));
    for (let i = 0; i < 60; i++) file.run(`CREATE TABLE "sheet_${String(i).padStart(2, '0')}" (id INTEGER PRIMARY KEY, name TEXT)`);
    file.run('CREATE TABLE "zebra Notes" (id INTEGER PRIMARY KEY)');
    file.close();
    const res = await fetch(`${tablo.url}/dashboard?q=sqlOp_projectCreateByWeb`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'xc-auth': token, 'xc-gui': 'true' },
      body: JSON.stringify({ api: 'projectCreateByWeb', args: { title: 'Many tables', db: { client: 'sqlite', connection: { filename: 'many-tables.sqlite' } } } }),
    });
    const { id } = (await res.json()) as { id: string };
    manyTables = id;
    await page.goto(`${tablo.url}/#/nc/${id}`);
    const tree = page.getByRole('navigation', { name: 'Project tree' });
    await tree.getByRole('button', { name: 'Sheet00', exact: true }).waitFor();
    expect(await tree.getByRole('button', { name: 'ZebraNotes', exact: true }).count()).toBe(0);
    const find = tree.getByRole('searchbox', { name: 'Find in Tables' });
    // By display name or SQL name, case ignored.
    await find.fill('zebra n');
    await tree.getByRole('button', { name: 'ZebraNotes', exact: true }).click();
    await page.getByRole('tab', { name: /ZebraNotes/ }).waitFor();
    await find.fill('SHEET_4');
    await tree.getByRole('button', { name: 'Sheet44', exact: true }).waitFor();
    expect(await tree.getByRole('button', { name: 'Sheet00', exact: true }).count()).toBe(0);
    await shot(page, 'tree-find');
    await find.fill('nothing like it');
    await tree.getByText("Nothing in Tables matches 'nothing like it'").waitFor();
    await find.press('Escape');
    await tree.getByRole('button', { name: 'Sheet00', exact: true }).waitFor();
    // A group that fits in one page has no find field.
    await tree.getByRole('button', { name: 'Views' }).click();
    expect(await tree.getByRole('searchbox', { name: 'Find in Views' }).count()).toBe(0);
    await page.goto(`${tablo.url}/#/projects`);
  });

  browserTest('Roles Management of many tables shows a page at a time and finds a table', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${manyTables}`);
    await page.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'Roles Management' }).click();
    const roles = page.getByRole('region', { name: 'Roles Management' });
    const rows = roles.locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(50);
    await roles.getByRole('button', { name: 'Show 11 more' }).click();
    await roles.getByRole('cell', { name: 'ZebraNotes', exact: true }).waitFor();
    expect(await rows.count()).toBe(61);
    await roles.getByRole('searchbox', { name: 'Find in Tables' }).fill('zebra');
    await roles.getByRole('cell', { name: 'Sheet00', exact: true }).waitFor({ state: 'detached' });
    expect(await rows.count()).toBe(1);
    await roles.getByRole('cell', { name: 'ZebraNotes', exact: true }).waitFor();
    await shot(page, 'roles-many-tables');
    await page.goto(`${tablo.url}/#/projects`);
  });

  browserTest('the tree says it is reading a database that does not answer, then why it could not, and tries again', () => page, async () => {
    const db = 'tablo_t_e2e_tree_down';
    await freshDatabase('pg', db);
    await runScript('pg', db, 'CREATE TABLE thing (id INTEGER PRIMARY KEY);');
    const proxy = startTcpProxy(PG.host, PG.port);
    const op = async (api: string, body: Record<string, unknown>) =>
      fetch(`${tablo.url}/dashboard?q=sqlOp_${api}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'xc-auth': token, 'xc-gui': 'true' },
        body: JSON.stringify({ api, ...body }),
      });
    try {
      const made = await op('projectCreateByWeb', { args: { title: 'Far away', db: { client: 'pg', connection: { host: PG.host, port: proxy.port, user: PG.user, password: PG.password, database: dbName(db) } } } });
      const { id } = (await made.json()) as { id: string };
      // The server stops answering (a host behind a firewall) while the project restarts: reading its
      // schema waits for the connect time-out.
      proxy.stall();
      const restart = op('projectRestart', { project_id: id });
      await page.goto(`${tablo.url}/#/nc/${id}`);
      const tree = page.getByRole('navigation', { name: 'Project tree' });
      await tree.getByRole('status').getByText('Loading…').waitFor();
      await shot(page, 'tree-loading-slow-database');
      await tree.getByText('Unable to connect to database, please check your database is up.').waitFor({ timeout: 30_000 });
      await shot(page, 'tree-database-down');
      // Back up and started again: Try again reads the list.
      proxy.down();
      proxy.up();
      await restart;
      expect((await op('projectStart', { project_id: id })).status).toBe(200);
      await tree.getByRole('button', { name: 'Try again' }).click();
      await tree.getByRole('button', { name: 'Thing', exact: true }).waitFor({ timeout: 30_000 });
      await page.goto(`${tablo.url}/#/projects`);
      await op('projectDelete', { project_id: id });
    } finally {
      proxy.down();
      await dropDatabase('pg', db);
    }
  });

  browserTest("Rename changes a project's title; a taken one is said in the dialog", () => page, async () => {
    await page.goto(`${tablo.url}/#/projects`);
    await row('Invoices').getByRole('button', { name: 'Rename' }).click();
    const dialog = page.getByRole('dialog', { name: "Rename project 'Invoices'" });
    await dialog.getByLabel('Project name').fill('orders');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await dialog.getByText("A project named 'orders' already exists").waitFor();
    await shot(page, 'projects-rename-taken');
    await dialog.getByLabel('Project name').fill('Invoices 2026');
    await dialog.getByLabel('Project name').press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await row('Invoices 2026').getByRole('link', { name: 'Invoices 2026' }).click();
    await page.getByText('Invoices 2026 has no tables yet').waitFor();
    await page.goto(`${tablo.url}/#/projects`);
    await row('Invoices 2026').waitFor();
  });

  browserTest('on a phone-sized screen nothing pushes the page sideways', () => page, async () => {
    await page.setViewportSize({ width: 390, height: 760 });
    try {
      await row('Orders').waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBe(0);
      await shot(page, 'projects-phone');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  browserTest('a screen that cannot render shows the error layout, and Home page recovers', () => page, async () => {
    // An answer of a shape the list cannot show (a project without a title) makes the screen throw.
    await page.route('**/dashboard?q=sqlOp_PROJECT_READ_BY_WEB', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ data: { list: [{ id: 'p1', status: 'started' }] } }) }),
    );
    await page.reload();
    await page.getByText('An error occurred').waitFor();
    await page.getByRole('button', { name: 'Profile menu' }).waitFor();
    await shot(page, 'screen-render-error');
    await page.unroute('**/dashboard?q=sqlOp_PROJECT_READ_BY_WEB');
    await page.getByRole('link', { name: 'Home page' }).click();
    await row('Orders').waitFor();
  });
});
