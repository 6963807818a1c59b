/**
 * Building a schema in the browser against the binary, on an embedded (SQLite) project: create a
 * table from the tree, add columns of several types (each change shows its SQL first), enter rows,
 * add a formula column, link two tables, use the column and table menus, and see the migrations
 * listed under Audit, rolled back and applied again.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, holdFirstAnswer, launchBrowser, shot, startTablo, type RunningTablo, signUpInBrowser } from './helpers';

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'schema': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('schema changes in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  const tree = () => page.getByRole('navigation', { name: 'Project tree' });
  /** The confirm step of a change: the dialog with Submit (the forms say Save, Create or Rename). */
  const confirm = () => page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Submit' }) });

  /** Submits the confirm step after checking the SQL it lists; answers the statements' text. */
  async function submitChange(expectSql: RegExp | null): Promise<string> {
    const dialog = confirm();
    await dialog.waitFor();
    const text = (await dialog.textContent()) ?? '';
    if (expectSql) expect(text).toMatch(expectSql);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.waitFor({ state: 'detached' });
    return text;
  }

  /** Picks a column type (by the name the picker shows) in the column form's type select. */
  async function pickType(form: ReturnType<Page['getByRole']>, label: string) {
    await form.getByRole('button', { name: /Column type$/ }).click();
    await page.getByRole('listbox').getByRole('option', { name: label, exact: true }).click();
  }

  /** Adds a column through the grid's add-column form. */
  async function addColumn(name: string, type: string, fill?: (form: ReturnType<Page['getByRole']>) => Promise<void>) {
    await page.getByRole('button', { name: '+ Add column' }).click();
    const form = page.getByRole('dialog', { name: 'Add column' });
    await form.getByLabel('Column name').fill(name);
    await pickType(form, type);
    if (fill) await fill(form);
    await form.getByRole('button', { name: 'Save' }).click();
  }

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 850 } })).newPage();
    await signUpInBrowser(page, tablo.url, 'schema@example.com');
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('an embedded project gets a table from the create-table dialog, after its SQL is shown', () => page, async () => {
    await page.getByRole('button', { name: '+ New Project' }).first().click();
    await page.getByLabel('Project name').fill('Shop');
    await page.getByRole('button', { name: 'Create' }).click();
    // The new project opens.
    await page.getByText('Active Env').waitFor();
    await tree().getByRole('button', { name: 'Create table' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create table' });
    await dialog.getByLabel('Table name').fill('Customers');
    // The default columns are listed and editable.
    expect(await dialog.getByLabel('Column 1 name').inputValue()).toBe('id');
    expect(await dialog.getByLabel('Column 4 name').inputValue()).toBe('updated_at');
    await shot(page, 'schema-create-table');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await confirm().waitFor();
    await shot(page, 'schema-create-table-sql');
    await submitChange(/CREATE TABLE\s+"customers"/i);
    await page.getByRole('tab', { name: /Customers/ }).waitFor();
    await tree().getByRole('button', { name: 'Customers', exact: true }).waitFor();
    // Display names follow the project's inflection (created_at shows as CreatedAt).
    await page.getByRole('columnheader', { name: /CreatedAt/ }).waitFor();
  }, 60_000);

  browserTest('columns of several types are added from the grid', () => page, async () => {
    await addColumn('Email', 'Email');
    await submitChange(/ALTER TABLE|CREATE TABLE/i);
    await page.getByRole('columnheader', { name: /^Email/ }).waitFor();
    await addColumn('Age', 'Number');
    await submitChange(/"age"/);
    await addColumn('Balance', 'Decimal', async (form) => {
      expect(await form.getByLabel('Precision, scale').inputValue()).toBe('10,2');
    });
    await submitChange(/"balance"/);
    await addColumn('Tier', 'Single select', async (form) => {
      await form.getByLabel('New option').fill('gold, silver');
      await form.getByRole('button', { name: 'Add option' }).click();
      expect(await form.getByLabel('Option 2', { exact: true }).inputValue()).toBe('silver');
      await shot(page, 'schema-add-column');
    });
    await submitChange(/"tier"/);
    await addColumn('Vip', 'Checkbox');
    await submitChange(/"vip"/);
    for (const name of ['Age', 'Balance', 'Tier', 'Vip']) await page.getByRole('columnheader', { name: new RegExp(`^${name}`) }).waitFor();
    expect(await page.getByRole('columnheader', { name: /^Email\s*Email/ }).count()).toBe(1);
    await shot(page, 'schema-columns');
  }, 60_000);

  browserTest('rows are entered, and a bad email is refused naming the column', () => page, async () => {
    for (const [title, email, age] of [['Ada', 'ada@example.com', '36'], ['Linus', 'linus@example.com', '28']]) {
      await page.getByRole('button', { name: '+ Add row' }).click();
      const form = page.getByRole('form', { name: 'Add row' });
      await form.getByLabel(/^Title/).fill(title!);
      await form.getByLabel(/^Email/).fill(email!);
      await form.getByLabel(/^Age/).fill(age!);
      await form.getByRole('button', { name: 'Save row' }).click();
      await form.waitFor({ state: 'detached' });
    }
    await page.getByTestId('row-count').getByText('2 rows').waitFor();
    await page.getByRole('button', { name: '+ Add row' }).click();
    const form = page.getByRole('form', { name: 'Add row' });
    await form.getByLabel(/^Title/).fill('Bad');
    await form.getByLabel(/^Email/).fill('not-an-email');
    await form.getByRole('button', { name: 'Save row' }).click();
    await form.getByRole('alert').filter({ hasText: /email/i }).waitFor();
    await shot(page, 'schema-bad-email');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('gridcell', { name: 'ada@example.com' }).waitFor();
  }, 60_000);

  browserTest('a formula column is checked while typing and computed in the grid', () => page, async () => {
    await page.getByRole('button', { name: '+ Add column' }).click();
    const form = page.getByRole('dialog', { name: 'Add column' });
    await form.getByLabel('Column name').fill('Label');
    await pickType(form, 'Formula');
    const editor = form.getByRole('textbox', { name: 'Formula' });
    await editor.fill('CONCAT({Title}, {Nope})');
    await form.getByRole('alert').filter({ hasText: /Nope/ }).waitFor();
    await editor.fill('');
    await editor.pressSequentially('CONC');
    await form.getByRole('list', { name: 'Suggestions' }).getByRole('button', { name: /^CONCAT/ }).click();
    await editor.pressSequentially("{Tit");
    // Tab takes the first suggestion.
    await form.getByRole('list', { name: 'Suggestions' }).getByRole('button', { name: /^Title/ }).waitFor();
    await editor.press('Tab');
    await editor.pressSequentially(", ' <', {Email}, '>')");
    expect(await editor.inputValue()).toBe("CONCAT({Title}, ' <', {Email}, '>')");
    await form.getByText(/Valid formula/).waitFor();
    await shot(page, 'schema-formula');
    await form.getByRole('button', { name: 'Save' }).click();
    await submitChange(null);
    // Computed columns come after the table's own: scroll the grid to its right end.
    await page.locator('.grid').evaluate((el) => (el.scrollLeft = el.scrollWidth));
    await page.getByRole('columnheader', { name: /^Label/ }).waitFor();
    await page.getByRole('gridcell', { name: 'Ada <ada@example.com>' }).waitFor();
  }, 60_000);

  browserTest('two tables are linked (has many) from the add-column form', () => page, async () => {
    await tree().getByRole('button', { name: 'Create table' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create table' });
    await dialog.getByLabel('Table name').fill('Orders');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await submitChange(/CREATE TABLE\s+"orders"/i);
    await page.getByRole('tab', { name: /Orders/ }).waitFor();
    await page.getByRole('tab', { name: /Customers/ }).click();
    await page.getByRole('button', { name: '+ Add column' }).click();
    const form = page.getByRole('dialog', { name: 'Add column' });
    await pickType(form, 'Link to another record');
    await form.getByLabel('Has many').check();
    await form.getByRole('combobox', { name: 'Table to link' }).fill('Orders');
    await page.getByRole('listbox').getByRole('option', { name: 'Orders', exact: true }).click();
    await shot(page, 'schema-link');
    await form.getByRole('button', { name: 'Save' }).click();
    await shot(page, 'schema-link-sql');
    await submitChange(/customers_id/i);
    await page.getByRole('columnheader', { name: /Orders\s*has many/ }).waitFor();
    // A rollup over the new relation: how many orders each customer has.
    await page.getByRole('button', { name: '+ Add column' }).click();
    const rollup = page.getByRole('dialog', { name: 'Add column' });
    await rollup.getByLabel('Column name').fill('Order count');
    await pickType(rollup, 'Rollup');
    await rollup.getByLabel('Relation').selectOption({ label: 'Orders (has many)' });
    await rollup.getByLabel('Column to roll up').selectOption('Id');
    await rollup.getByLabel('Aggregate').selectOption('count');
    await shot(page, 'schema-rollup');
    await rollup.getByRole('button', { name: 'Save' }).click();
    await submitChange(null);
    await page.locator('.grid').evaluate((el) => (el.scrollLeft = el.scrollWidth));
    await page.getByRole('columnheader', { name: /^Order count/ }).waitFor();
    // No orders yet: the count is 0 on every row.
    await page.getByRole('row').nth(1).getByRole('gridcell', { name: '0', exact: true }).waitFor();
    expect(await page.getByRole('row').nth(2).getByRole('gridcell', { name: '0', exact: true }).count()).toBe(1);
  }, 60_000);

  browserTest('the column menu sorts, renames and deletes; the table menu renames', () => page, async () => {
    // Columns are rendered as they scroll into view: Age near the start, Vip and Balance near the end.
    const scrollGrid = (to: 'start' | 'end') => page.locator('.grid').evaluate((el, end) => (el.scrollLeft = end ? el.scrollWidth : 0), to === 'end');
    await scrollGrid('start');
    // Insert left of Age: the new column lands just before it (display order).
    await page.getByRole('button', { name: 'Column menu of Age' }).click();
    await page.getByRole('menu', { name: 'Column Age' }).getByRole('menuitem', { name: 'Insert left' }).click();
    const insert = page.getByRole('dialog', { name: 'Insert column' });
    await insert.getByLabel('Column name').fill('Phone');
    await pickType(insert, 'Phone number');
    await insert.getByRole('button', { name: 'Save' }).click();
    await submitChange(/"phone"/);
    await page.getByRole('columnheader', { name: /^Phone/ }).waitFor();
    // The column is added first, then moved: wait for the move to show.
    let heads: string[] = [];
    for (let i = 0; i < 50; i++) {
      heads = (await page.getByRole('columnheader').allTextContents()).map((t) => t.split(/\s/)[0]!);
      if (heads.indexOf('Phone') === heads.indexOf('Age') - 1) break;
      await Bun.sleep(100);
    }
    expect(heads.indexOf('Phone')).toBe(heads.indexOf('Age') - 1);
    // Edit Age: a type change on a filled column keeps its values.
    await page.getByRole('button', { name: 'Column menu of Age' }).click();
    await page.getByRole('menu', { name: 'Column Age' }).getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit column Age' });
    await pickType(edit, 'Decimal');
    await edit.getByRole('button', { name: 'Save' }).click();
    await submitChange(/"age"/);
    await page.getByRole('columnheader', { name: /^Age\s*Decimal/ }).waitFor();
    await page.getByRole('gridcell', { name: /^36(\.0+)?$/ }).waitFor();
    await page.getByRole('button', { name: 'Column menu of Age' }).click();
    await page.getByRole('menu', { name: 'Column Age' }).getByRole('menuitem', { name: 'Sort descending' }).click();
    await page.getByRole('row').nth(1).getByRole('gridcell', { name: 'Ada', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Column menu of Age' }).click();
    await page.getByRole('menu', { name: 'Column Age' }).getByRole('menuitem', { name: 'Sort ascending' }).click();
    await page.getByRole('row').nth(1).getByRole('gridcell', { name: 'Linus', exact: true }).waitFor();
    await scrollGrid('end');
    await page.getByRole('button', { name: 'Column menu of Vip' }).click();
    await shot(page, 'schema-column-menu');
    await page.getByRole('menu', { name: 'Column Vip' }).getByRole('menuitem', { name: 'Delete' }).click();
    // Before it runs, the confirm step says the values go for good.
    await page.getByRole('alert').getByText(/The column and its values in every row are deleted/).waitFor();
    await submitChange(/"vip"/);
    await page.getByRole('columnheader', { name: /^Vip/ }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Column menu of Balance' }).click();
    await page.getByRole('menu', { name: 'Column Balance' }).getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename column' });
    await rename.getByLabel('Column name').fill('Credit');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await submitChange(null);
    await page.getByRole('columnheader', { name: /^Credit/ }).waitFor();
    // The table menu opens with a right click on the table (or its ⋯ button).
    await tree().getByRole('button', { name: 'Orders', exact: true }).click({ button: 'right' });
    await page.getByRole('menu', { name: 'Table Orders' }).getByRole('menuitem', { name: 'Rename' }).click();
    const tableRename = page.getByRole('dialog', { name: 'Rename table' });
    await tableRename.getByLabel('Table name').fill('Purchases');
    await tableRename.getByRole('button', { name: 'Rename' }).click();
    await submitChange(null);
    await tree().getByRole('button', { name: 'Purchases', exact: true }).waitFor();
    await page.getByRole('tab', { name: /Purchases/ }).waitFor();
  }, 60_000);

  browserTest('the Audit node lists the migrations; the newest is rolled back and applied again', () => page, async () => {
    await tree().getByRole('button', { name: 'Audit' }).click();
    const panel = page.getByRole('region', { name: 'Migrations' });
    const rows = panel.locator('tr.migration');
    await rows.first().waitFor();
    // Newest first: table and column changes and the link (the formula and rollup are metadata only).
    expect(await rows.count()).toBeGreaterThanOrEqual(8);
    expect(await panel.getByText(/customers/i).count()).toBeGreaterThan(0);
    await rows.first().getByRole('button', { name: /^SQL of/ }).click();
    await panel.locator('.migration-sql pre').first().waitFor();
    await shot(page, 'schema-audit');
    const newest = rows.first();
    await newest.getByRole('button', { name: 'Roll back' }).click();
    await submitChange(/ALTER TABLE|CREATE TABLE|DROP/i);
    await newest.getByText('pending').waitFor();
    await shot(page, 'schema-audit-rolled-back');
    await newest.getByRole('button', { name: 'Apply' }).click();
    await submitChange(/ALTER TABLE|CREATE TABLE|DROP/i);
    await newest.getByText('applied').waitFor();
  }, 60_000);

  browserTest('a link is removed from its column menu after its SQL is shown', () => page, async () => {
    await page.getByRole('tab', { name: /Customers/ }).click();
    await page.getByRole('button', { name: 'Column menu of Purchases (has many)' }).click();
    await page.getByRole('menu', { name: 'Relation Purchases (has many)' }).getByRole('menuitem', { name: 'Remove link' }).click();
    await submitChange(/customers_id|DROP/i);
    await page.getByRole('columnheader', { name: /Purchases\s*has many/ }).waitFor({ state: 'detached' });
    // The rollup over that link no longer works, and its header says so.
    await page.locator('.grid').evaluate((el) => (el.scrollLeft = el.scrollWidth));
    await page.getByRole('img', { name: /^Order count no longer works/ }).waitFor();
    await shot(page, 'schema-link-removed');
  }, 60_000);

  browserTest('a many-to-many link, a lookup over it, and a formula edited in place', () => page, async () => {
    await tree().getByRole('button', { name: 'Create table' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create table' });
    await dialog.getByLabel('Table name').fill('Tags');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await submitChange(/CREATE TABLE\s+"tags"/i);
    await page.getByRole('tab', { name: /Customers/ }).click();
    await page.getByRole('button', { name: '+ Add column' }).click();
    const link = page.getByRole('dialog', { name: 'Add column' });
    await pickType(link, 'Link to another record');
    await link.getByLabel('Many to many').check();
    await link.getByRole('combobox', { name: 'Table to link' }).fill('Tags');
    await page.getByRole('listbox').getByRole('option', { name: 'Tags', exact: true }).click();
    await link.getByRole('button', { name: 'Save' }).click();
    await submitChange(/CREATE TABLE/i);
    await page.getByRole('columnheader', { name: /Tags\s*many to many/ }).waitFor();
    await page.getByRole('button', { name: '+ Add column' }).click();
    const lookup = page.getByRole('dialog', { name: 'Add column' });
    await lookup.getByLabel('Column name').fill('Tag names');
    await pickType(lookup, 'Lookup');
    await lookup.getByLabel('Relation').selectOption({ label: 'Tags (many to many)' });
    await lookup.getByLabel('Column to look up').selectOption('Title');
    await lookup.getByRole('button', { name: 'Save' }).click();
    await submitChange(null);
    await page.locator('.grid').evaluate((el) => (el.scrollLeft = el.scrollWidth));
    await page.getByRole('columnheader', { name: /^Tag names\s*Lookup/ }).waitFor();
    // Edit the formula: the new expression is computed at once.
    await page.getByRole('button', { name: 'Column menu of Label' }).click();
    await page.getByRole('menu', { name: 'Column Label' }).getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit column Label' });
    expect(await edit.getByRole('textbox', { name: 'Formula' }).inputValue()).toBe("CONCAT({Title}, ' <', {Email}, '>')");
    await edit.getByRole('textbox', { name: 'Formula' }).fill('UPPER({Title})');
    await edit.getByText(/Valid formula/).waitFor();
    await edit.getByRole('button', { name: 'Save' }).click();
    await submitChange(null);
    await page.getByRole('gridcell', { name: 'ADA', exact: true }).waitFor();
    await shot(page, 'schema-mm-lookup');
  }, 60_000);

  browserTest('two tables made one after the other elsewhere: the tree ends on the later list, even when the earlier one answers last', () => page, async () => {
    const projectId = decodeURIComponent(/#\/nc\/([^?/]+)/.exec(page.url())![1]!);
    const make = (tn: string, _tn: string) =>
      page.evaluate(
        async ([projectId, tn, _tn]) => {
          const res = await fetch('/dashboard?q=sqlOpPlus_tableCreate', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'xc-auth': localStorage.getItem('tablo.token') ?? '' },
            body: JSON.stringify({ api: 'tableCreate', project_id: projectId, dbAlias: 'db', args: { tn, _tn, columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'title', uidt: 'SingleLineText' }] } }),
          });
          return res.status;
        },
        [projectId, tn, _tn] as const,
      );
    // The tables list read after the first table (without the second) is answered after the second one's list.
    const held = await holdFirstAnswer(page, (url) => url.includes('q=sqlOp_tableList'));
    expect(await make('late_one', 'LateOne')).toBe(200);
    await held.readByServer;
    expect(await make('late_two', 'LateTwo')).toBe(200);
    await tree().getByRole('button', { name: 'LateTwo', exact: true }).waitFor();
    await held.deliver();
    // The late answer (without LateTwo) changed nothing.
    await page.waitForTimeout(100);
    expect(await tree().getByRole('button', { name: 'LateTwo', exact: true }).count()).toBe(1);
    expect(await tree().getByRole('button', { name: 'LateOne', exact: true }).count()).toBe(1);
  }, 60_000);
});
