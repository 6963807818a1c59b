/**
 * Roles in the browser: the owner sets a viewer's rights on a table in Roles Management (a
 * toggle, chosen columns and a row condition), hides a table from viewers in Meta Management,
 * previews as a viewer and as a guest (the tree, the grid and the owner-only entries follow),
 * resets the preview, and runs SQL.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, startTablo, type RunningTablo, signUpInBrowser, dashboardCallInPage } from './helpers';
import { dropDatabase, loadChinook } from '../helpers/engines';

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'roles': ${problem}`);
const DB = 'tablo_t_acl_e2e_pg';

describe.skipIf(!!problem && !process.env.CI)('roles in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let projectId = '';
  const tree = () => page.getByRole('navigation', { name: 'Project tree' });
  /** A dashboard call made with the page's session (and its preview, if any). */
  const call = async (api: string, args: unknown = {}) => (await dashboardCallInPage(page, api, { project_id: projectId, args })).body;

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    // The database's real name carries the run's TABLO_TEST_DB_SUFFIX.
    const cfg = await loadChinook('pg', DB);
    tablo = await startTablo();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await signUpInBrowser(page, tablo.url, 'owner@example.com');
    projectId = (await dashboardCallInPage(page, 'projectCreateByWeb', { args: { title: 'Rights', db: { client: 'pg', connection: cfg.connection } } })).body.id;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
    await dropDatabase('pg', DB);
  });

  browserTest('Roles Management: a toggle, chosen columns and a row condition are saved', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await tree().getByRole('button', { name: 'Roles Management' }).click();
    const grid = page.getByRole('region', { name: 'Roles Management' });
    // The heading, the explanation and the table are spaced evenly (no margins stacked on the gap).
    const heading = (await grid.getByRole('heading', { name: 'Roles Management' }).boundingBox())!;
    const text = (await grid.locator('p.muted').first().boundingBox())!;
    expect(text.y - (heading.y + heading.height)).toBeLessThan(16);
    await grid.getByRole('button', { name: 'editor delete Genre' }).click();
    await grid.locator('button[aria-label="editor delete Genre"][aria-pressed="false"]').waitFor();
    await grid.getByRole('button', { name: 'Edit viewer rights on Customer' }).click();
    const editor = page.getByRole('region', { name: 'Rights of viewer on Customer' });
    await editor.getByLabel('read columns').selectOption('some');
    await editor.getByRole('checkbox', { name: 'read Phone' }).uncheck();
    await editor.getByRole('checkbox', { name: 'read Email' }).uncheck();
    await editor.getByLabel('Row condition').fill('(Country,eq,Brazil)');
    await shot(page, 'roles-rule-editor');
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
    await grid.locator('button[aria-label="viewer read Customer"][aria-pressed="mixed"]').waitFor();
    await shot(page, 'roles-management');
    const acl = await call('aclList', { tn: 'Customer' });
    expect(acl.list[0].rules.viewer.where).toBe('(Country,eq,Brazil)');
    expect(acl.list[0].rules.viewer.read).not.toContain('phone');
    expect(acl.list[0].rules.viewer.read).toContain('customer_id');
    expect((await call('aclList', { tn: 'Genre' })).list[0].rules.editor.delete).toBe(false);
    // A bad condition is refused with the server's message.
    await grid.getByRole('button', { name: 'Edit viewer rights on Customer' }).click();
    await editor.getByLabel('Row condition').fill('(Nope,eq,1)');
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.getByText("Row condition: Column 'Nope' not found").waitFor();
    await editor.getByRole('button', { name: 'Close' }).click();
  });

  browserTest('Roles Management on a project without tables says so', () => page, async () => {
    const empty = (await dashboardCallInPage(page, 'projectCreateByWeb', { args: { title: 'Empty rights' } })).body.id as string;
    await page.goto(`${tablo.url}/#/nc/${empty}`);
    await tree().getByRole('button', { name: 'Roles Management' }).click();
    const grid = page.getByRole('region', { name: 'Roles Management' });
    await grid.getByText('This project has no tables or views yet').waitFor();
    expect(await grid.locator('table').count()).toBe(0);
    // The next tests go on in the Rights project.
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await tree().getByRole('button', { name: 'Roles Management' }).waitFor();
  });

  browserTest('Meta Management hides a table from viewers; previewing as a viewer follows; Reset Preview ends it', () => page, async () => {
    await tree().getByRole('button', { name: 'Meta Management' }).click();
    const meta = page.getByRole('region', { name: 'Meta Management' });
    await meta.getByRole('checkbox', { name: 'viewer sees Genre' }).click();
    await meta.locator('input[aria-label="viewer sees Genre"]:not(:checked)').waitFor();
    await shot(page, 'roles-meta-management');
    await page.getByLabel('Preview as').selectOption('viewer');
    await page.waitForLoadState('load');
    await page.getByRole('button', { name: 'Reset Preview' }).waitFor();
    await tree().getByRole('button', { name: 'Customer', exact: true }).waitFor();
    expect(await tree().getByRole('button', { name: 'Genre', exact: true }).count()).toBe(0);
    await tree().getByRole('button', { name: 'Customer', exact: true }).click();
    await page.getByText(/^Read-only: Not allowed to update rows of 'Customer'/).waitFor();
    // The viewer's rule: Brazilian customers only, without Phone and Email; no SQL Client or Roles Management.
    await page.getByText('Brazil').first().waitFor();
    expect(await page.getByText('France', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: /Phone/ }).count()).toBe(0);
    expect(await tree().getByRole('button', { name: 'SQL Client' }).count()).toBe(0);
    // The owner's entries disappear as they do for a viewer: Team & Auth, Settings (Themes), Share, schema changes,
    // Cron Jobs (a viewer may not list them) and the Super Admin's Terminal and App Store.
    for (const name of ['Team & Auth', 'Themes', 'Roles Management', 'Create table', 'Cron Jobs', 'Terminal', 'App Store']) expect(await tree().getByRole('button', { name, exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Share', exact: true }).count()).toBe(0);
    // Nor the database's migrations (Audit) and metadata sync, which the server keeps for owners and creators.
    expect(await tree().getByRole('button', { name: 'Audit', exact: true }).count()).toBe(0);
    expect(await tree().getByRole('button', { name: 'Sync metadata of db' }).count()).toBe(0);
    // The Meta Management tab the owner had open is not reopened from the address while previewing.
    expect(await page.getByRole('tab', { name: /Meta Management/ }).count()).toBe(0);
    // Nor does the t shortcut open the terminal.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('t');
    await page.waitForTimeout(300);
    expect(await page.getByRole('region', { name: 'Terminal' }).count()).toBe(0);
    expect(await page.getByRole('dialog', { name: 'Terminal' }).count()).toBe(0);
    await shot(page, 'roles-preview-viewer');
    await page.getByRole('button', { name: 'Reset Preview' }).click();
    await page.waitForLoadState('load');
    await tree().getByRole('button', { name: 'Genre', exact: true }).waitFor();
    for (const name of ['Team & Auth', 'Themes', 'Create table', 'Cron Jobs', 'Terminal', 'Audit', 'App Store']) await tree().getByRole('button', { name, exact: true }).waitFor();
    await tree().getByRole('button', { name: 'Sync metadata of db' }).waitFor();
    await page.getByRole('button', { name: 'Share', exact: true }).waitFor();
  });

  browserTest('previewing as a guest: the role is offered, the owner entries go, data is refused', () => page, async () => {
    expect(await page.getByLabel('Preview as').locator('option').allTextContents()).toEqual(['(your role)', 'editor', 'commenter', 'viewer', 'guest']);
    await page.getByLabel('Preview as').selectOption('guest');
    await page.waitForLoadState('load');
    await page.getByRole('button', { name: 'Reset Preview' }).waitFor();
    // A guest may read nothing: the open Customer tab is refused and the tree lists no table.
    await page.getByText('Not allowed', { exact: true }).first().waitFor();
    expect(await tree().getByRole('button', { name: 'Customer', exact: true }).count()).toBe(0);
    for (const name of ['Team & Auth', 'Themes', 'SQL Client', 'Create table']) expect(await tree().getByRole('button', { name, exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Share', exact: true }).count()).toBe(0);
    await shot(page, 'roles-preview-guest');
    await page.getByRole('button', { name: 'Reset Preview' }).click();
    await page.waitForLoadState('load');
    await page.getByRole('button', { name: 'Share', exact: true }).waitFor();
  }, 60_000);

  browserTest('a role that may update chosen columns edits only those in the grid', () => page, async () => {
    const saved = await call('aclSave', { tn: 'Customer', role: 'editor', rule: { read: true, create: false, update: ['FirstName'], delete: false } });
    expect(saved.stored).toBe(true);
    await page.getByLabel('Preview as').selectOption('editor');
    await page.waitForLoadState('load');
    await page.getByRole('button', { name: 'Reset Preview' }).waitFor();
    await tree().getByRole('button', { name: 'Customer', exact: true }).click();
    await page.getByRole('gridcell', { name: 'Luís' }).dblclick();
    await page.getByLabel('Edit FirstName').press('Escape');
    await page.getByLabel('Edit FirstName').waitFor({ state: 'detached' });
    await page.getByRole('gridcell', { name: 'Embraer - Empresa Brasileira de Aeronáutica S.A.' }).dblclick();
    await page.waitForTimeout(300);
    expect(await page.getByLabel('Edit Company').count()).toBe(0);
    await shot(page, 'roles-preview-editor');
    // The expanded row offers the same: FirstName to edit, Company shown only.
    await page.getByRole('row').filter({ hasText: 'Luís' }).hover();
    await page.getByRole('row').filter({ hasText: 'Luís' }).getByRole('button', { name: /^Expand row/ }).click();
    const expanded = page.getByRole('dialog', { name: 'Expanded row' });
    expect(await expanded.getByLabel('FirstName', { exact: true }).isDisabled()).toBe(false);
    expect(await expanded.getByLabel('Company', { exact: true }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await expanded.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Reset Preview' }).click();
    await page.waitForLoadState('load');
    await tree().getByRole('button', { name: 'Customer', exact: true }).waitFor();
  });

  browserTest('adding, changing and deleting rows follow their own rights in the grid and the form, and the read-only note speaks the reader\'s language', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    const form = await call('xcVirtualTableCreate', { tn: 'Customer', title: 'Sign-up', type: 'form' });
    expect(form.id).toBeTruthy();
    const drawer = page.getByRole('complementary', { name: 'Views' });
    const preview = async (rule: unknown) => {
      expect((await call('aclSave', { tn: 'Customer', role: 'editor', rule })).stored).toBe(true);
      await page.getByLabel('Preview as').selectOption('editor');
      await page.waitForLoadState('load');
      await page.getByRole('button', { name: 'Reset Preview' }).waitFor();
      await tree().getByRole('button', { name: 'Customer', exact: true }).click();
      await page.getByRole('gridcell', { name: 'Luís' }).waitFor();
    };
    const reset = async () => {
      await page.getByRole('button', { name: 'Reset Preview' }).click();
      await page.waitForLoadState('load');
      await tree().getByRole('button', { name: 'Customer', exact: true }).waitFor();
    };
    try {
      // A role that adds rows without changing them (a sign-up desk): Add row and the form, no Delete.
      await preview({ read: true, create: true, update: false, delete: false });
      await page.getByText("Read-only: Not allowed to update rows of 'Customer'", { exact: true }).waitFor();
      await page.getByRole('button', { name: '+ Add row' }).waitFor();
      await page.getByRole('gridcell', { name: 'Luís' }).click();
      expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
      await shot(page, 'roles-preview-add-only');
      // In French the reason is French too (it was the server's English).
      await page.locator('header').getByRole('button', { name: 'Language', exact: true }).click();
      await page.getByRole('menuitemradio', { name: 'Français' }).click();
      await page.getByText("Lecture seule : Modification des lignes de « Customer » non autorisée", { exact: true }).waitFor();
      await page.locator('header').getByRole('button', { name: 'Langue', exact: true }).click();
      await page.getByRole('menuitemradio', { name: 'English' }).click();
      await page.getByText("Read-only: Not allowed to update rows of 'Customer'", { exact: true }).waitFor();
      await drawer.getByRole('button', { name: 'Sign-up', exact: true }).click();
      await page.getByRole('radio', { name: 'Fill in' }).or(page.getByRole('button', { name: 'Fill in' })).first().click();
      const submit = page.getByRole('form', { name: 'Sign-up' }).getByRole('button', { name: 'Submit' });
      expect(await submit.isEnabled()).toBe(true);
      expect(await page.getByText("Your role may not add rows to 'Customer', so this form cannot be submitted.").count()).toBe(0);
      await reset();

      // A role that changes rows without adding or deleting any: neither is offered, and the form says why it cannot be sent.
      await preview({ read: true, create: false, update: true, delete: false });
      await page.getByRole('gridcell', { name: 'Luís' }).click();
      expect(await page.getByText(/^Read-only:/).count()).toBe(0);
      expect(await page.getByRole('button', { name: '+ Add row' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
      await drawer.getByRole('button', { name: 'Sign-up', exact: true }).click();
      await page.getByRole('radio', { name: 'Fill in' }).or(page.getByRole('button', { name: 'Fill in' })).first().click();
      await page.getByText("Your role may not add rows to 'Customer', so this form cannot be submitted.").waitFor();
      expect(await page.getByRole('form', { name: 'Sign-up' }).getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
      await shot(page, 'roles-preview-form-cannot-add');
    } finally {
      await reset();
      await call('aclSave', { tn: 'Customer', role: 'editor', rule: null });
      await call('xcVirtualTableDelete', { id: form.id });
    }
  });

  browserTest('previewing a role with a row condition, a row someone else moves out of it leaves the open grid, as it does for a member of that role', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    expect((await call('aclSave', { tn: 'Customer', role: 'viewer', rule: { read: true, create: false, update: false, delete: false, where: '(Country,eq,Brazil)' } })).stored).toBe(true);
    // Someone else's write: the owner's session from outside the page (no preview).
    const session = (await page.evaluate(() => localStorage.getItem('tablo.token')))!;
    const move = (country: string) => fetch(`${tablo.url}/nc/${projectId}/api/v1/Customer/1`, { method: 'PUT', headers: { 'content-type': 'application/json', 'xc-auth': session }, body: JSON.stringify({ Country: country }) });
    try {
      await page.getByLabel('Preview as').selectOption('viewer');
      await page.waitForLoadState('load');
      await page.getByRole('button', { name: 'Reset Preview' }).waitFor();
      await tree().getByRole('button', { name: 'Customer', exact: true }).click();
      await page.getByRole('gridcell', { name: 'Luís' }).waitFor();
      await page.getByRole('gridcell', { name: 'Eduardo' }).waitFor();
      expect(await page.getByRole('gridcell', { name: 'Leonie' }).count()).toBe(0);
      expect((await move('Portugal')).status).toBe(200);
      // The socket brings the viewer's share of the change: the row is no longer theirs.
      await page.getByRole('gridcell', { name: 'Luís' }).waitFor({ state: 'detached', timeout: 5_000 });
      await page.getByRole('gridcell', { name: 'Eduardo' }).waitFor();
    } finally {
      await move('Brazil');
      await page.getByRole('button', { name: 'Reset Preview' }).click();
      await page.waitForLoadState('load');
      await tree().getByRole('button', { name: 'Customer', exact: true }).waitFor();
      await call('aclSave', { tn: 'Customer', role: 'viewer', rule: null });
    }
  });

  browserTest('a role that may not read the primary key sees the rows read-only, saying why', () => page, async () => {
    const cols = (await call('tableMeta', { tn: 'Customer' })).columns as { cn: string; _cn: string }[];
    const read = cols.filter((c) => ['FirstName', 'LastName', 'City'].includes(c._cn)).map((c) => c.cn);
    expect((await call('aclSave', { tn: 'Customer', role: 'editor', rule: { read, create: true, update: true, delete: true } })).stored).toBe(true);
    try {
      await page.getByLabel('Preview as').selectOption('editor');
      await page.waitForLoadState('load');
      await page.getByRole('button', { name: 'Reset Preview' }).waitFor();
      await tree().getByRole('button', { name: 'Customer', exact: true }).click();
      await page.getByText("Your role may not read the primary key of 'Customer', so its rows cannot be edited here").waitFor();
      await page.getByRole('gridcell', { name: 'Luís' }).dblclick();
      await page.waitForTimeout(300);
      // No editor opens (a save would have no row to address), and rows are neither added nor deleted.
      expect(await page.getByLabel('Edit FirstName').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Add row' }).count()).toBe(0);
      await shot(page, 'roles-preview-key-hidden');
    } finally {
      await page.getByRole('button', { name: 'Reset Preview' }).click();
      await page.waitForLoadState('load');
      await tree().getByRole('button', { name: 'Customer', exact: true }).waitFor();
      await call('aclSave', { tn: 'Customer', role: 'editor', rule: null });
    }
  });

  browserTest('a role that may not read a related table still reads the table, without that relation', () => page, async () => {
    expect((await call('aclSave', { tn: 'Invoice', role: 'viewer', rule: { read: false, create: false, update: false, delete: false } })).stored).toBe(true);
    try {
      await page.getByLabel('Preview as').selectOption('viewer');
      await page.waitForLoadState('load');
      await page.getByRole('button', { name: 'Reset Preview' }).waitFor();
      await tree().getByRole('button', { name: 'Customer', exact: true }).click();
      await page.getByRole('gridcell', { name: 'Luís', exact: true }).first().waitFor();
      await page.getByRole('columnheader', { name: /Employee/ }).waitFor();
      expect(await page.getByText("Not allowed to read 'Invoice'").count()).toBe(0);
      expect(await page.getByRole('columnheader', { name: /^Invoice/ }).count()).toBe(0);
    } finally {
      await page.getByRole('button', { name: 'Reset Preview' }).click();
      await page.waitForLoadState('load');
      await tree().getByRole('button', { name: 'Customer', exact: true }).waitFor();
      await call('aclSave', { tn: 'Invoice', role: 'viewer', rule: null });
    }
  });

  browserTest('the SQL Client runs a statement for the owner', () => page, async () => {
    await tree().getByRole('button', { name: 'SQL Client' }).click();
    // The SQL Client's CodeMirror editor: type the statement and run it.
    const editor = page.locator('.sqlc-editor .cm-content').first();
    await editor.click();
    await page.keyboard.type("SELECT name FROM genre WHERE name = 'Jazz'");
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('gridcell', { name: 'Jazz', exact: true }).first().waitFor();
    await shot(page, 'roles-sql-client');
  });

  browserTest('a panel link followed within the open project opens its tab without a reload', () => page, async () => {
    await page.getByRole('tab', { name: /SQL Client/ }).waitFor();
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.evaluate((id) => void (location.hash = `#/nc/${id}?type=panel&name=acl`), projectId);
    await page.getByRole('tab', { name: /Roles Management/ }).waitFor({ timeout: 5_000 });
    await page.getByRole('region', { name: 'Roles Management' }).getByRole('button', { name: 'Edit viewer rights on Customer' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    // The address shows the tab (its database too), and a table link still opens its tab.
    await page.waitForURL(/type=panel/);
    await page.evaluate((id) => void (location.hash = `#/nc/${id}?name=Genre&dbalias=db&type=table`), projectId);
    await page.getByRole('gridcell', { name: 'Jazz', exact: true }).first().waitFor();
  });
});
