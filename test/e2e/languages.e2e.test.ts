/**
 * The interface in each of its five languages: the language menu of the top bar switches at once
 * and the choice survives a reload; the projects list, the dashboard and the grid are screenshot in
 * every language (test-results/e2e/language-<code>-<screen>.png) and hold no English interface text
 * (no line, label or placeholder of the page equals an English catalogue message that the language
 * translates); a kanban, a form and a calendar view are looked at too, for English and for labels cut off.
 * A change the server refuses shows the server's message in the chosen language. The GraphQL Client's
 * own controls (GraphiQL's, English in the library) and its first query speak the chosen language.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, closeAllTabs, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { addColumn, chinookProject, opInPage, restInPage } from './views-helpers';
import { CATALOGUES } from '../../web/src/i18n/catalogues';
import { LOCALES, type LocaleCode } from '../../web/src/i18n/locales';
import { GRAPHIQL_ENGLISH } from '../../web/src/features/graphql-client/graphiql-labels';

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'languages': ${problem}`);

/** English messages the language translates (whole sentences and labels, without arguments). */
function englishOnly(code: LocaleCode): Set<string> {
  const theirs = new Set(Object.values(CATALOGUES[code]));
  const out = new Set<string>();
  for (const [key, en] of Object.entries(CATALOGUES.en)) {
    if (/[{}<]/.test(en) || !/\p{L}{3,}/u.test(en) || CATALOGUES[code][key] === en || theirs.has(en)) continue;
    out.add(en.trim());
  }
  return out;
}

/** The lines of the page that are English interface text, leaving out names taken from the data. */
async function englishLines(page: Page, code: LocaleCode, dataNames: Set<string>): Promise<string[]> {
  const english = englishOnly(code);
  const text = await page.evaluate(() => document.body.innerText);
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const labels = await page.evaluate(() => [...document.querySelectorAll('[aria-label],[placeholder],[title]')].flatMap((e) => [e.getAttribute('aria-label'), e.getAttribute('placeholder'), e.getAttribute('title')]).filter((v): v is string => !!v));
  return [...new Set([...lines, ...labels.map((l) => l.trim())])].filter((l) => english.has(l) && !dataNames.has(l));
}

/** The placeholders of inputs that do not fit in them (run in the page). */
function placeholdersCut(inputs: Element[]): string[] {
  const ctx = document.createElement('canvas').getContext('2d')!;
  return (inputs as HTMLInputElement[])
    .filter((i) => {
      const style = getComputedStyle(i);
      ctx.font = style.font;
      return ctx.measureText(i.placeholder).width > i.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    })
    .map((i) => i.placeholder);
}

