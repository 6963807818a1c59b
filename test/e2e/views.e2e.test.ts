/**
 * Saved views in the browser against the binary, on the Chinook data (SQLite): for each kind a
 * view is made from the views drawer, changed, and still so after a reload (kept by the server,
 * not the browser); a kanban card and a calendar entry are dragged and the row checked through the
 * REST API; a form is built and submitted. Screenshots of each kind go to test-results/e2e.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, holdFirstAnswer, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { addColumn, chinookProject, goToDate, listViews, opInPage, restInPage, until } from './views-helpers';

/** A 1x1 PNG image. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'views': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('saved views in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let projectId = '';
  /** What the page logged as errors (React warns there about misused props). */
  const consoleErrors: string[] = [];
  const tree = () => page.getByRole('navigation', { name: 'Project tree' });
  const drawer = () => page.getByRole('complementary', { name: 'Views' });
  const openTable = async (name: string) => {
    await tree().getByRole('button', { name, exact: true }).click();
    await drawer().getByRole('button', { name: 'Grid view', exact: true }).waitFor();
  };
  /** Creates a view of `kind` named `title` from the drawer (with `pick` filling the dialog's extra choices). */
  const createView = async (kind: string, title: string, pick?: () => Promise<void>) => {
    await drawer().getByRole('button', { name: kind, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('View name').fill(title);
    await pick?.();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('view-title').getByText(title).waitFor();
  };
  const reload = async (title: string) => {
    await page.reload();
    await page.getByTestId('view-title').getByText(title).waitFor();
  };

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1600, height: 900 } })).newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    await signUpInBrowser(page, tablo.url, 'views@example.com');
    projectId = await chinookProject(page, tablo, 'Views', 'tablo_t_e2e_views');
    // Chinook has no SingleSelect and no Attachment column: the dashboard adds them.
    await addColumn(page, projectId, 'Track', { cn: 'Stage', uidt: 'SingleSelect', meta: { options: [{ title: 'Demo', color: '#fde68a' }, { title: 'Mixing', color: '#bfdbfe' }, { title: 'Released', color: '#bbf7d0' }] } });
    await addColumn(page, projectId, 'Album', { cn: 'Cover', uidt: 'Attachment' });
    await addColumn(page, projectId, 'Album', { cn: 'Released', uidt: 'Date' });
    await addColumn(page, projectId, 'Genre', { cn: 'Moods', uidt: 'MultiSelect', meta: { options: [{ title: 'Calm', color: '#bbf7d0' }, { title: 'Loud', color: '#fecaca' }, { title: 'Dark', color: '#e5e7eb' }] } });
    const stages = ['Demo', 'Demo', 'Mixing', 'Mixing', 'Released', 'Released'];
    for (const [i, stage] of stages.entries()) expect((await restInPage(page, projectId, 'PUT', `Track/${i + 1}`, { Stage: stage })).status).toBe(200);
    const colours = ['#2563eb', '#db2777', '#16a34a', '#d97706', '#7c3aed', '#0891b2'];
    for (const [i, colour] of colours.entries()) {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="150"><rect width="240" height="150" fill="${colour}"/><circle cx="120" cy="75" r="42" fill="#ffffff" opacity="0.5"/></svg>`;
      const url = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
      expect((await restInPage(page, projectId, 'PUT', `Album/${i + 1}`, { Cover: [{ url, title: `cover-${i + 1}.svg`, mimetype: 'image/svg+xml' }], Released: `2024-0${i + 1}-15` })).status).toBe(200);
    }
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await tree().getByRole('button', { name: 'Track', exact: true }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  /** The row count the grid shows for the tracks longer than ten minutes ("N rows"), as the server counts them. */
  const longTracks = async () => `${(await restInPage(page, projectId, 'GET', `Track/count?where=${encodeURIComponent('(Milliseconds,gt,600000)')}`)).body.count} rows`;

  browserTest('a grid view keeps its filter, sort, fields, order, widths and row height in the view', () => page, async () => {
    await openTable('Track');
    await createView('Grid', 'Long tracks');
    expect(page.url()).toContain('view=');
    await page.getByRole('button', { name: '+ Filter' }).click();
    await page.getByLabel('Filter 1 column').selectOption('Milliseconds');
    await page.getByLabel('Filter 1 operator').selectOption('gt');
    await page.getByLabel('Filter 1 value').fill('600000');
    await page.getByRole('button', { name: '+ Sort' }).click();
    await page.getByLabel('Sort 1 column').selectOption('Milliseconds');
    await page.getByLabel('Sort 1 direction').selectOption('desc');
    // Filters, sorts and the search apply as they change (Apply is only for the where text): the grid
    // counts the long tracks (each change counts again: "counting…" until the last one's count is in).
    const count = await longTracks();
    await page.getByTestId('row-count').getByText(count, { exact: true }).waitFor();
    // Fields: hide Composer, drag Milliseconds to the top, widen Name, tall rows.
    await page.getByRole('button', { name: /^Fields/ }).click();
    const fields = page.getByRole('dialog', { name: 'Show or hide fields' });
    await fields.getByText('Composer').click();
    await fields.getByTestId('field-Milliseconds').dragTo(fields.getByTestId('field-TrackId'));
    await page.getByRole('button', { name: /^Fields/ }).click();
    // A column header dragged onto another moves the column there.
    await page.getByRole('columnheader', { name: /^Name/ }).locator('.grid-th-name').dragTo(page.getByRole('columnheader', { name: /^TrackId/ }));
    const handle = page.getByRole('columnheader', { name: /^Name/ }).locator('.col-resize');
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 120, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.getByLabel('Row height').selectOption('tall');
    await page.waitForTimeout(800);
    await shot(page, 'views-grid');
    await reload('Long tracks');
    await page.getByTestId('row-count').getByText(count!).waitFor();
    expect(await page.getByRole('columnheader', { name: /Composer/ }).count()).toBe(0);
    expect(await page.getByRole('columnheader').first().textContent()).toContain('Milliseconds');
    expect((await page.getByRole('columnheader', { name: /^Name/ }).boundingBox())!.width).toBeGreaterThan(260);
    expect(await page.getByLabel('Row height').inputValue()).toBe('tall');
    expect(await page.getByLabel('Filter 1 value').inputValue()).toBe('600000');
    const saved = (await listViews(page, projectId, 'Track')).find((v) => v.title === 'Long tracks')!;
    expect(saved.query_params.where).toBe('(Milliseconds,gt,600000)');
    expect(saved.query_params.sort).toBe('-Milliseconds');
    expect(saved.query_params.rowHeight).toBe('tall');
    expect(saved.query_params.fields.slice(0, 3).map((f: { cn: string }) => f.cn)).toEqual(['Milliseconds', 'Name', 'TrackId']);
    expect(saved.query_params.fields.find((f: { cn: string }) => f.cn === 'Composer').show).toBe(false);
  }, 120_000);

  browserTest('a view is copied with everything, renamed and deleted (after a confirm naming it) from the drawer', () => page, async () => {
    const count = await longTracks();
    await page.getByTestId('row-count').getByText(count, { exact: true }).waitFor();
    const menu = async (title: string, entry: string) => {
      await drawer().getByRole('button', { name: `View menu of ${title}` }).click();
      await page.getByRole('menuitem', { name: entry }).click();
    };
    await menu('Long tracks', 'Copy');
    const copy = page.getByRole('dialog', { name: "Copy view 'Long tracks'" });
    expect(await copy.getByLabel('View name').inputValue()).toBe('Long tracks copy');
    await copy.getByRole('button', { name: 'Copy' }).click();
    await page.getByTestId('view-title').getByText('Long tracks copy').waitFor();
    await page.getByTestId('row-count').getByText(count!).waitFor();
    expect(await page.getByLabel('Row height').inputValue()).toBe('tall');
    await menu('Long tracks copy', 'Rename');
    const rename = page.getByRole('dialog', { name: "Rename view 'Long tracks copy'" });
    await rename.getByLabel('View name').fill('Longest');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('tab', { name: 'Track · Longest' }).waitFor();
    await menu('Longest', 'Delete');
    const confirm = page.getByRole('dialog', { name: "Delete view 'Longest'?" });
    await shot(page, 'views-delete-confirm');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('tab', { name: 'Track · Longest' }).waitFor({ state: 'detached' });
    expect(await drawer().getByRole('button', { name: 'Longest', exact: true }).count()).toBe(0);
    expect((await listViews(page, projectId, 'Track')).map((v) => v.title)).toEqual(['Grid view', 'Long tracks']);
  });

  browserTest('views are reordered from the keyboard: Move up and Move down in a view\'s menu, kept by the server', () => page, async () => {
    const titles = async () => (await drawer().locator('.views-title').allTextContents()).join(',');
    expect(await until(titles, 'Grid view,Long tracks')).toBe('Grid view,Long tracks');
    const byKeyboard = async (title: string, entry: string) => {
      await drawer().getByRole('button', { name: `View menu of ${title}` }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menuitem', { name: entry }).waitFor();
      // The first view has no Move up, the last no Move down.
      expect(await page.getByRole('menuitem', { name: entry === 'Move up' ? 'Move down' : 'Move up' }).count()).toBe(0);
      while (!(await page.getByRole('menuitem', { name: entry }).evaluate((el) => el === document.activeElement))) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
    };
    await byKeyboard('Long tracks', 'Move up');
    expect(await until(titles, 'Long tracks,Grid view')).toBe('Long tracks,Grid view');
    expect(await until(async () => (await listViews(page, projectId, 'Track')).sort((a: any, b: any) => a.order - b.order).map((v) => v.title).join(','), 'Long tracks,Grid view')).toBe('Long tracks,Grid view');
    await byKeyboard('Long tracks', 'Move down');
    expect(await until(titles, 'Grid view,Long tracks')).toBe('Grid view,Long tracks');
  });

  browserTest('a kanban shows a lane per choice; a dragged card updates the row; lanes stay collapsed and reordered', () => page, async () => {
    // A table without a select column: the dialog names the column type as the type picker shows it.
    await openTable('Genre');
    await drawer().getByRole('button', { name: 'Kanban', exact: true }).click();
    await page.getByRole('dialog').getByText('A kanban needs a “Single select” column to make its lanes from.').waitFor();
    // Create stays off, and the reason stays while a name is typed.
    expect(await page.getByRole('dialog').getByRole('button', { name: 'Create', exact: true }).isDisabled()).toBe(true);
    await page.getByRole('dialog').getByLabel('View name').fill('Lanes');
    expect(await page.getByRole('dialog').getByText('A kanban needs a “Single select” column to make its lanes from.').count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await openTable('Track');
    await createView('Kanban', 'Stages', async () => {
      await page.getByRole('dialog').getByLabel('Lanes from').selectOption('Stage');
    });
    const lane = (name: string) => page.getByRole('listitem', { name: `Lane ${name}` });
    await lane('Demo').getByRole('article').first().waitFor();
    await page.getByTestId('lane-count-Demo').getByText('2').waitFor();
    await page.getByTestId('lane-count-Uncategorized').getByText('3497').waitFor();
    // Each lane reads its first page only.
    expect(await lane('Uncategorized').getByRole('article').count()).toBeLessThanOrEqual(25);
    await shot(page, 'views-kanban');
    // Scrolling to the end of a lane reads its next page.
    await lane('Uncategorized').locator('.lane-cards').evaluate((el) => (el.scrollTop = el.scrollHeight));
    expect(await until(async () => (await lane('Uncategorized').getByRole('article').count()) > 25, true)).toBe(true);
    await page.getByRole('button', { name: 'Collapse lane Uncategorized' }).click();
    const card = lane('Demo').getByRole('article', { name: 'For Those About To Rock (We Salute You)' });
    await card.dragTo(lane('Released').locator('.lane-cards'));
    await lane('Released').getByRole('article', { name: 'For Those About To Rock (We Salute You)' }).waitFor();
    await page.getByTestId('lane-count-Released').getByText('3').waitFor();
    expect(await until(async () => (await restInPage(page, projectId, 'GET', 'Track/1')).body.Stage, 'Released')).toBe('Released');
    // The keyboard moves a card too: Alt+→ to the lane on the right, Alt+← back.
    await lane('Mixing').getByRole('article', { name: 'Restless and Wild' }).focus();
    await page.keyboard.press('Alt+ArrowRight');
    await lane('Released').getByRole('article', { name: 'Restless and Wild' }).waitFor();
    expect(await until(async () => (await restInPage(page, projectId, 'GET', 'Track/4')).body.Stage, 'Released')).toBe('Released');
    // The moved card keeps the focus in its new lane (the echo of the move reads nothing again).
    expect(await until(() => page.evaluate(() => document.activeElement?.closest('[role=listitem]')?.getAttribute('aria-label') + '/' + document.activeElement?.getAttribute('aria-label')), 'Lane Released/Restless and Wild')).toBe('Lane Released/Restless and Wild');
    await page.keyboard.press('Alt+ArrowLeft');
    await lane('Mixing').getByRole('article', { name: 'Restless and Wild' }).waitFor();
    expect(await until(async () => (await restInPage(page, projectId, 'GET', 'Track/4')).body.Stage, 'Mixing')).toBe('Mixing');
    await page.getByRole('button', { name: 'Move lane Released left' }).click();
    await page.waitForTimeout(700);
    await reload('Stages');
    await page.getByRole('button', { name: 'Expand lane Uncategorized' }).waitFor();
    const names = await page.locator('.kanban-lane .lane-name').allTextContents();
    expect(names.indexOf('Released')).toBeLessThan(names.indexOf('Mixing'));
    await lane('Released').getByRole('article', { name: 'For Those About To Rock (We Salute You)' }).waitFor();
  });

  browserTest('an open kanban follows lane order and collapsed lanes saved elsewhere (another tab, another person)', () => page, async () => {
    const saved = (await listViews(page, projectId, 'Track')).find((v) => v.title === 'Stages')!;
    const names = async () => (await page.locator('.kanban-lane .lane-name').allTextContents()).join(',');
    const laneOrder = ['Mixing', 'Demo', 'Released', ''];
    const updated = await opInPage(page, 'xcVirtualTableUpdate', { project_id: projectId, args: { id: saved.id, query_params: { ...saved.query_params, laneOrder, collapsedLanes: [] } } });
    expect(updated.status).toBe(200);
    expect(await until(names, 'Mixing,Demo,Released,Uncategorized')).toBe('Mixing,Demo,Released,Uncategorized');
    await page.getByRole('button', { name: 'Collapse lane Uncategorized' }).waitFor();
    // A lane moved here now starts from that order, and saves it (not the order shown before).
    await page.getByRole('button', { name: 'Move lane Demo left' }).click();
    await page.waitForTimeout(700);
    expect((await listViews(page, projectId, 'Track')).find((v) => v.title === 'Stages')!.query_params.laneOrder).toEqual(['Demo', 'Mixing', 'Released', '']);
  });

  browserTest('a calendar reads only its range, keeps week or month, and a dragged entry moves the row\'s date', () => page, async () => {
    const first = (await restInPage(page, projectId, 'GET', 'Invoice/1')).body;
    const day = String(first.InvoiceDate).slice(0, 10);
    await openTable('Invoice');
    await createView('Calendar', 'Billing', async () => {
      await page.getByRole('dialog').getByLabel('Date column', { exact: true }).selectOption('InvoiceDate');
    });
    await goToDate(page, day);
    await page.getByRole('gridcell', { name: day }).getByRole('button', { name: /on / }).first().waitFor();
    const status = await page.getByTestId('calendar-status').textContent();
    // Only the month shown is read (Chinook has a few dozen invoices a month).
    expect(Number(status!.split(' ')[0])).toBeLessThan(100);
    await shot(page, 'views-calendar');
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const before = await page.getByRole('gridcell', { name: next }).getByRole('button', { name: /on / }).count();
    await page.getByRole('gridcell', { name: day }).getByRole('button', { name: /on / }).first().dragTo(page.getByRole('gridcell', { name: next }));
    expect(await until(() => page.getByRole('gridcell', { name: next }).getByRole('button', { name: /on / }).count(), before + 1)).toBe(before + 1);
    const moved = (await restInPage(page, projectId, 'GET', `Invoice/${1}`)).body.InvoiceDate;
    expect(String(moved).slice(0, 10)).toBe(next);
    // The keyboard moves an entry too: Alt+← takes it back a day.
    const title = await page.getByRole('gridcell', { name: next }).getByRole('button', { name: /on / }).first().getAttribute('title');
    await page.getByRole('gridcell', { name: next }).getByRole('button', { name: `${title} on ${next}` }).focus();
    await page.keyboard.press('Alt+ArrowLeft');
    expect(await until(async () => String((await restInPage(page, projectId, 'GET', 'Invoice/1')).body.InvoiceDate).slice(0, 10), day)).toBe(day);
    await page.getByRole('radio', { name: 'Week' }).click();
    await page.getByRole('grid', { name: 'Week' }).waitFor();
    await page.waitForTimeout(700);
    await reload('Billing');
    await page.getByRole('grid', { name: 'Week' }).waitFor();
    await shot(page, 'views-calendar-week');
  });

  browserTest('a calendar\'s end column is never its date column: the end picked as the date leaves no end, in the dialog and the toolbar', () => page, async () => {
    await openTable('Employee');
    await createView('Calendar', 'Hires', async () => {
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('End date column').selectOption('HireDate');
      await dialog.getByLabel('Date column', { exact: true }).selectOption('HireDate');
      // The end list shows none: the view is made without one.
      expect(await dialog.getByLabel('End date column').inputValue()).toBe('');
    });
    const saved = async () => (await listViews(page, projectId, 'Employee')).find((v) => v.title === 'Hires')!.query_params;
    expect((await saved()).dateColumn).toBe('HireDate');
    expect((await saved()).endDateColumn).toBeUndefined();
    await page.getByLabel('End date column').selectOption('BirthDate');
    await page.getByLabel('Date column', { exact: true }).selectOption('BirthDate');
    expect(await page.getByLabel('End date column').inputValue()).toBe('');
    expect(await until(async () => JSON.stringify([(await saved()).dateColumn, (await saved()).endDateColumn ?? null]), '["BirthDate",null]')).toBe('["BirthDate",null]');
  });

  browserTest('a form keeps its builder settings and a submission creates the row', () => page, async () => {
    await openTable('Genre');
    await createView('Form', 'Suggest a genre');
    await page.getByLabel('Heading', { exact: true }).fill('Suggest a genre');
    await page.getByLabel('Subheading', { exact: true }).fill('Tell us what we are missing.');
    await page.getByLabel('Label of Name').fill('Genre name');
    await page.getByLabel('Help of Name').fill('One or two words');
    await page.getByLabel('Name is required').check();
    await page.getByLabel('Submit message').fill('Thanks, we will listen to it!');
    // The field's type reads as the column form names it, not as the internal type.
    await page.locator('.form-builder').getByText('Single line text', { exact: true }).first().waitFor();
    expect(await page.locator('.form-builder').getByText('SingleLineText').count()).toBe(0);
    await page.waitForTimeout(700);
    await shot(page, 'views-form-builder');
    await reload('Suggest a genre');
    expect(await page.getByLabel('Label of Name').inputValue()).toBe('Genre name');
    expect(await page.getByLabel('Name is required').isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'Fill in' }).click();
    const form = page.getByRole('form', { name: 'Suggest a genre' });
    await form.getByRole('button', { name: 'Submit' }).click();
    await form.getByText('Genre name is required').waitFor();
    await form.getByLabel(/^Genre name/).fill('Tablo Wave');
    // The message goes as soon as the field is filled in.
    await form.getByText('Genre name is required').waitFor({ state: 'detached' });
    // A multi select offers its choices to tick (the column's coloured chips), not a text to type them in.
    await form.locator('#form-Moods').click();
    const moods = page.getByRole('listbox', { name: /^Moods/ });
    await moods.getByRole('option', { name: 'Dark' }).click();
    await moods.getByRole('option', { name: 'Calm' }).click();
    await page.keyboard.press('Escape');
    await moods.waitFor({ state: 'detached' });
    expect(await form.locator('#form-Moods .chip').allTextContents()).toEqual(['Calm', 'Dark']);
    await shot(page, 'views-form-filled');
    await form.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Thanks, we will listen to it!').waitFor();
    await shot(page, 'views-form-submitted');
    const found = await restInPage(page, projectId, 'GET', `Genre?where=${encodeURIComponent('(Name,eq,Tablo Wave)')}`);
    expect(found.body.length).toBe(1);
    expect(found.body[0].Moods).toBe('Calm,Dark');
    // A form taller than the screen scrolls; its Build / Fill in switch keeps its height (it shrank to a line).
    await openTable('Track');
    await createView('Form', 'Track form');
    expect((await page.getByRole('radio', { name: 'Fill in' }).boundingBox())!.height).toBeGreaterThan(20);
  });

  browserTest('a form whose column was dropped: its fields move as shown (the last one has no ↓)', () => page, async () => {
    await openTable('Genre');
    await drawer().getByRole('button', { name: 'Suggest a genre', exact: true }).click();
    await page.getByLabel('Label of Moods').waitFor();
    await addColumn(page, projectId, 'Genre', { cn: 'Scratch', uidt: 'SingleLineText' });
    await page.getByRole('button', { name: /Add a field/ }).click();
    await page.getByRole('menuitem', { name: 'Scratch' }).click();
    await page.getByLabel('Label of Scratch').waitFor();
    await page.waitForTimeout(700);
    expect((await opInPage(page, 'columnDelete', { project_id: projectId, plus: true, args: { tn: 'Genre', cn: 'Scratch' } })).status).toBe(200);
    await page.getByLabel('Label of Scratch').waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Move Moods down' }).isDisabled()).toBe(true);
    // Moving Name down puts it after Moods at once.
    await page.getByRole('button', { name: 'Move Name down' }).click();
    expect(await page.getByRole('button', { name: 'Move Name down' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Move Name up' }).click();
  });

  browserTest('a gallery shows covers and the chosen fields, kept after reload', () => page, async () => {
    await openTable('Album');
    await createView('Gallery', 'Covers', async () => {
      await page.getByRole('dialog').getByLabel('Cover image from').selectOption('Cover');
    });
    await page.getByRole('listitem').getByRole('article').first().waitFor();
    await page.getByRole('button', { name: /^Card fields/ }).click();
    const menu = page.getByRole('dialog', { name: 'Show or hide fields' });
    // Keys are not shown by default; the cover column is the cover, not a card field.
    expect(await menu.getByRole('checkbox', { name: 'AlbumId' }).isChecked()).toBe(false);
    expect(await menu.getByText('Cover').count()).toBe(0);
    await menu.getByText('ArtistId').click();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await page.waitForTimeout(700);
    await reload('Covers');
    const card = page.getByRole('article', { name: 'For Those About To Rock We Salute You' });
    await card.locator('img').waitFor();
    await card.getByText('2024-01-15').waitFor();
    expect(await card.getByText('cover-1.svg').count()).toBe(0);
    expect(await card.getByText('AlbumId', { exact: true }).count()).toBe(0);
    expect(await card.getByText('ArtistId', { exact: true }).count()).toBe(0);
    const saved = (await listViews(page, projectId, 'Album')).find((v) => v.title === 'Covers')!;
    expect(saved.query_params.fields.find((f: { cn: string }) => f.cn === 'Cover').show).toBe(true);
    await shot(page, 'views-gallery');
    // A card tells its place among all (the list has no aria-rowcount, which lists do not allow).
    const first = page.getByRole('list', { name: 'Gallery' }).getByRole('listitem').first();
    expect([await first.getAttribute('aria-posinset'), await first.getAttribute('aria-setsize')]).toEqual(['1', '347']);
    expect(await page.getByRole('list', { name: 'Gallery' }).getAttribute('aria-rowcount')).toBeNull();
    // Kanban, calendar, form and gallery boards were drawn: none with a key spread from props.
    expect(consoleErrors.filter((e) => /"key" prop/.test(e))).toEqual([]);
    // Virtualised: far fewer cards are drawn than the 347 albums, and scrolling to the end reads the last ones.
    expect(await page.getByRole('listitem').getByRole('article').count()).toBeLessThan(100);
    await page.getByRole('list', { name: 'Gallery' }).evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.getByRole('article', { name: 'Koyaanisqatsi (Soundtrack from the Motion Picture)' }).waitFor();
  });

  browserTest('a gallery card opens the grid\'s row form: a cover uploaded there shows on the card at once', () => page, async () => {
    await reload('Covers');
    const card = page.getByRole('article', { name: 'Facelift' });
    await card.getByText('No image').waitFor();
    // The read of the row with its parents is held: the form opens at once all the same, the artist's key shown as itself.
    const parentsRead = (href: string) => {
      const url = new URL(href);
      return url.pathname.endsWith('/api/v1/Album') && !!url.searchParams.get('bt') && url.searchParams.get('limit') === '1';
    };
    const read = await holdFirstAnswer(page, parentsRead);
    await card.click();
    const form = page.getByRole('dialog', { name: 'Expanded row' });
    await form.waitFor();
    await read.readByServer;
    expect(await form.getByRole('button', { name: /^ArtistId/ }).innerText()).toContain('5');
    await shot(page, 'views-gallery-row-form-reading');
    await read.deliver();
    // The artist shows by name once read (the card's row came without it), as in the grid's expanded row.
    await form.getByRole('button', { name: /^ArtistId/ }).getByText('Alice In Chains').waitFor();
    // The Attachment field takes files (it was a text box of JSON), as the grid's expanded row does.
    await form.getByLabel('Pick files for Cover').setInputFiles([{ name: 'face.png', mimeType: 'image/png', buffer: PNG }]);
    await form.locator('img.cell-thumb').waitFor();
    await form.getByRole('button', { name: 'Close' }).click();
    await form.waitFor({ state: 'detached' });
    const cover = card.locator('.card-cover img');
    await cover.waitFor();
    expect(await until(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), 1)).toBe(1);
    expect((await restInPage(page, projectId, 'GET', 'Album/7')).body.Cover[0].title).toBe('face.png');
    await shot(page, 'views-gallery-uploaded-cover');
    // The read failing (the server away), the form is open all the same, the artist's key shown as itself.
    const refuse = (url: URL) => parentsRead(url.href);
    await page.route(refuse, (r) => r.abort('connectionrefused'));
    const failed = page.waitForEvent('requestfailed', (r) => parentsRead(r.url()));
    await card.click();
    await failed;
    await form.waitFor();
    expect(await form.getByRole('button', { name: /^ArtistId/ }).innerText()).toContain('5');
    await page.unroute(refuse);
    await form.getByRole('button', { name: 'Close' }).click();
    await form.waitFor({ state: 'detached' });
  });

  browserTest('a grid grouped by a column shows collapsible groups with counts, kept in the view', () => page, async () => {
    await openTable('Track');
    await createView('Grid', 'By stage');
    await page.getByLabel('Group by').selectOption('Stage');
    const released = page.getByRole('button', { name: /Released/ }).filter({ has: page.getByLabel('3 rows') });
    await released.waitFor();
    await page.getByRole('button', { name: /\(empty\)/ }).filter({ has: page.getByLabel('3,497 rows') }).waitFor();
    await released.click();
    await page.getByRole('rowgroup').getByRole('gridcell', { name: 'For Those About To Rock (We Salute You)' }).waitFor();
    expect(await page.getByRole('rowgroup').getByRole('row').count()).toBe(4); // header and 3 rows
    await shot(page, 'views-grid-grouped');
    // Letters typed on a row of a group stay there: the app's one-key shortcuts (c: Settings, t: Terminal) keep quiet.
    await page.getByRole('rowgroup').getByRole('gridcell', { name: 'For Those About To Rock (We Salute You)' }).click();
    await page.keyboard.type('ct');
    expect(await page.getByRole('dialog', { name: 'Settings' }).count()).toBe(0);
    expect(await page.getByRole('tab', { name: /Terminal/ }).count()).toBe(0);
    // A row of a group opens in the expanded form and is edited there: given another stage, it moves to that group.
    const song = 'For Those About To Rock (We Salute You)';
    const rowOf = (name: string) => page.getByRole('row').filter({ has: page.getByRole('gridcell', { name, exact: true }) });
    await rowOf(song).getByRole('button', { name: /^Expand row/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Expanded row' });
    await dialog.locator('#expand-Stage').click();
    await page.getByRole('listbox', { name: /^Stage/ }).getByRole('option', { name: 'Mixing' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: /Released/ }).filter({ has: page.getByLabel('2 rows') }).waitFor();
    expect(await rowOf(song).count()).toBe(0);
    await shot(page, 'views-grid-grouped-edited');
    // Back where it was, through the group it moved to (Enter on its row opens it too).
    await page.getByRole('button', { name: /Mixing/ }).click();
    await rowOf(song).focus();
    await page.keyboard.press('Enter');
    await dialog.locator('#expand-Stage').click();
    await page.getByRole('listbox', { name: /^Stage/ }).getByRole('option', { name: 'Released' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: /Released/ }).filter({ has: page.getByLabel('3 rows') }).waitFor();
    await page.waitForTimeout(700);
    await reload('By stage');
    expect(await page.getByLabel('Group by').inputValue()).toBe('Stage');
    await page.getByRole('button', { name: /Released/ }).filter({ has: page.getByLabel('3 rows') }).waitFor();
  });

  browserTest('a viewer (previewed) lists and opens views but changes none, and cannot drag cards', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.getByLabel('Preview as').selectOption('viewer');
    await page.waitForLoadState('load');
    await page.getByRole('button', { name: 'Reset Preview' }).waitFor();
    await openTable('Track');
    await drawer().getByRole('button', { name: 'Stages', exact: true }).click();
    await page.getByRole('listitem', { name: 'Lane Demo' }).getByRole('article').first().waitFor();
    expect(await page.getByRole('listitem', { name: 'Lane Demo' }).getByRole('article').first().getAttribute('draggable')).toBe('false');
    expect(await drawer().getByText('Create a view').count()).toBe(0);
    expect(await drawer().getByRole('button', { name: /^View menu of/ }).count()).toBe(0);
    await shot(page, 'views-viewer');
    await page.getByRole('button', { name: 'Reset Preview' }).click();
    await page.waitForLoadState('load');
    await tree().getByRole('button', { name: 'Track', exact: true }).waitFor();
  });
  browserTest('in a window 900 wide the views drawer starts hidden and, shown, lies over the view; a form goes below its builder', () => page, async () => {
    await page.setViewportSize({ width: 900, height: 800 });
    try {
      await page.goto(`${tablo.url}/#/nc/${projectId}`);
      await page.reload();
      await tree().getByRole('button', { name: 'Genre', exact: true }).click();
      await page.getByRole('gridcell', { name: 'Rock', exact: true }).first().waitFor();
      expect(await drawer().count()).toBe(0);
      const grid = (await page.locator('.view-main .grid').boundingBox())!;
      // The grid has the width beside the tree (the drawer left it about 150 px).
      expect(grid.width).toBeGreaterThan(550);
      await page.getByRole('button', { name: 'Show views' }).click();
      await drawer().getByRole('button', { name: 'Suggest a genre', exact: true }).waitFor();
      expect((await page.locator('.view-main .grid').boundingBox())!.width).toBe(grid.width);
      await drawer().getByRole('button', { name: 'Suggest a genre', exact: true }).click();
      await page.getByTestId('view-title').getByText('Suggest a genre').waitFor();
      // The view opens in a tab of its own, its drawer hidden again.
      expect(await drawer().count()).toBe(0);
      const builder = (await page.locator('.form-builder').boundingBox())!;
      const card = (await page.locator('.form-card').boundingBox())!;
      expect(card.y).toBeGreaterThanOrEqual(builder.y + builder.height);
      expect(card.width).toBeGreaterThan(300);
      await shot(page, 'views-narrow-form');
    } finally {
      await page.setViewportSize({ width: 1600, height: 900 });
    }
    // A wide window shows the drawer again: hiding it in a narrow one was not remembered.
    await page.reload();
    await drawer().getByRole('button', { name: 'Suggest a genre', exact: true }).waitFor();
  });
});
