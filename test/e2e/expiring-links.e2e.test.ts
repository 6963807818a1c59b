/**
 * Covers whose short-lived link expired before the image loaded (a card scrolled into view later,
 * images load lazily, or drawn again) still show: on a shared gallery the page reads the row's links
 * again, on the dashboard's gallery it asks for the file's link again, and the image is tried once
 * more. The binary runs with links that live 3 seconds (NC_ATTACHMENT_LINK_SECONDS); the first load of
 * each image is held until its link has expired.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, dashboardCallInPage, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { addColumn, chinookProject, until } from './views-helpers';

/** A 1x1 PNG image. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
const LINK_SECONDS = 3;
setDefaultTimeout(40_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'expiring file links': ${problem}`);

/**
 * Holds the first load of each stored file's link until that link has expired (its `exp`, in seconds,
 * has passed on this machine, the server's too); later loads go through. Answers the links held.
 */
async function loadFirstLinksLate(page: Page): Promise<string[]> {
  const held: string[] = [];
  await page.route(
    (url) => url.pathname.startsWith('/api/files/'),
    async (route) => {
      const url = new URL(route.request().url());
      const exp = Number(url.searchParams.get('exp'));
      if (!held.includes(url.pathname)) {
        held.push(url.pathname);
        const wait = (exp + 1) * 1000 - Date.now();
        if (wait > 0) await Bun.sleep(wait);
      }
      await route.continue().catch(() => {});
    },
  );
  return held;
}

const loaded = (page: Page, card: string) => () =>
  page
    .getByRole('article', { name: card })
    .locator('.card-cover img')
    .evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : -1))
    .catch(() => -1);

describe.skipIf(!!problem && !process.env.CI)('covers whose short-lived link expired', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let projectId = '';
  let viewId = '';

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo({ NC_ATTACHMENT_LINK_SECONDS: String(LINK_SECONDS) });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 860 } })).newPage();
    await signUpInBrowser(page, tablo.url, 'covers@example.com');
    projectId = await chinookProject(page, tablo, 'Covers', 'tablo_t_e2e_expiring_links');
    await addColumn(page, projectId, 'Album', { cn: 'Art', uidt: 'Attachment' });
    const uploaded = await page.evaluate(
      async ([projectId, png]) => {
        const form = new FormData();
        form.append('file', new File([Uint8Array.from(atob(png), (ch) => ch.charCodeAt(0))], 'art.png', { type: 'image/png' }), 'art.png');
        const res = await fetch(`/nc/${projectId}/api/v1/Album/1/attachments/Art`, { method: 'POST', headers: { 'xc-auth': localStorage.getItem('tablo.token') ?? '' }, body: form });
        return res.status;
      },
      [projectId, PNG.toString('base64')] as const,
    );
    expect(uploaded).toBe(200);
    const made = await dashboardCallInPage(page, 'xcVirtualTableCreate', { project_id: projectId, args: { tn: 'Album', title: 'Artwork', type: 'gallery', query_params: { where: '(AlbumId,le,2)', coverColumn: 'Art' } } });
    expect(made.status).toBe(200);
    viewId = made.body.id;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('a shared gallery reads the row links again when a cover no longer loads', () => page, async () => {
    const link = await dashboardCallInPage(page, 'createSharedViewLink', { project_id: projectId, args: { view_id: viewId } });
    expect(link.status).toBe(200);
    const stranger = await (await browser.newContext({ viewport: { width: 1400, height: 860 } })).newPage();
    const held = await loadFirstLinksLate(stranger);
    await stranger.goto(link.body.url);
    await stranger.getByRole('article', { name: 'For Those About To Rock We Salute You' }).locator('.card-cover img').waitFor();
    // The first link was refused once expired; the cover shows from a fresh one.
    expect(await until(loaded(stranger, 'For Those About To Rock We Salute You'), 1, 15_000)).toBe(1);
    expect(held).toHaveLength(1);
    await shot(stranger, 'expiring-links-shared-gallery');
    await stranger.context().close();
  });

  browserTest("the dashboard's gallery asks for a cover's link again when it no longer loads", () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.locator('.tree').getByRole('button', { name: 'Album', exact: true }).click();
    // The table opens on its grid, whose thumbnail loads the file first: held are the gallery's loads only.
    const thumb = page.locator('img.cell-thumb').first();
    await thumb.waitFor();
    expect(await until(() => thumb.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : -1)), 1)).toBe(1);
    const held = await loadFirstLinksLate(page);
    await page.getByRole('complementary', { name: 'Views' }).getByRole('button', { name: /^Artwork/ }).click();
    await page.getByRole('article', { name: 'For Those About To Rock We Salute You' }).locator('.card-cover img').waitFor();
    expect(await until(loaded(page, 'For Those About To Rock We Salute You'), 1, 15_000)).toBe(1);
    expect(held).toHaveLength(1);
    await shot(page, 'expiring-links-dashboard-gallery');
  });
  browserTest('a grid thumbnail asks for its link again when it no longer loads', () => page, async () => {
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.reload();
    // No tab is open after the reload: the first load of the file is the one of the grid the table opens on,
    // held from before the click that opens it (held only after it, the thumbnail could have loaded already).
    const held = await loadFirstLinksLate(page);
    await page.locator('.tree').getByRole('button', { name: 'Album', exact: true }).click();
    await page.getByRole('complementary', { name: 'Views' }).getByRole('button', { name: 'Grid view', exact: true }).waitFor();
    expect(await page.locator('.gallery, .card-cover').count()).toBe(0);
    const thumb = page.locator('img.cell-thumb').first();
    await thumb.waitFor();
    expect(await until(() => thumb.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : -1)).catch(() => -1), 1, 15_000)).toBe(1);
    expect(held).toHaveLength(1);
  });
});
