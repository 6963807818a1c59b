/**
 * The SQL Client and the GraphQL Client in a real browser against the binary, on a PostgreSQL
 * project: a query typed with completion runs and shows its rows; the editors survive a reload
 * (and the dark theme follows the app's); a pg_sleep(30) is cancelled and gone from
 * pg_stat_activity; a run taken from the history never replaces a draft; on a SQLite project the
 * binary's runner process runs and is cancelled; a GraphQL query runs in GraphiQL, and previewed as
 * a viewer without the right to a column it answers FORBIDDEN. Screenshots of both tabs, light and dark.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import postgres from 'postgres';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, dashboardCallInPage, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { dbName, dropDatabase, freshDatabase, PG, runScript } from '../helpers/engines';

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'sql client': ${problem}`);
const DB = 'tablo_t_e2e_sqlclient';
const EMAIL = 'sql@example.com';

/** Active statements of the test database whose text holds `marker`. */
async function activeWith(marker: string): Promise<number> {
  const sql = postgres({ ...PG, database: 'postgres', max: 1, onnotice: () => {} });
  try {
    const rows = await sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ${dbName(DB)} AND state = 'active' AND query LIKE ${'%' + marker + '%'} AND pid <> pg_backend_pid()`;
    return rows[0]!.n as number;
  } finally {
    await sql.end();
  }
}

describe.skipIf(!!problem && !process.env.CI)('SQL and GraphQL clients in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let projectId = '';
  const editor = () => page.locator('.sqlc-editor .cm-content');
  const setDark = (dark: boolean) => page.evaluate(([email, dark]) => localStorage.setItem(`tablo.settings.${email}`, JSON.stringify({ darkTheme: dark })), [EMAIL, dark] as const);

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    const cfg = await freshDatabase('pg', DB);
    await runScript('pg', DB, `CREATE TABLE album (album_id serial PRIMARY KEY, title text NOT NULL);
      INSERT INTO album (title) VALUES ('Abbey Road'), ('Blue Train'), ('Kind of Blue');`);
    tablo = await startTablo();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 850 } })).newPage();
    await signUpInBrowser(page, tablo.url, EMAIL);
    projectId = (await dashboardCallInPage(page, 'projectCreateByWeb', { args: { title: 'Records', db: { client: 'pg', connection: cfg.connection } } })).body.id;
    expect(projectId).toMatch(/^records_/);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
    await dropDatabase('pg', DB);
  });

  browserTest('a query typed with completion runs and shows its rows; editors survive a reload', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}?name=sqlClient&dbalias=db&type=panel`);
    for (const n of [1, 2, 3]) await page.getByRole('tab', { name: `Query ${n}` }).waitFor();
    await page.getByText('PostgreSQL', { exact: true }).waitFor();
    await editor().click();
    // Keywords of the dialect complete too.
    await page.keyboard.type('SEL');
    await page.locator('.cm-tooltip-autocomplete').getByText('SELECT', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('SELECT title FROM alb');
    // The table comes from the project's schema: accept it from the completion list.
    const option = page.locator('.cm-tooltip-autocomplete').getByText('album', { exact: true });
    await option.waitFor();
    // CodeMirror ignores Enter for 75 ms after the list opens (no accidental picks): wait past that.
    await page.waitForTimeout(150);
    await page.keyboard.press('Enter');
    await page.keyboard.type(' ORDER BY title;\nSELECT count(*) AS albums FROM album');
    expect(await editor().innerText()).toContain('SELECT title FROM album ORDER BY title;');
    await page.keyboard.press('Control+Enter');
    await page.getByRole('tab', { name: 'Result 2 · 1 row' }).waitFor();
    await page.getByRole('tab', { name: 'Result 1 · 3 rows' }).click();
    const grid = page.getByRole('grid', { name: 'Result 1' });
    await grid.getByRole('gridcell', { name: 'Abbey Road' }).waitFor();
    await grid.getByRole('columnheader', { name: /title\s*text/ }).waitFor();
    await shot(page, 'sql-client-light');
    // Export as CSV.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('result-1.csv');
    expect(await Bun.file((await download.path())!).text()).toBe('title\r\nAbbey Road\r\nBlue Train\r\nKind of Blue\r\n');
    // A syntax error is shown with its line and column.
    await page.getByRole('tab', { name: 'Query 2' }).click();
    await editor().click();
    await page.keyboard.type('SELECT 1;\nSELECT * FRM album');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('alert').getByText(/Error at line 2, column 10/).waitFor();
    await page.locator('.cm-lint-marker-error').waitFor();
    // A statement that changes the schema reloads the tree.
    await page.getByRole('tab', { name: 'Query 3', exact: true }).click();
    await editor().click();
    await page.keyboard.type('CREATE TABLE artist (artist_id serial PRIMARY KEY, name text)');
    await page.keyboard.press('Control+Enter');
    await page.getByRole('tab', { name: 'Result 1 · 0 affected' }).waitFor();
    await page.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'Artist', exact: true }).waitFor();
    // Reload in the dark theme: the editors and their texts come back.
    await setDark(true);
    await page.reload();
    await page.getByRole('tab', { name: 'Query 1', exact: true }).click();
    await editor().getByText('ORDER BY title').waitFor();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('grid', { name: 'Result 2' }).getByRole('gridcell', { name: '3' }).waitFor();
    expect(await page.locator('.sqlc-editor .cm-editor').evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgb(255, 255, 255)');
    await shot(page, 'sql-client-dark');
    // The query plan, and a saved query listed beside the editors.
    await page.getByRole('button', { name: 'Explain' }).click();
    await page.getByLabel('Query plan').getByText(/Scan/).first().waitFor();
    await page.getByLabel('Query name').fill('Albums by title');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('region', { name: 'Saved queries' }).getByRole('button', { name: 'Albums by title', exact: true }).waitFor();
    await shot(page, 'sql-client-plan-dark');
    await setDark(false);
  }, 40_000);

  browserTest('a pg_sleep(30) is cancelled in the database', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}?name=sqlClient&dbalias=db&type=panel`);
    await page.getByRole('button', { name: 'New editor' }).click();
    await page.getByRole('tab', { name: 'Query 4' }).waitFor();
    await editor().click();
    await page.keyboard.type('SELECT pg_sleep(30)');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('button', { name: 'Cancel' }).waitFor();
    for (let i = 0; i < 50 && (await activeWith('pg_sleep(30)')) === 0; i++) await Bun.sleep(100);
    expect(await activeWith('pg_sleep(30)')).toBe(1);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('alert').getByText('The statement was cancelled').waitFor();
    expect(await activeWith('pg_sleep(30)')).toBe(0);
    // The run is in the history, newest first.
    await page.getByRole('region', { name: 'History' }).locator('.sqlc-history').first().getByText('SELECT pg_sleep(30)').waitFor();
    // Clearing the history asks first: Esc keeps it.
    const runs = await page.getByRole('region', { name: 'History' }).locator('.sqlc-history').count();
    await page.getByRole('region', { name: 'History' }).getByRole('button', { name: 'Clear', exact: true }).click();
    const ask = page.getByRole('dialog', { name: `Clear the history of ${runs} runs?` });
    await ask.waitFor();
    await page.keyboard.press('Escape');
    await ask.waitFor({ state: 'detached' });
    expect(await page.getByRole('region', { name: 'History' }).locator('.sqlc-history').count()).toBe(runs);
    // The time-out is also a field of the Settings dialog; the toolbar shows the same value.
    await page.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'Themes' }).click();
    await page.getByRole('button', { name: 'Open appearance settings' }).click();
    const field = page.getByRole('dialog', { name: 'Settings' }).getByLabel('SQL Client statement time-out in seconds');
    expect(await field.inputValue()).toBe('60');
    await field.fill('45');
    await shot(page, 'sql-client-settings');
    await page.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: 'Close' }).click();
    await page.getByRole('tab', { name: 'SQL Client' }).click();
    const toolbarField = page.getByLabel('Statement time-out in seconds');
    expect(await toolbarField.inputValue()).toBe('45');
    // The field may be emptied to type another number; emptied and left, it keeps the last one.
    await toolbarField.click();
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    expect(await toolbarField.inputValue()).toBe('');
    await page.keyboard.type('5');
    await page.keyboard.press('Tab');
    expect(await toolbarField.inputValue()).toBe('5');
    await toolbarField.fill('');
    await page.keyboard.press('Tab');
    expect(await toolbarField.inputValue()).toBe('5');
    await toolbarField.fill('60');
  }, 60_000);

  browserTest('a run taken from the history never replaces what is being written in the editor', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}?name=sqlClient&dbalias=db&type=panel`);
    const history = page.getByRole('region', { name: 'History' }).locator('.sqlc-history');
    await history.first().waitFor();
    const tabs = page.getByRole('tablist', { name: 'SQL editors' }).getByRole('tab');
    await page.getByRole('button', { name: 'New editor' }).click();
    const draftTab = tabs.last();
    const draftTitle = (await draftTab.innerText()).replace('×', '').trim();
    await editor().click();
    await page.keyboard.type('SELECT title FROM album WHERE title LIKE');
    const before = await tabs.count();
    await history.first().click();
    // The draft stays as it was (it was replaced, and undo did not bring it back); the run opens in a new editor.
    await expect(tabs.count()).resolves.toBe(before + 1);
    expect(await editor().innerText()).toContain('SELECT pg_sleep(30)');
    await page.getByRole('tab', { name: draftTitle }).click();
    expect(await editor().innerText()).toBe('SELECT title FROM album WHERE title LIKE');
    // An empty editor takes the run in place.
    await page.getByRole('button', { name: 'New editor' }).click();
    const emptyCount = await tabs.count();
    await history.first().click();
    expect(await editor().innerText()).toContain('SELECT pg_sleep(30)');
    expect(await tabs.count()).toBe(emptyCount);
  });

  browserTest('on SQLite the binary runs statements in its runner process, and cancel stops it', () => page, async () => {
    const sqliteProject = (await dashboardCallInPage(page, 'projectCreateByWeb', { args: { title: 'Notes' } })).body.id as string;
    await page.goto(`${tablo.url}/#/nc/${sqliteProject}`);
    await page.reload();
    await page.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'SQL Client' }).click();
    await page.getByText('SQLite', { exact: true }).waitFor();
    await editor().click();
    await page.keyboard.type('WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('alert').getByText('The statement was cancelled').waitFor();
    await editor().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type("SELECT 'still here' AS answer");
    await page.keyboard.press('Control+Enter');
    await page.getByRole('grid', { name: 'Result 1' }).getByRole('gridcell', { name: 'still here' }).waitFor();
  }, 60_000);

  browserTest('a view whose table is dropped by SQL stays in the tree, marked with the reason; opening it says why', () => page, async () => {
    const project = (await dashboardCallInPage(page, 'projectCreateByWeb', { args: { title: 'Broken view' } })).body.id as string;
    for (const sql of ['CREATE TABLE scores (id INTEGER PRIMARY KEY, points INTEGER)', 'CREATE VIEW top_scores AS SELECT id, points FROM scores', 'DROP TABLE scores']) {
      expect((await dashboardCallInPage(page, 'rawSql', { project_id: project, args: { sql } })).status).toBe(200);
    }
    await page.goto(`${tablo.url}/#/nc/${project}`);
    await page.reload();
    const tree = page.getByRole('navigation', { name: 'Project tree' });
    await tree.getByRole('button', { name: 'Sync metadata of db' }).click();
    await tree.getByRole('button', { name: /^Views/ }).click();
    const mark = tree.getByRole('img', { name: /^TopScores cannot be read: no such table/ });
    await mark.waitFor();
    expect(await tree.getByRole('button', { name: /^TopScores/ }).getAttribute('title')).toMatch(/^TopScores cannot be read: no such table/);
    await shot(page, 'tree-broken-view');
    await tree.getByRole('button', { name: /^TopScores/ }).click();
    await page.getByText(/View 'TopScores' cannot be read: no such table/).waitFor();
  }, 60_000);

  browserTest('a GraphQL query runs in the GraphQL client', () => page, async () => {
    await setDark(false);
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.reload();
    await page.getByRole('navigation', { name: 'Project tree' }).getByRole('button', { name: 'GraphQL Client' }).click();
    await page.locator('.graphiql-container').waitFor();
    // Completion from introspection while typing: it offers nothing until the schema is there (on a
    // busy machine the answer can come after the first keys), so the typing starts over until it does.
    const hint = page.locator('.CodeMirror-hints').getByText('AlbumList', { exact: true });
    for (let attempt = 1; ; attempt++) {
      await page.locator('.graphiql-query-editor .CodeMirror').click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.type('{ Albu');
      try {
        await hint.waitFor({ timeout: 5_000 });
        break;
      } catch (e) {
        if (attempt === 3) throw e;
      }
    }
    await page.keyboard.press('Escape');
    // The caller's session token is prefilled in the headers editor.
    await page.evaluate(() => {
      const cm = (document.querySelector('.graphiql-query-editor .CodeMirror') as unknown as { CodeMirror: { setValue(v: string): void } }).CodeMirror;
      cm.setValue('query Albums {\n  AlbumList(limit: 2, sort: "Title") {\n    Title\n  }\n}\n');
    });
    await page.getByRole('button', { name: /Execute query/ }).click();
    const response = page.locator('.graphiql-response');
    await response.getByText('"Abbey Road"').waitFor();
    expect(await response.innerText()).toContain('"Blue Train"');
    await page.getByRole('button', { name: 'Headers' }).click();
    expect(await page.locator('.graphiql-editor-tool').innerText()).toContain('xc-auth');
    // The docs come from introspection: the root query type lists the table's list field.
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).first().click();
    await page.locator('.graphiql-doc-explorer').getByText('AlbumList', { exact: true }).first().waitFor();
    await shot(page, 'graphql-client-light');
    await page.getByRole('button', { name: 'Hide Documentation Explorer' }).click();
    await setDark(true);
    await page.reload();
    await page.locator('.graphiql-container').waitFor();
    // The query typed before comes back from GraphiQL's storage for this project.
    await page.getByRole('button', { name: /Execute query/ }).click();
    await page.locator('.graphiql-response').getByText('"Abbey Road"').waitFor();
    await shot(page, 'graphql-client-dark');
    await setDark(false);
    // Rights hold in the client: previewed as a viewer who may not read the title, the query is refused.
    const saved = await dashboardCallInPage(page, 'aclSave', { project_id: projectId, args: { tn: 'album', role: 'viewer', rule: { read: ['album_id'], create: false, update: false, delete: false } } });
    expect(saved.status).toBe(200);
    await page.evaluate(() => localStorage.setItem('tablo.previewAs', 'viewer'));
    await page.reload();
    await page.locator('.graphiql-container').waitFor();
    await page.getByRole('button', { name: /Execute query/ }).click();
    await page.locator('.graphiql-response').getByText('"FORBIDDEN"').waitFor();
    expect(await page.locator('.graphiql-response').innerText()).toContain("Not allowed to read column 'Title'");
    await page.evaluate(() => localStorage.removeItem('tablo.previewAs'));
  }, 60_000);

  browserTest("the profile menu's GraphQL APIs opens the GraphQL Client of a GraphQL project", () => page, async () => {
    const made = await dashboardCallInPage(page, 'projectCreateByWeb', { args: { title: 'Graph notes', projectType: 'graphql' } });
    expect(made.status).toBe(200);
    await page.goto(`${tablo.url}/#/nc/${made.body.id}`);
    await page.getByText('Active Env').waitFor();
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'GraphQL APIs' }).click();
    // In the dashboard, with the session: not the bare endpoint in a new tab, which answered 'Not signed in'.
    await page.getByRole('tab', { name: 'GraphQL Client' }).waitFor();
    await page.locator('.graphiql-container').waitFor();
    expect(page.context().pages().length).toBe(1);
  }, 60_000);
});