describe.skipIf(!!problem && !process.env.CI)('the interface in five languages', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let chinook = '';
  const languageButton = () => page.locator('header').getByRole('button', { name: new RegExp(`^(${LOCALES.map((l) => CATALOGUES[l.code]['common.language.menu']).join('|')})$`) });

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 850 } })).newPage();
    await signUpInBrowser(page, tablo.url, 'languages@example.com');
    chinook = await chinookProject(page, tablo, 'Chinook', 'tablo_t_e2e_languages');
    // A kanban and a form view, to look at in every language.
    await addColumn(page, chinook, 'Track', { cn: 'Stage', uidt: 'SingleSelect', meta: { options: [{ title: 'Demo', color: '#fde68a' }, { title: 'Released', color: '#bbf7d0' }] } });
    expect((await restInPage(page, chinook, 'PUT', 'Track/1', { Stage: 'Demo' })).status).toBe(200);
    for (const [tn, type, title, query_params] of [['Track', 'kanban', 'Lanes', { groupBy: 'Stage' }], ['Genre', 'form', 'Suggest', {}], ['Invoice', 'calendar', 'Billing', { dateColumn: 'InvoiceDate' }]] as const) {
      expect((await opInPage(page, 'xcVirtualTableCreate', { project_id: chinook, args: { tn, type, title, query_params } })).status).toBe(200);
    }
    // The projects list was read at sign-up, before the project was made: read it again.
    await page.reload();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  const pick = async (code: LocaleCode) => {
    await languageButton().click();
    await page.getByRole('menuitemradio', { name: LOCALES.find((l) => l.code === code)!.name }).click();
    await page.locator('header').getByRole('button', { name: CATALOGUES[code]['common.language.menu'], exact: true }).waitFor();
  };

  for (const { code } of LOCALES) {
    browserTest(`projects list, dashboard, grid, kanban, form and calendar in ${code}`, () => page, async () => {
      await page.goto(`${tablo.url}/#/projects`);
      await pick(code);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(code.replace('_', '-'));
      const found: string[] = [];
      const tree = page.getByRole('navigation').first();

      await page.getByText('Chinook', { exact: true }).first().waitFor();
      await shot(page, `language-${code}-projects`);
      found.push(...(await englishLines(page, code, new Set(['Chinook']))).map((l) => `projects: ${l}`));

      await page.goto(`${tablo.url}/#/nc/${chinook}`);
      await tree.getByRole('button', { name: 'Album', exact: true }).waitFor();
      await page.waitForLoadState('networkidle');
      // Names from the data: tables in the tree, and the columns of a grid or form left open by an earlier language.
      const albumColumns = Object.keys(((await restInPage(page, chinook, 'GET', 'Album?limit=1')).body as Record<string, unknown>[])[0]!);
      const genreColumns = Object.keys(((await restInPage(page, chinook, 'GET', 'Genre?limit=1')).body as Record<string, unknown>[])[0]!);
      const tables = new Set([...(await tree.getByRole('button').allInnerTexts()), ...(await page.getByRole('columnheader').allInnerTexts()), ...albumColumns, ...genreColumns].map((s) => s.trim()));
      await shot(page, `language-${code}-dashboard`);
      found.push(...(await englishLines(page, code, new Set([...tables, 'Chinook']))).map((l) => `dashboard: ${l}`));

      await tree.getByRole('button', { name: 'Album', exact: true }).click();
      await page.getByRole('gridcell').first().waitFor();
      await page.waitForLoadState('networkidle');
      const columns = (await page.getByRole('columnheader').allInnerTexts()).map((s) => s.trim());
      await shot(page, `language-${code}-grid`);
      // A view's name cut to the drawer's width ('Visualização em grade') is whole in its tooltip.
      const cutViews = await page.locator('.views-drawer .views-title').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth && e.getAttribute('title') !== e.textContent).map((e) => e.textContent));
      expect(cutViews).toEqual([]);
      found.push(...(await englishLines(page, code, new Set([...tables, ...columns, 'Chinook']))).map((l) => `grid: ${l}`));

      // A kanban and a form: no English, and no label of the interface cut off (a lane's name, a field's placeholders).
      const drawer = page.locator('.views-drawer');
      const trackColumns = Object.keys(((await restInPage(page, chinook, 'GET', 'Track?limit=1')).body as Record<string, unknown>[])[0]!);
      const viewNames = new Set([...tables, ...trackColumns, 'Chinook', 'Lanes', 'Suggest', 'Demo', 'Released']);
      await tree.getByRole('button', { name: 'Track', exact: true }).click();
      await drawer.getByRole('button', { name: 'Lanes', exact: true }).click();
      await page.locator('.record-card').first().waitFor();
      await page.waitForLoadState('networkidle');
      await shot(page, `language-${code}-kanban`);
      found.push(...(await englishLines(page, code, viewNames)).map((l) => `kanban: ${l}`));
      const cutLanes = await page.locator('.kanban-lane .lane-name').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight).map((e) => e.textContent));
      expect(cutLanes).toEqual([]);
      await tree.getByRole('button', { name: 'Genre', exact: true }).click();
      await drawer.getByRole('button', { name: 'Suggest', exact: true }).click();
      await page.locator('.fb-field-props input').first().waitFor();
      await shot(page, `language-${code}-form`);
      found.push(...(await englishLines(page, code, viewNames)).map((l) => `form: ${l}`));
      const cutPlaceholders = await page.locator('.fb-field-props input').evaluateAll(placeholdersCut);
      expect(cutPlaceholders).toEqual([]);
      // A calendar of invoices: its search names the display column (BillingAddress) in full.
      await tree.getByRole('button', { name: 'Invoice', exact: true }).click();
      await drawer.getByRole('button', { name: 'Billing', exact: true }).click();
      await page.locator('.cal-grid').waitFor();
      await shot(page, `language-${code}-calendar`);
      const invoiceColumns = Object.keys(((await restInPage(page, chinook, 'GET', 'Invoice?limit=1')).body as Record<string, unknown>[])[0]!);
      found.push(...(await englishLines(page, code, new Set([...viewNames, ...invoiceColumns, 'Billing']))).map((l) => `calendar: ${l}`));
      expect(await page.locator('.view-main .grid-search').evaluateAll(placeholdersCut)).toEqual([]);

      // On a phone the top bar keeps to one line within the screen in every language.
      await page.setViewportSize({ width: 390, height: 844 });
      try {
        const bar = await page.locator('header').evaluate((h) => ({ height: h.getBoundingClientRect().height, right: Math.max(...[...h.querySelectorAll('button, a')].map((e) => e.getBoundingClientRect().right)) }));
        expect(bar.height).toBe(40);
        expect(bar.right).toBeLessThanOrEqual(390);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
        await shot(page, `language-${code}-phone`);
      } finally {
        await page.setViewportSize({ width: 1400, height: 850 });
      }

      // The choice is kept: a reload shows the same language.
      await page.reload();
      await page.locator('header').getByRole('button', { name: CATALOGUES[code]['common.language.menu'], exact: true }).waitFor();
      expect(found).toEqual([]);
    });
  }

  browserTest('in French, a change the server refuses shows its message in French', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${chinook}`);
    await pick('fr');
    const fr = CATALOGUES.fr;
    // Chinook has a table Album: a new table 'album' is refused (409) with the table's name in the message.
    await page.getByRole('button', { name: fr['common.home.createTable'], exact: true }).first().click();
    const dialog = page.getByRole('dialog', { name: fr['schema.createTable.heading'] });
    await dialog.getByLabel(fr['schema.createTable.tableName']).fill('album');
    await dialog.getByRole('button', { name: fr['schema.createTable.create'], exact: true }).click();
    await page.getByText('Créer la table album : Une table nommée « album » existe déjà').first().waitFor();
    expect(await page.getByText("A table named 'album' already exists").count()).toBe(0);
    await shot(page, 'language-fr-server-message');
  });

  browserTest('in French, the formula check and a Where… that does not parse speak French', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${chinook}?name=Genre&dbalias=db&type=table`);
    // Afresh: the test before leaves its refused Create table dialog open.
    await page.reload();
    await pick('fr');
    const fr = CATALOGUES.fr;
    await page.getByRole('button', { name: fr['app.command.addColumn'], exact: true }).click();
    const form = page.getByRole('dialog', { name: fr['schema.form.addColumn'] });
    await form.getByRole('button', { name: new RegExp(`${fr['schema.form.columnType']}$`) }).click();
    await page.getByRole('listbox').getByRole('option', { name: fr['schema.type.formula'], exact: true }).click();
    const editor = form.getByRole('textbox', { name: fr['schema.formula.label'] });
    await editor.fill('{Name} +');
    await form.getByRole('alert').filter({ hasText: 'La formule s’arrête trop tôt (au caractère' }).waitFor();
    await editor.fill('NOPE({Name})');
    await form.getByRole('alert').filter({ hasText: 'Fonction inconnue NOPE' }).waitFor();
    await shot(page, 'language-fr-formula-check');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    // The where language's complaint about a column it does not know.
    await page.getByRole('button', { name: fr['grid.query.whereButton'], exact: true }).click();
    const where = page.getByRole('textbox', { name: fr['grid.query.where'] });
    await where.fill('(Nope,eq,1)');
    await where.press('Enter');
    await page.getByText('Colonne « Nope » introuvable').waitFor();
    expect(await page.getByText("Column 'Nope' not found").count()).toBe(0);
    await shot(page, 'language-fr-where-error');
    await where.fill('');
    await where.press('Enter');
    await page.getByText('Colonne « Nope » introuvable').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: fr['grid.query.builder'], exact: true }).click();
    await pick('en');
  });

  browserTest('the SQL Client’s temporary editors are named in the language shown, whichever they were made in', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${chinook}?name=sqlClient&dbalias=db&type=panel`);
    await pick('fr');
    await page.getByRole('tab', { name: 'Requête 1', exact: true }).waitFor();
    await pick('en');
    await page.getByRole('tab', { name: 'Query 1', exact: true }).waitFor();
    expect(await page.getByRole('tab', { name: /^Requête/ }).count()).toBe(0);
    expect(await page.getByLabel('Query name').inputValue()).toBe('Query 1');
    // A name someone gave stays as it is in every language.
    await page.getByLabel('Query name').fill('Top sellers');
    await pick('es');
    await page.getByRole('tab', { name: 'Top sellers', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Consulta 2', exact: true }).waitFor();
    await shot(page, 'language-es-sql-editors');
    await pick('en');
  });

  browserTest('the GraphQL Client in French: GraphiQL’s buttons, tabs, editors and dialogs, and the first query made in English', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${chinook}?name=graphqlClient&dbalias=db&type=panel`);
    await pick('en');
    const query = page.locator('.graphiql-query-editor .CodeMirror');
    await query.getByText("# This project's GraphQL API.", { exact: false }).waitFor();
    await pick('fr');
    const fr = CATALOGUES.fr;
    await query.getByText('# L’API GraphQL de ce projet.', { exact: false }).waitFor();
    await page.getByRole('button', { name: fr['tools.graphiql.showDocs'] }).waitFor();
    const english = new Set(GRAPHIQL_ENGLISH.filter((en) => !Object.values(fr).includes(en)));
    const left = async () =>
      (await page.evaluate(() => {
        const out: string[] = [];
        for (const e of document.querySelectorAll('.graphql-client *, [class*="graphiql-dialog"] *')) {
          if (e.closest('.CodeMirror')) continue;
          for (const a of ['aria-label', 'title', 'placeholder']) if (e.getAttribute(a)) out.push(e.getAttribute(a)!.trim());
          for (const n of e.childNodes) if (n.nodeType === Node.TEXT_NODE && n.nodeValue!.trim()) out.push(n.nodeValue!.trim());
        }
        return out;
      })).filter((l) => english.has(l));
    expect(await left()).toEqual([]);
    // One tab still: its first query said again in French, not a second tab beside the English one.
    expect(await page.locator('.graphiql-tab-button').allInnerTexts()).toEqual(['<sans titre>']);
    // Every editor's text area has a name.
    expect(await page.locator('.graphql-client textarea:not([aria-label])').count()).toBe(0);
    expect(await page.locator('.graphiql-query-editor textarea').getAttribute('aria-label')).toBe(fr['tools.graphiql.queryEditor']);
    await page.getByRole('button', { name: fr['tools.graphiql.headers'], exact: true }).click();
    await shot(page, 'language-fr-graphql');
    // A dialog GraphiQL opens at the end of the page speaks French too.
    await page.getByRole('button', { name: fr['tools.graphiql.openShortKeys'] }).click();
    await page.getByRole('dialog').getByRole('heading', { name: fr['tools.graphiql.shortKeys'] }).waitFor();
    expect(await left()).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await pick('en');
  });

  browserTest('a language switch keeps the dashboard’s open tabs, the active one still active', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${chinook}`);
    await pick('en');
    await closeAllTabs(page);
    const tabs = page.locator('.tab-bar [role="tab"]');
    for (const [name, type] of [['Album', 'table'], ['Artist', 'table'], ['info', 'panel']]) {
      await page.goto(`${tablo.url}/#/nc/${chinook}?name=${name}&dbalias=db&type=${type}`);
      await tabs.filter({ hasText: type === 'panel' ? 'Info' : name }).waitFor();
    }
    await tabs.filter({ hasText: 'Artist' }).click();
    await page.waitForURL(/name=Artist/);
    await pick('es');
    await tabs.filter({ hasText: CATALOGUES.es['common.panels.info.title'] }).waitFor();
    expect(await tabs.allInnerTexts()).toEqual(['Album', 'Artist', CATALOGUES.es['common.panels.info.title']]);
    expect(await tabs.filter({ hasText: 'Artist' }).getAttribute('aria-selected')).toBe('true');
    await shot(page, 'language-es-tabs-kept');
    await pick('en');
  });
});
