/**
 * Form views in the browser against the binary (Chinook, SQLite): a belongs-to foreign key
 * (Track.AlbumId -> Album) picks its parent row through the row picker, in the builder's preview
 * and in the form, shows the chosen row's title, clears, and the row is made with the parent's key;
 * a shared form, whose link reads no other table, keeps a plain input for it. A form submitted with
 * no field filled in is refused before any call is made. Every column type gets its control (rating
 * icons, checkbox, choices, date and time inputs, currency and percent signs, email/URL/phone inputs,
 * JSON checked on leaving the field), in the dashboard and on a shared form, and the row gets the
 * values the grid would write.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, holdFirstAnswer, launchBrowser, pickRow, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { chinookProject, listViews, opInPage, restInPage } from './views-helpers';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The serious and critical accessibility violations inside the form named `name` (an axe-core scan). */
async function formViolations(page: Page, name: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  return page.evaluate(async (name) => {
    const form = document.querySelector(`form[aria-label="${name}"]`);
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const r = await axe.run(form, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, name);
}

/** A table with a column of each type a form asks for. */
const GEAR_COLUMNS = [
  { cn: 'id', uidt: 'ID', pk: true, ai: true },
  { cn: 'Name', uidt: 'SingleLineText' },
  { cn: 'Stars', uidt: 'Rating', meta: { max: 5, icon: 'star' } },
  { cn: 'Done', uidt: 'Checkbox' },
  { cn: 'Kind', uidt: 'SingleSelect', meta: { options: [{ title: 'tent', color: '#fde68a' }, { title: 'stove', color: '#bfdbfe' }] } },
  { cn: 'Tags', uidt: 'MultiSelect', meta: { options: [{ title: 'light', color: '#bbf7d0' }, { title: 'cheap', color: '#fecaca' }, { title: 'new', color: '#e9d5ff' }] } },
  { cn: 'Bought', uidt: 'Date' },
  { cn: 'Packed', uidt: 'DateTime' },
  { cn: 'Leaves', uidt: 'Time' },
  { cn: 'Setup', uidt: 'Duration', meta: { format: 'h:mm' } },
  { cn: 'Price', uidt: 'Currency', meta: { currency: 'EUR', locale: 'en-US', precision: 2 } },
  { cn: 'Share', uidt: 'Percent' },
  { cn: 'Count', uidt: 'Number' },
  { cn: 'Weight', uidt: 'Decimal' },
  { cn: 'Mail', uidt: 'Email' },
  { cn: 'Site', uidt: 'URL' },
  { cn: 'Phone', uidt: 'PhoneNumber' },
  { cn: 'Notes', uidt: 'LongText' },
  { cn: 'Spec', uidt: 'JSON' },
];

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'form fields': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('form fields in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let stranger: Page | undefined;
  let projectId = '';
  const tree = () => page.getByRole('navigation', { name: 'Project tree' });
  const drawer = () => page.getByRole('complementary', { name: 'Views' });
  /** Opens `table` and creates a form view named `title` there from the views drawer. */
  const createForm = async (table: string, title: string) => {
    await tree().getByRole('button', { name: table, exact: true }).click();
    await drawer().getByRole('button', { name: 'Form', exact: true }).click();
    await page.getByRole('dialog').getByLabel('View name').fill(title);
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('view-title').getByText(title).waitFor();
  };
  /** Picks the row titled `title` in the picker of a form's foreign-key field, searching for it. */
  const pickParent = async (field: string, table: string, title: string) => {
    await page.getByRole('button', { name: new RegExp(`^${field}`) }).click();
    const picker = page.getByRole('dialog', { name: `Choose ${table}` });
    await pickRow(picker, title);
    await picker.waitFor({ state: 'detached' });
  };

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    // The accessibility scan is injected: these contexts bypass the page's Content-Security-Policy (security.e2e checks it).
    page = await (await browser.newContext({ viewport: { width: 1500, height: 900 }, bypassCSP: true })).newPage();
    await signUpInBrowser(page, tablo.url, 'forms@example.com');
    projectId = await chinookProject(page, tablo, 'Forms', 'tablo_t_e2e_form_fields');
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await tree().getByRole('button', { name: 'Track', exact: true }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('a foreign key of a form picks its parent row by title, shows it, clears, and the row gets the key', () => page, async () => {
    await createForm('Track', 'New track');
    // The builder's preview offers the picker too, not a number box.
    const preview = page.locator('.form-stage');
    await preview.getByRole('button', { name: /^AlbumId/ }).waitFor();
    expect(await preview.locator('#form-AlbumId').evaluate((el) => el.tagName)).toBe('BUTTON');
    await page.getByRole('radio', { name: 'Fill in' }).click();
    const form = page.getByRole('form', { name: 'New track' });
    await form.getByLabel(/^Name/).fill('Tablo Anthem');
    await form.getByLabel(/^Milliseconds/).fill('201000');
    await form.getByLabel(/^UnitPrice/).fill('0.99');
    await pickParent('MediaTypeId', 'MediaType', 'AAC audio file');
    // An album beyond the picker's first page is found by its title.
    await pickParent('AlbumId', 'Album', 'Chronicle, Vol. 2');
    const album = form.getByRole('button', { name: /^AlbumId/ });
    expect(await album.textContent()).toBe('Chronicle, Vol. 2');
    expect(await album.getAttribute('aria-labelledby')).toBe('form-AlbumId-label form-AlbumId-value');
    await shot(page, 'form-parent-picked');
    // Cleared: the field asks for an album again; then another one is chosen.
    await form.getByRole('button', { name: 'Clear AlbumId' }).click();
    expect(await album.textContent()).toBe('Choose Album');
    // Its first list has this album too; the search's answer comes late. Meanwhile the first list says it is
    // busy (about to be replaced under the pointer), and once the answer is in, the album is picked from it.
    await album.click();
    const picker = page.getByRole('dialog', { name: 'Choose Album' });
    await picker.getByRole('button', { name: 'Let There Be Rock', exact: true }).waitFor();
    const held = await holdFirstAnswer(page, (url) => url.includes('/api/v1/Album?') && url.includes('where='));
    await picker.getByLabel('Search rows').fill('Let There Be Rock');
    await held.readByServer;
    expect(await picker.locator('.picker-list').getAttribute('aria-busy')).toBe('true');
    expect(await picker.locator('.picker-item').count()).toBeGreaterThan(1);
    await shot(page, 'form-picker-busy');
    await held.deliver();
    await picker.locator('.picker-list[aria-busy="false"]').waitFor();
    expect(await picker.locator('.picker-item').allInnerTexts()).toEqual(['Let There Be Rock']);
    await picker.getByRole('button', { name: 'Let There Be Rock', exact: true }).click();
    await picker.waitFor({ state: 'detached' });
    expect(await album.textContent()).toBe('Let There Be Rock');
    await form.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Thank you for submitting the form.').waitFor();
    const keyOf = async (table: string, where: string) => (await restInPage(page, projectId, 'GET', `${table}?where=${encodeURIComponent(where)}`)).body[0];
    const made = await keyOf('Track', '(Name,eq,Tablo Anthem)');
    expect(made.AlbumId).toBe((await keyOf('Album', '(Title,eq,Let There Be Rock)')).AlbumId);
    expect(made.MediaTypeId).toBe((await keyOf('MediaType', '(Name,eq,AAC audio file)')).MediaTypeId);
    expect(made.GenreId).toBeNull();
  });

  browserTest('a shared form keeps a plain input for the foreign key: its link reads no other table', () => stranger ?? page, async () => {
    const view = (await listViews(page, projectId, 'Track')).find((v) => v.title === 'New track')!;
    const link = await opInPage(page, 'createSharedViewLink', { project_id: projectId, args: { view_id: view.id } });
    expect(link.status).toBe(200);
    stranger = await (await browser.newContext({ viewport: { width: 1400, height: 860 } })).newPage();
    await stranger.goto(link.body.url);
    const form = stranger.getByRole('form', { name: 'New track' });
    await form.getByLabel(/^AlbumId/).fill('4');
    expect(await form.locator('#form-AlbumId').evaluate((el) => el.tagName)).toBe('INPUT');
    expect(await form.getByRole('button', { name: /^AlbumId/ }).count()).toBe(0);
    await form.getByLabel(/^Name/).fill('Shared Anthem');
    await form.getByLabel(/^MediaTypeId/).fill('1');
    await form.getByLabel(/^Milliseconds/).fill('1000');
    await form.getByLabel(/^UnitPrice/).fill('0.99');
    await form.getByRole('button', { name: 'Submit' }).click();
    await stranger.getByText('Thank you for submitting the form.').waitFor();
    await stranger.context().close();
    stranger = undefined;
    const made = (await restInPage(page, projectId, 'GET', `Track?where=${encodeURIComponent('(Name,eq,Shared Anthem)')}`)).body;
    expect(made.map((r: any) => r.AlbumId)).toEqual([4]);
  });

  browserTest('a form submitted with no field filled in says so and makes no call; one field filled in is enough', () => page, async () => {
    // Genre's Name may be empty: the form asks for nothing.
    await createForm('Genre', 'Quick genre');
    await page.getByRole('radio', { name: 'Fill in' }).click();
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/api/v1/Genre')) posts.push(r.url());
    });
    const form = page.getByRole('form', { name: 'Quick genre' });
    await form.getByRole('button', { name: 'Submit' }).click();
    await form.getByRole('alert').getByText('Fill in at least one field').waitFor();
    // Spaces are no answer either.
    await form.getByLabel(/^Name/).fill('   ');
    await form.getByRole('alert').waitFor({ state: 'detached' });
    await form.getByRole('button', { name: 'Submit' }).click();
    await form.getByRole('alert').getByText('Fill in at least one field').waitFor();
    await shot(page, 'form-nothing-filled');
    expect(posts).toEqual([]);
    expect((await restInPage(page, projectId, 'GET', 'Genre/count')).body.count).toBe(25);
    await form.getByLabel(/^Name/).fill('Sea shanty');
    await form.getByRole('alert').waitFor({ state: 'detached' });
    await form.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Thank you for submitting the form.').waitFor();
    expect(posts.length).toBe(1);
    expect((await restInPage(page, projectId, 'GET', 'Genre/count')).body.count).toBe(26);
  });

  browserTest('every column type gets its control in a form: rating icons, signs, typed inputs, problems pointed out; the row gets the grid\'s values', () => page, async () => {
    const made = await opInPage(page, 'tableCreate', { project_id: projectId, plus: true, args: { tn: 'gear', _tn: 'Gear', columns: GEAR_COLUMNS } });
    expect(made.status).toBe(200);
    await page.reload();
    await createForm('Gear', 'Pack list');
    await page.getByRole('radio', { name: 'Fill in' }).click();
    const form = page.getByRole('form', { name: 'Pack list' });
    await form.getByLabel(/^Name/).fill('Tent');
    // A rating is its icons, one radio button each, moved through with the arrow keys, and cleared.
    const stars = form.getByRole('radiogroup', { name: 'Stars' });
    expect(await stars.getByRole('radio').count()).toBe(5);
    // The icon is clicked (its radio button is out of sight).
    const icon = (n: number) => stars.getByRole('radio', { name: `Rate ${n} of 5` }).locator('..');
    await icon(2).click();
    expect(await stars.getByRole('radio', { name: 'Rate 2 of 5' }).isChecked()).toBe(true);
    await page.keyboard.press('ArrowRight');
    expect(await stars.getByRole('radio', { name: 'Rate 3 of 5' }).isChecked()).toBe(true);
    expect(await stars.locator('.rating-icon.lit').count()).toBe(3);
    await form.getByRole('button', { name: 'Clear Stars' }).click();
    expect(await stars.locator('.rating-icon.lit').count()).toBe(0);
    // The focus goes back to the stars (the button that had it is gone).
    expect(await stars.getByRole('radio', { name: 'Rate 1 of 5' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await icon(4).click();
    await form.getByLabel(/^Done/).check();
    // A single select is picked by keyboard in its list of coloured chips (type-ahead on the closed button too).
    const kind = form.locator('#form-Kind');
    await kind.focus();
    await page.keyboard.press('s');
    expect(await kind.locator('.chip').allTextContents()).toEqual(['stove']);
    // A multi select ticks several chips in its list; Esc closes it.
    await form.locator('#form-Tags').click();
    const tagList = page.getByRole('listbox', { name: /^Tags/ });
    await tagList.getByRole('option', { name: 'light' }).click();
    await tagList.getByRole('option', { name: 'new' }).click();
    await page.keyboard.press('Escape');
    await tagList.waitFor({ state: 'detached' });
    expect(await form.locator('#form-Tags .chip').allTextContents()).toEqual(['light', 'new']);
    // A date is the grid's date field (month first in English); date-time and time keep the browser's inputs, as in the grid.
    expect(await form.locator('#form-Bought').getAttribute('role')).toBe('group');
    expect(await form.getByLabel(/^Packed/).getAttribute('type')).toBe('datetime-local');
    expect(await form.getByLabel(/^Leaves/).getAttribute('type')).toBe('time');
    await form.locator('#form-Bought [data-type="month"]').click();
    await page.keyboard.type('05062024');
    await form.locator('#form-Kind').scrollIntoViewIfNeeded();
    await shot(page, 'form-view-choices-and-dates');
    await form.getByLabel(/^Packed/).fill('2024-05-06T07:08:09');
    await form.getByLabel(/^Leaves/).fill('10:30:00');
    expect(await form.getByLabel(/^Setup/).getAttribute('placeholder')).toBe('h:mm');
    await form.getByLabel(/^Setup/).fill('1:30');
    // A currency shows its sign before the number, a percentage % after it; both are read with the field.
    const price = form.getByLabel(/^Price/);
    expect(await form.locator('#form-Price-sign').textContent()).toBe('€');
    expect(await price.getAttribute('aria-describedby')).toBe('form-Price-sign');
    expect(await price.getAttribute('inputmode')).toBe('decimal');
    await price.fill('1234.5');
    expect(await form.locator('#form-Share-sign').textContent()).toBe('%');
    await form.getByLabel(/^Share/).fill('12.5');
    // A number that is none is pointed out once the field is left, and goes once it is put right.
    const count = form.getByLabel(/^Count/);
    await count.fill('7e');
    await count.press('Tab');
    await form.locator('#form-Count-problem').getByText('Enter a number.').waitFor();
    expect(await count.getAttribute('aria-invalid')).toBe('true');
    await count.fill('7');
    await form.locator('#form-Count-problem').waitFor({ state: 'detached' });
    await form.getByLabel(/^Weight/).fill('2.25');
    // Email, URL and phone number inputs (the phone's keyboard, the browser's autofill).
    expect(await form.getByLabel(/^Mail/).getAttribute('type')).toBe('email');
    expect(await form.getByLabel(/^Site/).getAttribute('type')).toBe('url');
    expect(await form.getByLabel(/^Phone/).getAttribute('type')).toBe('tel');
    await form.getByLabel(/^Mail/).fill('camp.example.com');
    await form.getByLabel(/^Mail/).press('Tab');
    await form.getByText('Enter an email address such as name@example.com.').waitFor();
    await form.getByLabel(/^Mail/).fill('camp@example.com');
    await form.getByLabel(/^Site/).fill('https://example.com/tent');
    await form.getByLabel(/^Phone/).fill('+33 1 23 45 67 89');
    expect(await form.getByLabel(/^Notes/).evaluate((el) => el.tagName)).toBe('TEXTAREA');
    await form.getByLabel(/^Notes/).fill('Two poles\nOne fly');
    const spec = form.getByLabel(/^Spec/);
    await spec.fill('{"poles": 2');
    await spec.press('Tab');
    await form.getByText('This is not valid JSON.').waitFor();
    await spec.fill('{"poles": 2, "colours": ["green"]}');
    await shot(page, 'form-fields-by-type');
    // Every control is labelled and reachable: no serious accessibility problem in the form (a problem shown included).
    await count.fill('x');
    await count.press('Tab');
    expect(await formViolations(page, 'Pack list')).toEqual([]);
    await count.fill('7');
    await form.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Thank you for submitting the form.').waitFor();
    const row = (await restInPage(page, projectId, 'GET', `gear?where=${encodeURIComponent('(Name,eq,Tent)')}`)).body[0];
    expect(row).toMatchObject({ Stars: 4, Kind: 'stove', Tags: 'light,new', Bought: '2024-05-06', Leaves: '10:30:00', Setup: 5400, Price: 1234.5, Share: 12.5, Count: 7, Weight: 2.25, Mail: 'camp@example.com', Site: 'https://example.com/tent', Phone: '+33 1 23 45 67 89', Notes: 'Two poles\nOne fly', Spec: { poles: 2, colours: ['green'] } });
    expect([true, 1]).toContain(row.Done);
    expect(String(row.Packed)).toMatch(/^2024-05-06[ T]07:08:09/);
  });

  browserTest('a shared form has the same controls: rating icons by keyboard, signs, checks', () => stranger ?? page, async () => {
    const view = (await listViews(page, projectId, 'gear')).find((v) => v.title === 'Pack list')!;
    const link = await opInPage(page, 'createSharedViewLink', { project_id: projectId, args: { view_id: view.id } });
    expect(link.status).toBe(200);
    stranger = await (await browser.newContext({ viewport: { width: 1400, height: 1600 }, bypassCSP: true })).newPage();
    await stranger.goto(link.body.url);
    const form = stranger.getByRole('form', { name: 'Pack list' });
    await form.getByLabel(/^Name/).fill('Stove');
    const stars = form.getByRole('radiogroup', { name: 'Stars' });
    await stars.getByRole('radio', { name: 'Rate 1 of 5' }).focus();
    await stranger.keyboard.press('Space');
    await stranger.keyboard.press('ArrowRight');
    expect(await stars.getByRole('radio', { name: 'Rate 2 of 5' }).isChecked()).toBe(true);
    expect(await form.locator('#form-Price-sign').textContent()).toBe('€');
    await form.getByLabel(/^Price/).fill('49.9');
    expect(await form.getByLabel(/^Mail/).getAttribute('type')).toBe('email');
    await form.getByLabel(/^Spec/).fill('[1,');
    await form.getByLabel(/^Spec/).press('Tab');
    await form.getByText('This is not valid JSON.').waitFor();
    await form.getByLabel(/^Spec/).fill('[1, 2]');
    // The choices are the column's coloured chips there too, and a date the same date field.
    await form.locator('#form-Kind').click();
    const kinds = stranger.getByRole('listbox', { name: /^Kind/ });
    expect(await kinds.getByRole('option', { name: 'tent' }).locator('.chip').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(253, 230, 138)');
    await kinds.getByRole('option', { name: 'tent' }).click();
    await form.locator('#form-Bought [data-type="month"]').click();
    await stranger.keyboard.type('01022025');
    await shot(stranger, 'form-fields-shared');
    expect(await formViolations(stranger, 'Pack list')).toEqual([]);
    await form.getByRole('button', { name: 'Submit' }).click();
    await stranger.getByText('Thank you for submitting the form.').waitFor();
    await stranger.context().close();
    stranger = undefined;
    const row = (await restInPage(page, projectId, 'GET', `gear?where=${encodeURIComponent('(Name,eq,Stove)')}`)).body[0];
    expect(row).toMatchObject({ Stars: 2, Price: 49.9, Spec: [1, 2], Kind: 'tent', Bought: '2025-01-02' });
  });

  /** The background colour of an element, as the browser computes it. */
  const colourOf = (el: ReturnType<Page['locator']>) => el.evaluate((e) => getComputedStyle(e).backgroundColor);
  /** Opens the Gear table's grid (its default view). */
  const openGearGrid = async () => {
    await tree().getByRole('button', { name: 'Gear', exact: true }).click();
    await drawer().getByRole('button', { name: 'Grid view', exact: true }).click();
    await page.getByRole('gridcell', { name: 'Tent', exact: true }).first().waitFor();
  };
  const gearRow = async (name: string) => (await restInPage(page, projectId, 'GET', `gear?where=${encodeURIComponent(`(Name,eq,${name})`)}`)).body[0];

  browserTest('select columns are picked as the grid\'s coloured chips in the add-row form and the expanded row, by keyboard, and cleared', () => page, async () => {
    await openGearGrid();
    // The grid's chip of Tent's kind, for the colours the forms must show.
    const gridChip = page.getByRole('gridcell').locator('.chip', { hasText: 'stove' }).first();
    const stoveColour = await colourOf(gridChip);
    expect(stoveColour).toBe('rgb(191, 219, 254)');
    await page.getByRole('button', { name: '+ Add row' }).click();
    const add = page.getByRole('form', { name: 'Add row' });
    await add.getByLabel(/^Name/).fill('Lamp');
    // Keyboard only: Enter opens the list of chips in their colours, the arrows move, Enter picks.
    const kind = add.locator('#new-Kind');
    await kind.focus();
    await page.keyboard.press('Enter');
    const kinds = page.getByRole('listbox', { name: /^Kind/ });
    await kinds.waitFor();
    expect(await kinds.getByRole('option').allTextContents()).toEqual(['tent', 'stove']);
    expect(await colourOf(kinds.getByRole('option', { name: 'tent' }).locator('.chip'))).toBe('rgb(253, 230, 138)');
    expect(await colourOf(kinds.getByRole('option', { name: 'stove' }).locator('.chip'))).toBe(stoveColour);
    await shot(page, 'form-choice-list-open');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await kinds.waitFor({ state: 'detached' });
    expect(await kind.locator('.chip').allTextContents()).toEqual(['stove']);
    expect(await colourOf(kind.locator('.chip'))).toBe(stoveColour);
    // × clears it; type-ahead on the button picks again; Esc in an open list closes the list, not the form.
    await add.getByRole('button', { name: 'Clear Kind' }).click();
    expect(await kind.locator('.chip').count()).toBe(0);
    expect(await kind.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('t');
    expect(await kind.locator('.chip').allTextContents()).toEqual(['tent']);
    await page.keyboard.press('Enter');
    await kinds.waitFor();
    await page.keyboard.press('Escape');
    await kinds.waitFor({ state: 'detached' });
    expect(await add.isVisible()).toBe(true);
    // A multi select: Space ticks chips in the list, which stays open; Esc closes it; the button shows the ticked chips.
    const tags = add.locator('#new-Tags');
    await tags.focus();
    await page.keyboard.press('Enter');
    const tagList = page.getByRole('listbox', { name: /^Tags/ });
    await tagList.waitFor();
    expect(await tagList.getAttribute('aria-multiselectable')).toBe('true');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    expect(await tagList.getByRole('option', { selected: true }).allTextContents()).toEqual(['✓cheap', '✓new']);
    await shot(page, 'form-multi-choice-list-open');
    await page.keyboard.press('Escape');
    await tagList.waitFor({ state: 'detached' });
    expect(await tags.locator('.chip').allTextContents()).toEqual(['cheap', 'new']);
    expect(await colourOf(tags.locator('.chip', { hasText: 'cheap' }))).toBe('rgb(254, 202, 202)');
    await shot(page, 'form-add-row-choices');
    await add.getByRole('button', { name: 'Save row' }).click();
    await add.waitFor({ state: 'detached' });
    expect(await gearRow('Lamp')).toMatchObject({ Kind: 'tent', Tags: 'cheap,new' });

    // The expanded row shows the row's choices as the same chips; a multi select's × clears it all.
    const lamp = page.getByRole('row').filter({ has: page.getByRole('gridcell', { name: 'Lamp', exact: true }) });
    await lamp.hover();
    await lamp.getByRole('button', { name: /^Expand row/ }).click();
    const expanded = page.getByRole('dialog', { name: 'Expanded row' });
    const shownTags = expanded.locator('#expand-Tags');
    expect(await shownTags.locator('.chip').allTextContents()).toEqual(['cheap', 'new']);
    expect(await colourOf(shownTags.locator('.chip', { hasText: 'new' }))).toBe('rgb(233, 213, 255)');
    expect(await colourOf(expanded.locator('#expand-Kind .chip'))).toBe('rgb(253, 230, 138)');
    await shot(page, 'form-expanded-choices');
    // In the dark theme the light chips keep dark text (it was the theme's light text on them, unreadable).
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    expect(await shownTags.locator('.chip', { hasText: 'new' }).evaluate((el) => getComputedStyle(el).color)).toBe('rgb(31, 41, 55)');
    await shot(page, 'form-expanded-choices-dark');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await expanded.getByRole('button', { name: 'Clear Tags' }).click();
    expect(await shownTags.locator('.chip').count()).toBe(0);
    // The list opened by a click picks another kind; Esc there leaves the expanded row open.
    await expanded.locator('#expand-Kind').click();
    await page.getByRole('listbox', { name: /^Kind/ }).getByRole('option', { name: 'stove' }).click();
    expect(await expanded.locator('#expand-Kind .chip').allTextContents()).toEqual(['stove']);
    await expanded.getByRole('button', { name: 'Save' }).click();
    await expanded.waitFor({ state: 'detached' });
    expect(await gearRow('Lamp')).toMatchObject({ Kind: 'stove', Tags: null });
  });

  browserTest('a date in a form is the grid\'s date field; date-times and times keep the seconds; each clears with ×; a half-typed date is refused', () => page, async () => {
    await openGearGrid();
    const tent = page.getByRole('row').filter({ has: page.getByRole('gridcell', { name: 'Tent', exact: true }) });
    // The grid's editor of Tent's date, whose text the forms must show.
    const header = page.getByRole('columnheader', { name: /^Bought/ });
    const cell = tent.locator(`[role="gridcell"][aria-colindex="${await header.getAttribute('aria-colindex')}"]`);
    await cell.click();
    await page.keyboard.press('Enter');
    const gridField = page.getByRole('group', { name: 'Edit Bought' });
    const gridText = await gridField.textContent();
    expect(gridText).toBe('05/06/2024');
    await page.keyboard.press('Escape');
    await gridField.waitFor({ state: 'detached' });

    await tent.hover();
    await tent.getByRole('button', { name: /^Expand row/ }).click();
    const expanded = page.getByRole('dialog', { name: 'Expanded row' });
    const bought = expanded.locator('#expand-Bought');
    // The same segments as the grid's editor, in the same order and format.
    expect(await bought.getAttribute('role')).toBe('group');
    expect(await bought.locator('.date-input').textContent()).toBe(gridText);
    // Date-time and time are the browser's inputs, as in the grid, to the second.
    const packed = expanded.locator('#expand-Packed');
    const leaves = expanded.locator('#expand-Leaves');
    expect(await packed.getAttribute('type')).toBe('datetime-local');
    expect(await packed.inputValue()).toBe('2024-05-06T07:08:09');
    expect(await leaves.getAttribute('type')).toBe('time');
    expect(await leaves.inputValue()).toBe('10:30:00');
    // The calendar picks a day.
    await expanded.getByRole('button', { name: 'Calendar of Bought' }).click();
    const calendar = page.getByRole('dialog').filter({ has: page.getByRole('grid') });
    await calendar.getByRole('grid').waitFor();
    await shot(page, 'form-date-calendar');
    await calendar.getByRole('button', { name: /May 20, 2024/ }).click();
    await calendar.waitFor({ state: 'detached' });
    expect(await bought.locator('.date-input').textContent()).toBe(gridText!.replace('05/06', '05/20'));
    // A date left half typed is refused naming the column, and nothing is saved.
    await expanded.getByRole('button', { name: 'Clear Bought' }).click();
    expect(await bought.locator('[data-type="month"]').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('07');
    await expanded.getByRole('button', { name: 'Save' }).click();
    await expanded.getByText("Column 'Bought': the value is incomplete or not valid").waitFor();
    expect((await gearRow('Tent')).Bought).toBe('2024-05-06');
    await shot(page, 'form-date-incomplete');
    // Cleared with ×, all three are saved empty.
    await expanded.getByRole('button', { name: 'Clear Bought' }).click();
    await expanded.getByRole('button', { name: 'Clear Packed' }).click();
    expect(await packed.inputValue()).toBe('');
    await expanded.getByRole('button', { name: 'Clear Leaves' }).click();
    expect(await leaves.inputValue()).toBe('');
    expect(await expanded.getByRole('button', { name: /^Clear (Bought|Packed|Leaves)$/ }).count()).toBe(0);
    await expanded.getByRole('button', { name: 'Save' }).click();
    await expanded.waitFor({ state: 'detached' });
    expect(await gearRow('Tent')).toMatchObject({ Bought: null, Packed: null, Leaves: null });

    // The add-row form types a date in the same field and keeps a date-time's seconds.
    await page.getByRole('button', { name: '+ Add row' }).click();
    const add = page.getByRole('form', { name: 'Add row' });
    await add.getByLabel(/^Name/).fill('Stakes');
    await add.locator('#new-Bought [data-type="month"]').click();
    await page.keyboard.type('12252025');
    await add.locator('#new-Packed').fill('2025-12-24T18:30:05');
    await add.locator('#new-Leaves').fill('06:15:30');
    await shot(page, 'form-add-row-dates');
    await add.getByRole('button', { name: 'Save row' }).click();
    await add.waitFor({ state: 'detached' });
    const stakes = await gearRow('Stakes');
    expect(stakes).toMatchObject({ Bought: '2025-12-25', Leaves: '06:15:30' });
    expect(String(stakes.Packed)).toMatch(/^2025-12-24[ T]18:30:05/);
  });
});
