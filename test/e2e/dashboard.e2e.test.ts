/**
 * The project dashboard in a real browser against the binary: the tree of a Chinook PostgreSQL
 * project, a table in the grid with its count, a filter, an inline edit kept after reload (the
 * tab comes back from the URL), the empty-group toast.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, launchBrowser, shot, startTablo, type RunningTablo, signUpInBrowser, dashboardCallInPage, closeTab, closeAllTabs } from './helpers';
import { dbName, dropDatabase, loadChinook, runScript } from '../helpers/engines';

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'dashboard': ${problem}`);
const DB = 'tablo_t_e2e_dashboard';

describe.skipIf(!!problem && !process.env.CI)('project dashboard in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let projectId = '';
  let connection: unknown = null;
  /** The project tree: table names also appear as tab titles, so clicks are scoped to it. */
  const tree = () => page.getByRole('navigation', { name: 'Project tree' });

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    const cfg = await loadChinook('pg', DB);
    connection = cfg.connection;
    // A function and a sequence whose definitions the dashboard shows read-only (procedures stay empty).
    await runScript('pg', DB, `CREATE FUNCTION track_seconds(ms integer) RETURNS numeric LANGUAGE sql AS $$ SELECT ms / 1000.0 $$;
      CREATE SEQUENCE invoice_number_seq START 1000 INCREMENT 5;
      CREATE VIEW album_titles AS SELECT album_id, title FROM album;
      CREATE SCHEMA music; CREATE TABLE music.session_note (id serial PRIMARY KEY, note text); INSERT INTO music.session_note (note) VALUES ('take two');
      ${Array.from({ length: 12 }, (_, i) => `CREATE TABLE zz_log_${String(i + 1).padStart(2, '0')} (note text); INSERT INTO zz_log_${String(i + 1).padStart(2, '0')} VALUES ('entry ${i + 1}');`).join('\n')}`);
    // With the 10 Chinook tables that makes 22: the tree shows 20 and offers the rest.
    tablo = await startTablo({ NC_UI_MAX_TABS: '3' });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 850 } })).newPage();
    await signUpInBrowser(page, tablo.url, 'grid@example.com');
    // The external database form is not part of this screen yet: connect through the dashboard call.
    projectId = (await dashboardCallInPage(page, 'projectCreateByWeb', { args: { title: 'Chinook', db: { client: 'pg', connection: cfg.connection } } })).body.id;
    expect(projectId).toMatch(/^chinook_/);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
    await dropDatabase('pg', DB);
  });

  test('the projects list links to the dashboard; the tree lists the tables', async () => {
    await page.reload();
    await page.getByRole('link', { name: 'Chinook' }).click();
    await page.waitForURL(new RegExp(`#/nc/${projectId}`));
    await page.getByText('Active Env').waitFor();
    await tree().getByRole('button', { name: 'Track', exact: true }).waitFor();
    await shot(page, 'dashboard-tree');
  });

  test('a table opens in the grid with its rows and its count', async () => {
    await tree().getByRole('button', { name: 'Track', exact: true }).click();
    await page.getByRole('tab', { name: /Track/ }).waitFor();
    await page.getByTestId('row-count').getByText('3503 rows').waitFor();
    await page.getByRole('gridcell', { name: 'For Those About To Rock (We Salute You)' }).first().waitFor();
    expect(page.url()).toContain('name=Track');
    expect(page.url()).toContain('type=table');
    await shot(page, 'dashboard-grid');
  });

  test('filters and sorts built in the toolbar, and the search box', async () => {
    await page.getByRole('button', { name: '+ Filter' }).click();
    await page.getByLabel('Filter 1 column').selectOption('GenreId');
    await page.getByLabel('Filter 1 operator').selectOption('eq');
    await page.getByLabel('Filter 1 value').fill('1');
    await page.getByRole('button', { name: '+ Sort' }).click();
    await page.getByLabel('Sort 1 column').selectOption('TrackId');
    await page.getByLabel('Sort 1 direction').selectOption('desc');
    // Filters, sorts and the search apply as they change (Apply is only for the where text).
    await page.getByTestId('row-count').getByText('1297 rows').waitFor();
    // Sorted by TrackId descending: the first row holds the highest id of that genre.
    await page.getByRole('row').nth(1).getByRole('gridcell', { name: 'Love Comes', exact: true }).waitFor();
    await shot(page, 'dashboard-filtered');
    await page.getByLabel('Search').fill('love');
    // The search applies by itself a moment later: fewer rows.
    await page.waitForFunction(() => /^\d+ rows?$/.test(document.querySelector('[data-testid="row-count"]')?.textContent ?? '') && Number(document.querySelector('[data-testid="row-count"]')!.textContent!.split(' ')[0]) < 1297);
    await page.getByLabel('Search').fill('');
    await page.getByRole('button', { name: 'Remove filter 1' }).click();
    await page.getByRole('button', { name: 'Remove sort 1' }).click();
    await page.getByTestId('row-count').getByText('3503 rows').waitFor();
  });

  test('filters apply as they change; the where editor and the builder show the same filter', async () => {
    await page.getByRole('button', { name: '+ Filter' }).click();
    await page.getByLabel('Filter 1 column').selectOption('GenreId');
    await page.getByLabel('Filter 1 operator').selectOption('eq');
    await page.getByLabel('Filter 1 value').fill('1');
    await page.getByTestId('row-count').getByText('1297 rows').waitFor();
    await page.getByRole('button', { name: 'Where…' }).click();
    expect(await page.getByLabel('Where').inputValue()).toBe('(GenreId,eq,1)');
    await page.getByLabel('Where').fill('(GenreId,eq,2)');
    await page.getByLabel('Where').press('Enter');
    await page.getByTestId('row-count').getByText('130 rows').waitFor();
    // A column that does not exist: its error above the rows, and no count (not 'unknown rows').
    await page.getByLabel('Where').fill('(Gnre,eq,2)');
    await page.getByLabel('Where').press('Enter');
    await page.locator('.grid-wrap .form-message-error').getByText(/Gnre/).waitFor();
    await page.getByTestId('row-count').waitFor({ state: 'detached' });
    await page.getByLabel('Where').fill('(GenreId,eq,2)');
    await page.getByLabel('Where').press('Enter');
    await page.getByTestId('row-count').getByText('130 rows').waitFor();
    await page.getByRole('button', { name: 'Builder' }).click();
    expect(await page.getByLabel('Filter 1 value').inputValue()).toBe('2');
    await page.getByRole('button', { name: 'Where…' }).click();
    await page.getByLabel('Where').fill('(GenreId,eq,1)~or(GenreId,eq,2)');
    await page.getByRole('button', { name: 'Builder' }).click();
    await page.getByRole('alert').getByText(/stays in the where editor/).waitFor();
    await page.getByLabel('Where').fill('');
    await page.getByRole('button', { name: 'Builder' }).click();
    await page.getByTestId('row-count').getByText('3503 rows').waitFor();
    expect(await page.getByLabel('Filter 1 value').count()).toBe(0);
  });

  test('an inline edit is saved and still there after reload', async () => {
    const cell = page.getByRole('gridcell', { name: 'Balls to the Wall' }).first();
    await cell.dblclick();
    const input = page.getByLabel('Edit Name');
    await input.fill('Balls to the Wall (edited)');
    await input.press('Enter');
    await page.getByText('Saved Name', { exact: true }).waitFor();
    await page.reload();
    await page.getByRole('tab', { name: /Track/ }).waitFor();
    await page.getByRole('gridcell', { name: 'Balls to the Wall (edited)' }).first().waitFor();
    await shot(page, 'dashboard-edited');
  });

  test('hide a field, expand a row into a form and save it', async () => {
    await page.getByRole('button', { name: /^Fields/ }).click();
    await page.getByRole('dialog', { name: 'Show or hide fields' }).getByText('Composer').click();
    await page.getByRole('button', { name: /^Fields \(1 hidden\)/ }).click();
    expect(await page.getByRole('columnheader', { name: /Composer/ }).count()).toBe(0);
    await page.getByRole('gridcell', { name: 'Fast As a Shark' }).first().hover();
    await page.getByRole('button', { name: 'Expand row 3' }).click();
    const form = page.getByRole('dialog', { name: 'Expanded row' });
    await form.getByLabel(/^Name/).fill('Fast As a Shark!');
    await shot(page, 'dashboard-expanded');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('gridcell', { name: 'Fast As a Shark!' }).first().waitFor();
    await page.reload();
    await page.getByRole('tab', { name: /Track/ }).waitFor();
    await page.getByRole('gridcell', { name: 'Fast As a Shark!' }).first().waitFor();
    expect(await page.getByRole('columnheader', { name: /Composer/ }).count()).toBe(0);
  });

  test('add rows with the form, select them and delete them together', async () => {
    await tree().getByRole('button', { name: 'Genre', exact: true }).click();
    await page.getByTestId('row-count').getByText('25 rows').waitFor();
    // The form takes the focus on its first field; Esc closes it and the focus goes back to the button.
    await page.getByRole('button', { name: '+ Add row' }).click();
    await page.waitForFunction(() => document.activeElement === document.querySelector('form.add-row input'));
    await page.keyboard.press('Escape');
    await page.getByRole('form', { name: 'Add row' }).waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.textContent === '+ Add row');
    for (const [id, name] of [['901', 'Tablo Jazz'], ['902', 'Tablo Blues']]) {
      await page.getByRole('button', { name: '+ Add row' }).click();
      const form = page.getByRole('form', { name: 'Add row' });
      await form.getByLabel(/^GenreId/).fill(id!);
      await form.getByLabel(/^Name/).fill(name!);
      await form.getByRole('button', { name: 'Save row' }).click();
      await page.getByText('Added a row', { exact: true }).first().waitFor();
    }
    await page.getByTestId('row-count').getByText('27 rows').waitFor();
    await page.locator('.grid').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.getByLabel('Select row 26').check();
    await page.getByLabel('Select row 27').check();
    await shot(page, 'dashboard-selected');
    await page.getByRole('button', { name: 'Delete 2 selected rows' }).click();
    await page.getByRole('dialog', { name: 'Delete 2 rows?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted 2 rows', { exact: true }).waitFor();
    await page.getByTestId('row-count').getByText('25 rows').waitFor();
    // Each change is an entry of the notification bell with its status and relative time; Clear empties it.
    await page.getByRole('button', { name: 'Notifications' }).click();
    const bell = page.getByRole('dialog', { name: 'Notifications list' });
    await bell.locator('.note-success', { hasText: 'Delete 2 rows' }).getByText(/success · (just now|\d+ seconds? ago)/).waitFor();
    expect(await bell.locator('.note-success', { hasText: 'Add row' }).count()).toBe(2);
    await shot(page, 'dashboard-notifications');
    await bell.getByRole('button', { name: 'Clear' }).click();
    await bell.getByText('No new notifications').waitFor();
    // The list is a modal popover: Esc closes it (the page behind it is inert meanwhile).
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Notifications list' }).waitFor({ state: 'detached' });
    await closeTab(page, /Genre/);
  });

  test('link and unlink a many-to-many row (PlaylistTrack) through the picker', async () => {
    await tree().getByRole('button', { name: 'Playlist', exact: true }).click();
    await page.getByRole('tab', { name: /Playlist/ }).waitFor();
    const movies = page.getByRole('row').filter({ has: page.getByRole('gridcell', { name: 'Movies', exact: true }) }).first();
    await movies.getByRole('button', { name: 'Link Track' }).click();
    await page.getByLabel('Search rows').fill('Balls to the Wall');
    await page.getByRole('dialog', { name: 'Link Track' }).getByRole('button', { name: /Balls to the Wall/ }).first().click();
    await page.getByText(/^Link(ed)? Balls to the Wall/).first().waitFor();
    await movies.getByRole('button', { name: /^Unlink Balls to the Wall/ }).waitFor();
    await shot(page, 'dashboard-m2m-linked');
    await movies.getByRole('button', { name: /^Unlink Balls to the Wall/ }).click();
    await page.getByText(/^Unlink(ed)? Balls to the Wall/).first().waitFor();
    expect(await movies.getByRole('button', { name: /^Unlink / }).count()).toBe(0);
    // Both are steps of the undo: ctrl+z links it again, and again unlinks it; ctrl+shift+z links it once more.
    await movies.getByRole('gridcell', { name: 'Movies', exact: true }).click();
    await page.keyboard.press('Control+z');
    await page.getByText(/^Undid unlinking Balls to the Wall/).waitFor();
    await movies.getByRole('button', { name: /^Unlink Balls to the Wall/ }).waitFor();
    await page.keyboard.press('Control+z');
    await page.getByText(/^Undid linking Balls to the Wall/).waitFor();
    await movies.getByRole('button', { name: /^Unlink Balls to the Wall/ }).waitFor({ state: 'detached' });
    await page.keyboard.press('Control+Shift+z');
    await page.getByText(/^Redid linking Balls to the Wall/).waitFor();
    await movies.getByRole('button', { name: /^Unlink Balls to the Wall/ }).waitFor();
    await movies.getByRole('button', { name: /^Unlink Balls to the Wall/ }).click();
    await movies.getByRole('button', { name: /^Unlink / }).waitFor({ state: 'detached' });
  });

  test('an empty group says so', async () => {
    await page.getByRole('button', { name: /Procedures/ }).click();
    await page.getByText('No procedures in this schema').waitFor();
  });

  test('more tabs than maxTabs allows shows the spec message', async () => {
    await tree().getByRole('button', { name: 'Album', exact: true }).click();
    await page.getByRole('tab', { name: /Album/ }).waitFor();
    await tree().getByRole('button', { name: 'Artist', exact: true }).click();
    await page.getByText('Free plan limits to 3 tabs. Please upgrade your plan for unlimited tabs.').waitFor();
    expect(await page.getByRole('tab').count()).toBe(3);
    await shot(page, 'dashboard-max-tabs');
  });

  test('dark mode (ctrl+shift+b) and the theme are kept after reload', async () => {
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('Control+Shift+B');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Themes' }).click();
    await page.getByRole('button', { name: /Grapes/ }).click();
    await shot(page, 'dashboard-settings-dark');
    await page.keyboard.press('Escape');
    await page.reload();
    // The active tab (the last one opened) comes back from the URL.
    await page.getByRole('tab', { name: /Album/ }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--primary').trim())).toBe('#7c3aed');
    await shot(page, 'dashboard-dark');
    await page.keyboard.press('Control+Shift+B');
  });

  test('connecting an external database through the form', async () => {
    await page.goto(`${tablo.url}/#/projects`);
    await page.getByRole('button', { name: 'Connect to an external database' }).click();
    await page.getByLabel('Project name').fill('Chinook again');
    // The browser does not fill the database's user and password with the saved Tablo sign-in.
    expect(await page.getByLabel('Username').getAttribute('autocomplete')).toBe('off');
    expect(await page.getByLabel('Password').getAttribute('autocomplete')).toBe('new-password');
    await page.getByLabel('Username').fill('postgres');
    await page.getByLabel('Database', { exact: true }).fill('no_such_database_here');
    await page.getByRole('button', { name: 'Test Database Connection' }).click();
    await page.getByText(/^Connection Failure: /).waitFor();
    await page.getByLabel('Database', { exact: true }).fill(dbName(DB));
    // The failure spoke of the values tested then: an edit drops it.
    expect(await page.getByText(/^Connection Failure: /).count()).toBe(0);
    await page.getByRole('button', { name: 'Test Database Connection' }).click();
    await page.getByText('Connection was successful').waitFor();
    await page.getByLabel('Port').fill('1');
    expect(await page.getByText('Connection was successful').count()).toBe(0);
    await page.getByLabel('Port').fill('5432');
    await shot(page, 'projects-connect-form');
    await page.getByRole('button', { name: 'Save' }).click();
    // The new project opens.
    await page.waitForURL(/#\/nc\/chinook_again_/);
    await tree().getByRole('button', { name: 'Track', exact: true }).waitFor();
    await page.goto(`${tablo.url}/#/projects`);
    await page.getByRole('link', { name: 'Chinook again' }).waitFor();
  });

  test('the connection JSON: broken JSON is named and kept, valid JSON fills the form', async () => {
    await page.goto(`${tablo.url}/#/projects`);
    await page.getByRole('button', { name: 'Connect to an external database' }).click();
    await page.getByLabel('Project name').fill('From JSON');
    await page.getByRole('button', { name: 'Edit connection JSON' }).click();
    const json = page.getByLabel('Connection JSON');
    await json.waitFor();
    // While the JSON is edited the form's connection fields (stale then) are not shown.
    await page.getByLabel('Host').waitFor({ state: 'detached' });
    await json.fill('{"client": "mysql", "connection": {"host": "127.0.0.1"');
    await page.getByRole('button', { name: 'Test Database Connection' }).click();
    await page.getByText(/^The connection JSON is not valid JSON: /).waitFor();
    expect(await page.getByText(/^Connection Failure:/).count()).toBe(0);
    // Back to the form with broken JSON: the text stays to be fixed instead of being dropped.
    await page.getByRole('button', { name: 'Use the form' }).click();
    await page.getByText(/^The connection JSON is not valid JSON: /).waitFor();
    expect(await json.inputValue()).toContain('"mysql"');
    await json.fill('[1, 2]');
    await page.getByRole('button', { name: 'Use the form' }).click();
    await page.getByText('The connection JSON must be an object with a client (pg, mysql, mssql or sqlite) and a connection object').waitFor();
    await json.fill(JSON.stringify({ client: 'pg', connection: { ...(connection as object), host: '127.0.0.1', schema: 'music' } }));
    await page.getByRole('button', { name: 'Use the form' }).click();
    // The form now holds what the JSON said.
    await page.getByLabel('Host').waitFor();
    expect(await page.getByLabel('Host').inputValue()).toBe('127.0.0.1');
    expect(await page.getByLabel('Username').inputValue()).toBe('postgres');
    expect(await page.getByLabel('Database', { exact: true }).inputValue()).toBe(dbName(DB));
    expect(await page.getByLabel('Schema').inputValue()).toBe('music');
    await page.getByRole('button', { name: 'Test Database Connection' }).click();
    await page.getByText('Connection was successful').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByLabel('Project name').waitFor({ state: 'detached' });
  });

  test('a PostgreSQL schema other than public is opened by naming it in the form', async () => {
    await page.getByRole('button', { name: 'Connect to an external database' }).click();
    await page.getByLabel('Project name').fill('Music notes');
    await page.getByLabel('Username').fill('postgres');
    await page.getByLabel('Database', { exact: true }).fill(dbName(DB));
    await page.getByLabel('Schema').fill('music');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/nc\/music_notes_/);
    await tree().getByRole('button', { name: 'SessionNote', exact: true }).click();
    await page.getByRole('gridcell', { name: 'take two', exact: true }).waitFor();
    // Only the tables of that schema are listed.
    expect(await tree().getByRole('button', { name: 'Track', exact: true }).count()).toBe(0);
    // Edit connection: Test passes with the stored connection, and the names chosen apply on Update & Restart.
    await page.locator('.tree-extras').getByRole('button', { name: 'Project Metadata', exact: true }).click();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('button', { name: 'Test Database Connection' }).click();
    await page.getByText('Connection was successful').waitFor();
    await page.getByLabel('Table and column names').selectOption('none');
    await page.getByRole('button', { name: 'Update & Restart' }).click();
    await tree().getByRole('button', { name: 'session_note', exact: true }).waitFor();
  });

  test('preview as a viewer makes the grid read-only with the reason; Reset Preview ends it', async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.getByLabel('Preview as').selectOption('viewer');
    await page.waitForLoadState('load');
    await page.getByRole('button', { name: 'Reset Preview' }).waitFor();
    await tree().getByRole('button', { name: 'Genre', exact: true }).click();
    await page.getByText(/^Read-only: Not allowed to update rows of 'Genre'/).waitFor();
    expect(await page.getByRole('button', { name: '+ Add row' }).count()).toBe(0);
    await shot(page, 'dashboard-preview-viewer');
    await page.getByRole('button', { name: 'Reset Preview' }).click();
    await page.waitForLoadState('load');
    await tree().getByRole('button', { name: 'Genre', exact: true }).click();
    await page.getByRole('button', { name: '+ Add row' }).waitFor();
  });

  test('the App Store tab lists its plugins; t, l and o open the terminal, log and output', async () => {
    await page.getByRole('button', { name: 'App Store' }).click();
    await page.getByRole('region', { name: 'App Store' }).getByRole('article', { name: 'SMTP plugin' }).waitFor();
    await shot(page, 'dashboard-app-store');
    // Shortcuts: t opens the terminal tab, l the log window of API calls, o the output window.
    await page.locator('.tab-content').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('t');
    await page.getByRole('region', { name: 'Terminal' }).waitFor();
    await page.keyboard.press('l');
    await page.getByRole('region', { name: 'Log' }).getByText(/POST \/dashboard\?q=sqlOp_/).first().waitFor();
    await page.keyboard.press('o');
    await page.getByRole('region', { name: 'Output' }).waitFor();
    await shot(page, 'dashboard-windows');
  });

  test('a function and a sequence open read-only with their highlighted definitions', async () => {
    await closeAllTabs(page);
    await tree().getByRole('button', { name: /Functions/ }).click();
    await tree().getByRole('button', { name: 'track_seconds', exact: true }).click();
    await page.getByRole('tab', { name: /track_seconds/ }).waitFor();
    const code = page.locator('.definition pre code');
    await code.getByText(/ms \/ 1000\.0/).waitFor();
    expect(await code.locator('.hljs-keyword').count()).toBeGreaterThan(0);
    expect(await page.locator('.definition').getByText('(read-only)').count()).toBe(1);
    expect(await code.evaluate((el) => (el as HTMLElement).isContentEditable)).toBe(false);
    expect(page.url()).toContain('type=function');
    await shot(page, 'dashboard-function');
    await tree().getByRole('button', { name: /Sequences/ }).click();
    await tree().getByRole('button', { name: 'invoice_number_seq', exact: true }).click();
    await page.locator('.definition pre code').getByText(/1000/).waitFor();
    await shot(page, 'dashboard-sequence');
    await page.reload();
    await page.getByRole('tab', { name: /invoice_number_seq/ }).waitFor();
    await page.locator('.definition-head').getByText('invoice_number_seq', { exact: true }).waitFor();
    expect(await page.locator('.definition-head').innerText()).toBe('Sequence invoice_number_seq (read-only)');
  });

  test('a date-time cell is edited in a date-time input and saved', async () => {
    await tree().getByRole('button', { name: 'Invoice', exact: true }).click();
    await page.getByRole('tab', { name: /^Invoice/ }).waitFor();
    const cell = page.getByRole('gridcell', { name: /^2021-01-01 00:00:00/ }).first();
    await cell.waitFor();
    await cell.dblclick();
    const input = page.getByLabel('Edit InvoiceDate');
    expect(await input.getAttribute('type')).toBe('datetime-local');
    await input.fill('2021-01-01T13:45:07');
    await input.press('Enter');
    await page.getByText('Saved InvoiceDate', { exact: true }).waitFor();
    await page.getByRole('gridcell', { name: /^2021-01-01 13:45:07/ }).first().waitFor();
    await shot(page, 'dashboard-datetime');
  });

  test('the tree shows 20 tables and the rest on demand; views and keyless tables are read-only with the reason', async () => {
    await closeAllTabs(page);
    const tables = tree().getByRole('button', { name: /^\s*Tables/, expanded: true }).locator('xpath=..').locator('.tree-leaf');
    expect(await tables.count()).toBe(20);
    await tree().getByRole('button', { name: 'Show 2 more' }).click();
    expect(await tables.count()).toBe(22);
    await tables.last().click();
    await page.getByText('Read-only: This table has no primary key, so its rows cannot be edited').waitFor();
    await page.getByRole('gridcell', { name: 'entry 12' }).waitFor();
    await page.getByTestId('row-count').getByText('1 row', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: '+ Add row' }).count()).toBe(0);
    await page.getByRole('gridcell', { name: 'entry 12' }).dblclick();
    expect(await page.getByLabel(/^Edit /).count()).toBe(0);
    await shot(page, 'dashboard-keyless');
    await tree().getByRole('button', { name: /Views/ }).click();
    await tree().getByRole('button', { name: /album.?titles/i }).click();
    await page.getByText('Read-only: SQL views are read-only').waitFor();
    await page.getByRole('gridcell', { name: 'For Those About To Rock We Salute You' }).first().waitFor();
    expect(await page.getByRole('button', { name: '+ Add row' }).count()).toBe(0);
    expect(page.url()).toContain('type=view');
    await shot(page, 'dashboard-view');
  });

  test('keyboard: arrows and Tab move the active cell, Enter edits, Esc cancels, copy and paste a cell', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: tablo.url });
    await tree().getByRole('button', { name: 'MediaType', exact: true }).click();
    const active = page.locator('.grid-cell.active');
    await page.getByRole('gridcell', { name: 'MPEG audio file', exact: true }).click();
    expect(await active.innerText()).toBe('MPEG audio file');
    await page.keyboard.press('ArrowLeft');
    expect(await active.innerText()).toBe('1');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown');
    expect(await active.innerText()).toBe('Protected AAC audio file');
    await page.keyboard.press('Enter');
    await page.getByLabel('Edit Name').fill('typed but cancelled');
    await page.keyboard.press('Escape');
    await page.getByLabel('Edit Name').waitFor({ state: 'detached' });
    expect(await active.innerText()).toBe('Protected AAC audio file');
    await page.keyboard.press('Control+c');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Protected AAC audio file');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await active.innerText()).toBe('Purchased AAC audio file');
    await page.keyboard.press('Control+v');
    await page.getByText('Pasted into 1 row', { exact: true }).first().waitFor();
    await page.getByRole('row').nth(4).getByRole('gridcell', { name: 'Protected AAC audio file', exact: true }).waitFor();
    await page.keyboard.press('ArrowUp');
    expect(await active.innerText()).toBe('Protected MPEG-4 video file');
    await shot(page, 'dashboard-keyboard');
    // Leaving an editor by clicking elsewhere leaves the focus there.
    await page.keyboard.press('Enter');
    await page.getByLabel('Edit Name').waitFor();
    const search = page.getByPlaceholder('Search Name');
    await search.click();
    await page.keyboard.type('mp');
    expect(await search.inputValue()).toBe('mp');
    expect(await page.getByLabel('Edit Name').count()).toBe(0);
    // A search that matches nothing says so (not that the table is empty).
    await search.fill('no such media type');
    await search.press('Enter');
    await page.getByText('No rows match the search', { exact: true }).waitFor();
    expect(await page.getByText('No rows yet', { exact: true }).count()).toBe(0);
    await search.fill('');
    await search.press('Enter');
    await page.getByRole('gridcell', { name: 'Protected AAC audio file', exact: true }).first().waitFor();
  });

  test('Change environment: pick another environment, the page comes back on it marked Active Env', async () => {
    const added = (await dashboardCallInPage(page, 'projectDbAdd', { project_id: projectId, args: { env: 'test', db: { client: 'pg', connection } } })).status;
    expect(added).toBe(200);
    await page.reload();
    const envRow = (name: string) => tree().locator('.tree-env', { hasText: new RegExp(`^${name}\\b`) });
    await envRow('dev').getByText('Active Env').waitFor();
    expect(await envRow('test').getByText('Active Env').count()).toBe(0);
    await tree().getByRole('button', { name: 'Change environment' }).click();
    await page.getByLabel('Environment', { exact: true }).selectOption('test');
    await shot(page, 'dashboard-change-env');
    await page.getByRole('button', { name: 'Change', exact: true }).click();
    await envRow('test').getByText('Active Env').waitFor();
    expect(await envRow('dev').getByText('Active Env').count()).toBe(0);
    await tree().getByRole('button', { name: 'Track', exact: true }).waitFor();
    await shot(page, 'dashboard-env-test');
  });

  test('a table created in the database appears after Sync metadata', async () => {
    await runScript('pg', DB, 'CREATE TABLE aa_new_table (id integer PRIMARY KEY, label text)');
    await tree().getByRole('button', { name: /Tables\s*22$/ }).waitFor();
    await tree().getByRole('button', { name: 'Sync metadata of db' }).click();
    await page.getByText(/^Tables and views added: .*aa_new_table/i).waitFor();
    await tree().getByRole('button', { name: /Tables\s*23$/ }).waitFor();
    await tree().getByRole('button', { name: 'AaNewTable', exact: true }).click();
    await page.getByRole('tab', { name: /AaNewTable/ }).waitFor();
    await page.getByTestId('row-count').getByText('0 rows', { exact: true }).waitFor();
    await page.getByText('No rows yet').waitFor();
    await shot(page, 'dashboard-meta-sync');
  });

  test('a custom theme colour is applied and kept after reload', async () => {
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Themes' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('button', { name: /Custom/ }).click();
    await settings.getByLabel('primary', { exact: true }).fill('#0a7d3c');
    await settings.getByLabel('accent', { exact: true }).fill('#b45309');
    await shot(page, 'dashboard-custom-theme');
    await settings.getByRole('button', { name: 'Close' }).click();
    await page.reload();
    await tree().waitFor();
    const colour = (name: string) => page.evaluate((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim(), name);
    expect(await colour('--primary')).toBe('#0a7d3c');
    expect(await colour('--accent')).toBe('#b45309');
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Themes' }).click();
    await page.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: /Default/ }).click();
    expect(await colour('--primary')).not.toBe('#0a7d3c');
    await page.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: 'Close' }).click();
  });

  test("a refused change shows the server's message in the form, the toast and the bell", async () => {
    await page.getByRole('tab', { name: /AaNewTable/ }).click();
    for (const attempt of [1, 2]) {
      await page.getByRole('button', { name: '+ Add row' }).click();
      const form = page.getByRole('form', { name: 'Add row' });
      await form.getByLabel(/^Id/).fill('1');
      await form.getByLabel(/^Label/).fill(`attempt ${attempt}`);
      await form.getByRole('button', { name: 'Save row' }).click();
      if (attempt === 1) await page.getByTestId('row-count').getByText('1 row', { exact: true }).waitFor();
    }
    const toastText = await page.getByText(/^Add row: .+/).first().innerText();
    const msg = toastText.slice('Add row: '.length);
    expect(msg).not.toMatch(/The server answered/);
    await page.getByRole('form', { name: 'Add row' }).getByText(msg, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Notifications' }).click();
    await page.getByRole('dialog', { name: 'Notifications list' }).locator('.note-error', { hasText: 'Add row' }).getByText(msg).waitFor();
    await shot(page, 'dashboard-refused');
    // The list is a modal popover: Esc closes it (the page behind it is inert meanwhile).
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Notifications list' }).waitFor({ state: 'detached' });
    expect(await page.getByTestId('row-count').innerText()).toBe('1 row');
  });
});
