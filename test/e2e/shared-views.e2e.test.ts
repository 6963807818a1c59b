/**
 * Shared views in the browser against the binary (Chinook, SQLite): a grid view shared with a
 * password opens in a fresh browser (no account) after the password prompt, with the view's
 * filter and shown fields only; a shared form (with a file chosen for its Attachment field) creates
 * a row the owner then sees in the grid, the file with it.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, dashboardCallInPage, launchBrowser, shot, signUpInBrowser, startTablo, toolbarAction, type RunningTablo } from './helpers';
import { addColumn, chinookProject, goToDate, restInPage, until } from './views-helpers';

/** A 1x1 PNG image. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'shared views': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('shared views in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let stranger: Page | undefined;
  let projectId = '';
  let gridUrl = '';
  const tree = () => page.getByRole('navigation', { name: 'Project tree' });
  const drawer = () => page.getByRole('complementary', { name: 'Views' });
  const createView = async (table: string, kind: string, title: string) => {
    await tree().getByRole('button', { name: table, exact: true }).click();
    await drawer().getByRole('button', { name: kind, exact: true }).click();
    await page.getByRole('dialog').getByLabel('View name').fill(title);
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('view-title').getByText(title).waitFor();
  };
  /** Opens the share dialog of a view; answers the dialog once its link is there. */
  const share = async (title: string) => {
    await drawer().getByRole('button', { name: `View menu of ${title}` }).click();
    await page.getByRole('menuitem', { name: 'Share view' }).click();
    const dialog = page.getByRole('dialog', { name: `Share view '${title}'` });
    await dialog.getByLabel('Shared link').waitFor();
    return dialog;
  };
  const freshPage = async () => (stranger = await (await browser.newContext({ viewport: { width: 1400, height: 860 } })).newPage());

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1500, height: 880 } })).newPage();
    await signUpInBrowser(page, tablo.url, 'sharer@example.com');
    projectId = await chinookProject(page, tablo, 'Shared', 'tablo_t_e2e_shared_views');
    await addColumn(page, projectId, 'Track', { cn: 'Stage', uidt: 'SingleSelect', meta: { options: [{ title: 'Demo', color: '#fde68a' }, { title: 'Released', color: '#bbf7d0' }] } });
    for (const [i, stage] of ['Demo', 'Released', 'Released'].entries()) await restInPage(page, projectId, 'PUT', `Track/${i + 1}`, { Stage: stage });
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await tree().getByRole('button', { name: 'Track', exact: true }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('an owner shares a grid view with a password', () => stranger ?? page, async () => {
    await createView('Track', 'Grid', 'Rock tracks');
    await page.getByRole('button', { name: '+ Filter' }).click();
    await page.getByLabel('Filter 1 column').selectOption('GenreId');
    await page.getByLabel('Filter 1 value').fill('1');
    // Filters, sorts and the search apply as they change (Apply is only for the where text).
    await page.getByTestId('row-count').getByText('1297 rows').waitFor();
    await page.getByRole('button', { name: /^Fields/ }).click();
    await page.getByRole('dialog', { name: 'Show or hide fields' }).getByText('Composer').click();
    await page.getByRole('button', { name: /^Fields/ }).click();
    await page.waitForTimeout(700);
    const dialog = await share('Rock tracks');
    await dialog.getByLabel('Restrict access with a password').check();
    await dialog.getByLabel('Password', { exact: true }).fill('open sesame');
    await dialog.getByRole('button', { name: 'Save password' }).click();
    await dialog.getByText('Password saved.').waitFor();
    const url = await dialog.getByLabel('Shared link').inputValue();
    expect(url).toMatch(/\/#\/nc\/view\/[0-9a-f-]{36}$/);
    await shot(page, 'shared-dialog');
    await dialog.getByRole('button', { name: 'Close' }).click();
    // The drawer marks the shared view, with a lock for its password.
    await drawer().getByRole('button', { name: /Rock tracks/ }).getByRole('img', { name: 'Shared by link with a password' }).waitFor();
    gridUrl = url;
  });

  browserTest('a stranger opening that link: password prompt, Invalid password, then the view\'s rows and fields only', () => stranger ?? page, async () => {
    const p = await freshPage();
    await p.goto(gridUrl);
    await p.getByRole('heading', { name: 'This view is protected' }).waitFor();
    await p.getByLabel('Password').fill('wrong one');
    await p.getByRole('button', { name: 'Open' }).click();
    await p.getByText('Invalid password').waitFor();
    await shot(p, 'shared-password');
    await p.getByLabel('Password').fill('open sesame');
    await p.getByRole('button', { name: 'Open' }).click();
    await p.getByTestId('row-count').getByText('1297 rows').waitFor();
    await p.getByRole('gridcell', { name: 'For Those About To Rock (We Salute You)' }).waitFor();
    expect(await p.getByRole('columnheader', { name: 'Composer' }).count()).toBe(0);
    expect(await p.getByText('Share', { exact: true }).count()).toBe(0); // no dashboard around it
    await shot(p, 'shared-grid');
    // A row opens whole, read-only (its expand button, or Enter on the row): the view's fields only.
    const firstRow = p.getByRole('row').filter({ has: p.getByRole('gridcell', { name: 'For Those About To Rock (We Salute You)' }) });
    await firstRow.hover();
    await firstRow.getByRole('button', { name: 'Expand row 1' }).click();
    let record = p.getByRole('dialog', { name: 'For Those About To Rock (We Salute You)' });
    await record.getByText('GenreId', { exact: true }).waitFor();
    expect(await record.getByText('Composer', { exact: true }).count()).toBe(0);
    expect(await record.getByRole('textbox').count()).toBe(0);
    await shot(p, 'shared-grid-record');
    await p.keyboard.press('Escape');
    await record.waitFor({ state: 'detached' });
    await p.getByRole('row').nth(2).focus();
    await p.keyboard.press('Enter');
    record = p.getByRole('dialog', { name: 'Balls to the Wall' });
    await record.getByRole('button', { name: 'Close' }).click();
    await record.waitFor({ state: 'detached' });
    // Large views page like the grid: the end of the view is read when scrolled to.
    await p.locator('.shared-grid').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await p.getByRole('row').filter({ has: p.getByText('1297', { exact: true }) }).waitFor();
    expect(await p.getByRole('row').count()).toBeLessThan(120);
    await p.getByLabel('Search').fill('love');
    await p.getByRole('button', { name: 'Search' }).click();
    await p.getByTestId('row-count').getByText(/^\d+ rows?$/).waitFor();
    expect(Number((await p.getByTestId('row-count').textContent())!.split(' ')[0])).toBeLessThan(1297);
    // The password is kept for this browser session: a reload opens the view at once.
    await p.reload();
    await p.getByTestId('row-count').getByText('1297 rows').waitFor();
    // The address links had before #/nc/view (#/shared/{uuid}) still opens the same view.
    await p.goto(gridUrl.replace('/#/nc/view/', '/#/shared/'));
    await p.getByTestId('row-count').getByText('1297 rows').waitFor();
    // The owner changes the password while the page is open: the next read asks for the new one
    // (the page showed 'Invalid password' where the rows were, with no way to type it).
    const uuid = gridUrl.split('/nc/view/')[1]!;
    expect((await dashboardCallInPage(page, 'updateSharedViewLinkPassword', { project_id: projectId, args: { uuid, password: 'new sesame' } })).status).toBe(200);
    await p.getByLabel('Search').fill('rock');
    await p.getByRole('button', { name: 'Search' }).click();
    await p.getByRole('heading', { name: 'This view is protected' }).waitFor();
    await p.getByText('Invalid password').waitFor();
    await p.getByLabel('Password').fill('new sesame');
    await p.getByRole('button', { name: 'Open' }).click();
    await p.getByTestId('row-count').getByText('1297 rows').waitFor();
    await p.context().close();
    stranger = undefined;
  });

  browserTest('unticking the password opens the link without one at once; Delete link ends it', () => stranger ?? page, async () => {
    await tree().getByRole('button', { name: 'Track', exact: true }).click();
    const dialog = await share('Rock tracks');
    expect(await dialog.getByLabel('Restrict access with a password').isChecked()).toBe(true);
    await dialog.getByLabel('Restrict access with a password').uncheck();
    await dialog.getByText('Password removed: the link opens without one.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    const p = await freshPage();
    await p.goto(gridUrl);
    await p.getByTestId('row-count').getByText('1297 rows').waitFor();
    const again = await share('Rock tracks');
    await again.getByRole('button', { name: 'Delete link' }).click();
    // Deleting asks first, naming the view; Delete link there ends the link.
    const ask = page.getByRole('dialog', { name: "Delete the public link of 'Rock tracks'?" });
    await ask.getByRole('button', { name: 'Delete link' }).click();
    await again.waitFor({ state: 'detached' });
    await p.reload();
    await p.getByText('This link does not exist, or it was deleted.').waitFor();
    // A link without a password whose maker lost the table says so; it does not ask for a password.
    const editor = await page.evaluate(async (projectId) => {
      const post = async (path: string, body: unknown, auth?: string) =>
        (await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', 'xc-gui': 'true', ...(auth ? { 'xc-auth': auth } : {}) }, body: JSON.stringify(body) })).json();
      const invite = await post('/admin', { email: 'maker@example.com', roles: 'editor', project_id: projectId }, localStorage.getItem('tablo.token') ?? '');
      const token = String(invite.invite_url).split('/signup/')[1];
      return (await post('/auth/signup', { email: 'maker@example.com', password: 'password123', token })).token as string;
    }, projectId);
    const views = (await dashboardCallInPage(page, 'xcVirtualTableList', { project_id: projectId, args: { tn: 'Track' } })).body.data.list as { id: string; title: string }[];
    const made = await p.evaluate(async ([projectId, editor, viewId]) => {
      const res = await fetch('/dashboard?q=sqlOp_createSharedViewLink', { method: 'POST', headers: { 'content-type': 'application/json', 'xc-gui': 'true', 'xc-auth': editor }, body: JSON.stringify({ api: 'createSharedViewLink', project_id: projectId, dbAlias: 'db', args: { view_id: viewId } }) });
      return (await res.json()) as { url: string };
    }, [projectId, editor, views.find((v) => v.title === 'Rock tracks')!.id] as const);
    expect((await dashboardCallInPage(page, 'aclSave', { project_id: projectId, args: { tn: 'Track', role: 'editor', rule: { read: false, create: false, update: false, delete: false } } })).status).toBe(200);
    await p.goto(made.url);
    await p.getByText('This shared view is no longer available').waitFor();
    expect(await p.getByRole('heading', { name: 'This view is protected' }).count()).toBe(0);
    expect((await dashboardCallInPage(page, 'aclSave', { project_id: projectId, args: { tn: 'Track', role: 'editor', rule: null } })).status).toBe(200);
    await p.context().close();
    stranger = undefined;
  });

  browserTest('a shared form creates a row, with the file chosen for its Attachment field (no more than it takes), that the owner sees in the grid', () => stranger ?? page, async () => {
    await addColumn(page, projectId, 'Genre', { cn: 'Cover', uidt: 'Attachment', meta: { maxFiles: 2 } });
    await createView('Genre', 'Form', 'Suggest a genre');
    await page.getByLabel('Submit message').fill('Thank you, noted!');
    await page.waitForTimeout(700);
    const dialog = await share('Suggest a genre');
    const url = await dialog.getByLabel('Shared link').inputValue();
    await dialog.getByRole('button', { name: 'Close' }).click();

    const p = await freshPage();
    await p.goto(url);
    const form = p.getByRole('form', { name: 'Suggest a genre' });
    await form.getByLabel(/^Name/).fill('Shared Polka');
    // Three files chosen for a field that takes two: the third is left out at once, and the field says why.
    await form.locator('input[type=file]').setInputFiles([
      { name: 'polka.png', mimeType: 'image/png', buffer: PNG },
      { name: 'draft.txt', mimeType: 'text/plain', buffer: Buffer.from('not this one') },
      { name: 'extra.txt', mimeType: 'text/plain', buffer: Buffer.from('one too many') },
    ]);
    const chosen = form.getByRole('list', { name: 'Files chosen for Cover' });
    await chosen.getByRole('listitem').filter({ hasText: 'polka.png' }).getByText(`${PNG.length} B`).waitFor();
    await form.getByText('This field takes at most 2 files: the others were left out.').waitFor();
    expect(await chosen.getByRole('listitem').filter({ hasText: 'extra.txt' }).count()).toBe(0);
    // One removed again before submitting.
    await chosen.getByRole('button', { name: 'Remove draft.txt' }).click();
    await form.getByText('This field takes at most 2 files: the others were left out.').waitFor({ state: 'detached' });
    await chosen.locator('progress').first().waitFor({ state: 'detached' });
    expect(await chosen.getByRole('listitem').allInnerTexts()).toEqual([expect.stringContaining('polka.png')]);
    await shot(p, 'shared-form');
    await form.getByRole('button', { name: 'Submit' }).click();
    await p.getByText('Thank you, noted!').waitFor();
    await shot(p, 'shared-form-submitted');
    await p.context().close();
    stranger = undefined;

    await drawer().getByRole('button', { name: 'Grid view', exact: true }).click();
    await page.getByTestId('row-count').getByText('26 rows').waitFor();
    await page.getByRole('gridcell', { name: 'Shared Polka' }).waitFor();
    // The row holds the file, which loads from its link.
    const thumb = page.getByRole('img', { name: 'polka.png' });
    await thumb.waitFor();
    expect(await thumb.evaluate(async (img: HTMLImageElement) => (await img.decode(), img.naturalWidth))).toBe(1);
    await shot(page, 'shared-form-row-file');
  });

  browserTest('a shared gallery whose fields were never chosen shows the fields its owner sees, and its link answers no other column', () => stranger ?? page, async () => {
    await createView('Track', 'Gallery', 'Covers');
    // The owner's cards: the first four columns after the key (Name titles the card).
    const own = page.getByRole('article', { name: 'Balls to the Wall' });
    await own.locator('dt').first().waitFor();
    const fieldsOf = (card: typeof own) => async () => (await card.locator('dt').allTextContents()).join(', ');
    expect(await until(fieldsOf(own), 'AlbumId, MediaTypeId, GenreId')).toBe('AlbumId, MediaTypeId, GenreId');
    const dialog = await share('Covers');
    const url = await dialog.getByLabel('Shared link').inputValue();
    await dialog.getByRole('button', { name: 'Close' }).click();

    const p = await freshPage();
    await p.goto(url);
    const card = p.getByRole('article', { name: 'Balls to the Wall' });
    await card.locator('dt').first().waitFor();
    // The link's page showed a fifth field (Composer) the owner's cards do not.
    expect(await until(fieldsOf(card), 'AlbumId, MediaTypeId, GenreId')).toBe('AlbumId, MediaTypeId, GenreId');
    await shot(p, 'shared-gallery');
    // Nor does the link's API answer the columns the cards leave out.
    const uuid = url.split('/nc/view/')[1]!;
    const described = await p.evaluate(async (uuid) => (await (await fetch(`/api/v1/shared/${uuid}`)).json()) as { columns: { _cn: string }[] }, uuid);
    expect(described.columns.map((c) => c._cn)).toEqual(['TrackId', 'Name', 'AlbumId', 'MediaTypeId', 'GenreId']);
    const rows = await p.evaluate(async (uuid) => (await (await fetch(`/api/v1/shared/${uuid}/rows?limit=1`)).json()) as unknown, uuid);
    expect(JSON.stringify(rows)).not.toContain('Composer');
    await p.context().close();
    stranger = undefined;
  });

  browserTest('a shared gallery shows the covers uploaded to its rows, behind a password too', () => stranger ?? page, async () => {
    await addColumn(page, projectId, 'Album', { cn: 'Art', uidt: 'Attachment' });
    const uploaded = await page.evaluate(async ([projectId, png]) => {
      const form = new FormData();
      form.append('file', new File([Uint8Array.from(atob(png), (ch) => ch.charCodeAt(0))], 'art.png', { type: 'image/png' }), 'art.png');
      const res = await fetch(`/nc/${projectId}/api/v1/Album/1/attachments/Art`, { method: 'POST', headers: { 'xc-auth': localStorage.getItem('tablo.token') ?? '' }, body: form });
      return res.status;
    }, [projectId, PNG.toString('base64')] as const);
    expect(uploaded).toBe(200);
    const made = await dashboardCallInPage(page, 'xcVirtualTableCreate', { project_id: projectId, args: { tn: 'Album', title: 'Artwork', type: 'gallery', query_params: { where: '(AlbumId,le,2)', coverColumn: 'Art' } } });
    expect(made.status).toBe(200);
    const link = await dashboardCallInPage(page, 'createSharedViewLink', { project_id: projectId, args: { view_id: made.body.id, password: 'art only' } });

    const p = await freshPage();
    await p.goto(link.body.url);
    await p.getByLabel('Password').fill('art only');
    await p.getByRole('button', { name: 'Open' }).click();
    const cover = p.getByRole('article', { name: 'For Those About To Rock We Salute You' }).locator('.card-cover img');
    await cover.waitFor();
    // The image loaded (a broken one has no natural width); the other card has none to show.
    expect(await until(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), 1)).toBe(1);
    await p.getByRole('article', { name: 'Balls to the Wall' }).getByText('No image').waitFor();
    await shot(p, 'shared-gallery-covers');
    await p.context().close();
    stranger = undefined;
    // The owner's gallery in the dashboard shows the uploaded cover too (the dashboard asks for its link).
    // The view was made through the API: the page is read again so the drawer lists it whatever was open.
    await page.reload();
    await tree().getByRole('button', { name: 'Album', exact: true }).click();
    await drawer().getByRole('button', { name: /^Artwork/ }).click();
    const own = page.getByRole('article', { name: 'For Those About To Rock We Salute You' }).locator('.card-cover img');
    await own.waitFor();
    expect(await until(() => own.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), 1)).toBe(1);
    await page.getByRole('article', { name: 'Balls to the Wall' }).getByText('No image').waitFor();
    await shot(page, 'dashboard-gallery-uploaded-cover');
  });

  browserTest('a password beyond Latin-1 opens the link in the browser (a header cannot carry it as typed)', () => stranger ?? page, async () => {
    const views = (await dashboardCallInPage(page, 'xcVirtualTableList', { project_id: projectId, args: { tn: 'Genre' } })).body.data.list as { id: string }[];
    const link = await dashboardCallInPage(page, 'createSharedViewLink', { project_id: projectId, args: { view_id: views[0]!.id, password: '密码 señal' } });
    expect(link.status).toBe(200);
    const p = await freshPage();
    await p.goto(link.body.url);
    await p.getByLabel('Password').fill('密码 senal');
    await p.getByRole('button', { name: 'Open' }).click();
    await p.getByText('Invalid password').waitFor();
    await p.getByLabel('Password').fill('密码 señal');
    await p.getByRole('button', { name: 'Open' }).click();
    await p.getByRole('gridcell', { name: 'Rock', exact: true }).waitFor();
    await p.context().close();
    stranger = undefined;
  });

  browserTest('a shared kanban and calendar open read-only; a link allowing CSV gives the rows as a file', () => stranger ?? page, async () => {
    await tree().getByRole('button', { name: 'Track', exact: true }).click();
    await drawer().getByRole('button', { name: 'Kanban', exact: true }).click();
    await page.getByRole('dialog').getByLabel('View name').fill('Stages');
    await page.getByRole('dialog').getByLabel('Lanes from').selectOption('Stage');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('view-title').getByText('Stages').waitFor();
    let dialog = await share('Stages');
    const first = await dialog.getByLabel('Shared link').inputValue();
    await dialog.getByLabel('Allow CSV download').check();
    await dialog.getByText('CSV download allowed.').waitFor();
    // The link keeps its address when the setting changes.
    const kanbanUrl = await dialog.getByLabel('Shared link').inputValue();
    expect(kanbanUrl).toBe(first);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await createView('Invoice', 'Calendar', 'Billing');
    dialog = await share('Billing');
    const calendarUrl = await dialog.getByLabel('Shared link').inputValue();
    await dialog.getByRole('button', { name: 'Close' }).click();

    const p = await freshPage();
    await p.goto(kanbanUrl);
    await p.reload();
    const released = p.getByRole('listitem', { name: 'Lane Released' });
    await released.getByRole('article', { name: 'Balls to the Wall' }).waitFor();
    await p.getByTestId('lane-count-Released').getByText('2').waitFor();
    expect(await released.getByRole('article').first().getAttribute('draggable')).not.toBe('true');
    await shot(p, 'shared-kanban');
    // A card opens whole, read-only: its fields uncut (the card cuts the composers short).
    await released.getByRole('article', { name: 'Balls to the Wall' }).click();
    const card = p.getByRole('dialog', { name: 'Balls to the Wall' });
    await card.getByText('U. Dirkschneider, W. Hoffmann, H. Frank, P. Baltes, S. Kaufmann, G. Hoffmann', { exact: true }).waitFor();
    await shot(p, 'shared-kanban-record');
    await card.getByRole('button', { name: 'Close' }).click();
    await card.waitFor({ state: 'detached' });
    // On a phone the lanes scroll inside the board: nothing pushes the page sideways.
    await p.setViewportSize({ width: 390, height: 844 });
    expect(await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await shot(p, 'shared-kanban-phone');
    await p.setViewportSize({ width: 1400, height: 860 });
    const download = p.waitForEvent('download');
    await p.getByRole('button', { name: 'Download CSV' }).click();
    const csv = await (await download).path();
    const text = await Bun.file(csv!).text();
    expect(text.split('\n')[0]).toContain('Name');
    expect(text).toContain('Balls to the Wall');
    // A search applied on the page narrows the file to the rows it finds.
    await p.getByRole('searchbox').or(p.getByLabel('Search', { exact: true })).first().fill('Balls to');
    await p.getByRole('button', { name: 'Search', exact: true }).click();
    await released.getByRole('article', { name: 'Balls to the Wall' }).waitFor();
    const narrowed = p.waitForEvent('download');
    await p.getByRole('button', { name: 'Download CSV' }).click();
    const found = (await Bun.file((await (await narrowed).path())!).text()).trim().split('\n');
    expect(found.length).toBe(2);
    expect(found[1]).toContain('Balls to the Wall');
    const invoice = (await restInPage(page, projectId, 'GET', 'Invoice/1')).body;
    await p.goto(calendarUrl);
    await p.reload();
    await goToDate(p, String(invoice.InvoiceDate).slice(0, 10));
    await p.locator('.cal-entry').first().waitFor();
    expect(await p.locator('.cal-entry').first().getAttribute('draggable')).not.toBe('true');
    await shot(p, 'shared-calendar');
    // An entry shows only its title: it opens whole, with the entry fields the view shows.
    await p.getByRole('button', { name: `${invoice.BillingAddress} on ${String(invoice.InvoiceDate).slice(0, 10)}` }).click();
    const entry = p.getByRole('dialog', { name: invoice.BillingAddress });
    await entry.getByText('InvoiceDate', { exact: true }).waitFor();
    await entry.getByText('InvoiceId', { exact: true }).waitFor();
    await entry.getByRole('button', { name: 'Close' }).click();
    await p.context().close();
    stranger = undefined;
  });
  browserTest('a table\'s own view, shared, is titled in the visitor\'s language as in the dashboard', () => stranger ?? page, async () => {
    await tree().getByRole('button', { name: 'MediaType', exact: true }).click();
    const dialog = await share('Grid view');
    const url = await dialog.getByLabel('Shared link').inputValue();
    await dialog.getByRole('button', { name: 'Close' }).click();
    const p = (stranger = await (await browser.newContext({ locale: 'fr-FR', viewport: { width: 1400, height: 860 } })).newPage());
    await p.goto(url);
    await p.getByRole('heading', { name: 'Vue grille', level: 1 }).waitFor();
    await p.getByRole('gridcell', { name: 'MPEG audio file', exact: true }).waitFor();
    expect(await p.title()).toBe('Vue grille · Tablo');
    await p.context().close();
    stranger = undefined;
  });
  browserTest('a grid grouped by a column is shared grouped: groups with their counts and the rows in all, opened to their rows, narrowed by a search', () => stranger ?? page, async () => {
    await createView('Track', 'Grid', 'By stage');
    await page.getByLabel('Group by').selectOption('Stage');
    await page.getByRole('button', { name: /Released/ }).filter({ has: page.getByLabel('2 rows') }).waitFor();
    await page.waitForTimeout(700);
    // The saved view's export is named after the view.
    const [download] = await Promise.all([page.waitForEvent('download'), toolbarAction(page, 'CSV')]);
    expect(download.suggestedFilename()).toBe('By stage.csv');
    const dialog = await share('By stage');
    const url = await dialog.getByLabel('Shared link').inputValue();
    await dialog.getByRole('button', { name: 'Close' }).click();

    const p = await freshPage();
    await p.goto(url);
    await p.reload();
    const released = p.getByRole('button', { name: /Released/ }).filter({ has: p.getByLabel('2 rows') });
    await released.waitFor();
    await p.getByRole('button', { name: /Demo/ }).filter({ has: p.getByLabel('1 row', { exact: true }) }).waitFor();
    // The rows of every group are counted, as the ungrouped grid counts its rows.
    await p.getByTestId('row-count').getByText('3503 rows').waitFor();
    await released.click();
    await p.getByRole('gridcell').filter({ hasText: 'Balls to the Wall' }).waitFor();
    expect(await p.getByRole('rowgroup').getByRole('row').count()).toBe(3); // the header and the two rows
    // A row of a group opens whole too.
    await p.getByRole('rowgroup').getByRole('row').filter({ hasText: 'Balls to the Wall' }).hover();
    await p.getByRole('button', { name: /^Expand row/ }).first().click();
    await p.getByRole('dialog').getByText('Stage', { exact: true }).waitFor();
    await p.keyboard.press('Escape');
    await shot(p, 'shared-grid-grouped');
    // A search narrows the groups and their counts.
    await p.getByLabel('Search', { exact: true }).fill('Balls to');
    await p.getByRole('button', { name: 'Search', exact: true }).click();
    await p.getByRole('button', { name: /Released/ }).filter({ has: p.getByLabel('1 row', { exact: true }) }).waitFor();
    expect(await p.getByRole('button', { name: /Demo/ }).count()).toBe(0);
    await p.getByTestId('row-count').getByText('1 row', { exact: true }).waitFor();
    await p.context().close();
    stranger = undefined;
  });
});
