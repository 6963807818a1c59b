/**
 * A custom theme whose primary colour is light (a yellow): the text written on it (the top bar,
 * primary buttons) turns dark and stays readable at 4.5:1; the default blue keeps white text.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import { contrastRatio } from '../../web/src/lib/contrast';

setDefaultTimeout(60_000);
const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'theme-contrast': ${problem}`);

/** An rgb() colour as the browser computes it, written as #rrggbb. */
const hex = (rgb: string) => '#' + (rgb.match(/\d+/g) ?? []).slice(0, 3).map((n) => Number(n).toString(16).padStart(2, '0')).join('');

/** The contrast of an element's text on its background (its own, or that of `on` when it has none). */
const contrastOf = async (el: Locator, on: Locator = el) => {
  const fg = await el.evaluate((e) => getComputedStyle(e).color);
  const bg = await on.evaluate((e) => getComputedStyle(e).backgroundColor);
  return contrastRatio(hex(fg), hex(bg));
};

describe.skipIf(!!problem && !process.env.CI)('custom theme colours and the text on them', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 850 } })).newPage();
    await signUpInBrowser(page, tablo.url, 'colours@example.com');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('text on a light primary colour turns dark and stays readable', () => page, async () => {
    await page.keyboard.press('c');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Custom' }).click();
    await dialog.getByLabel('primary', { exact: true }).fill('#ffeb3b');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    const topBar = page.locator('.top-bar');
    await expect(topBar.evaluate((e) => getComputedStyle(e).backgroundColor)).resolves.toBe('rgb(255, 235, 59)');
    expect(await contrastOf(topBar)).toBeGreaterThanOrEqual(4.5);
    expect(await contrastOf(page.locator('.top-bar .brand'), topBar)).toBeGreaterThanOrEqual(4.5);
    expect(await contrastOf(page.getByRole('button', { name: '+ New Project' }).first())).toBeGreaterThanOrEqual(4.5);
    await shot(page, 'theme-contrast-light-primary');

    // The default blue keeps white text.
    await page.keyboard.press('c');
    await dialog.getByRole('button', { name: 'Default' }).click();
    await page.keyboard.press('Escape');
    await expect(page.locator('.top-bar').evaluate((e) => getComputedStyle(e).color)).resolves.toBe('rgb(255, 255, 255)');
  });
});
