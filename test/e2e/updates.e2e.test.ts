/**
 * Version & Updates against a release feed served on loopback: the banner announces a newer version
 * and stays closed for it once closed; the Settings tab names the release and Check now reads the feed again.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';
import pkg from '../../package.json' with { type: 'json' };

setDefaultTimeout(20_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'updates': ${problem}`);

const next = pkg.version.replace(/^(\d+)\.(\d+)\.(\d+).*$/, (_, a, b) => `${a}.${Number(b) + 1}.0`);

describe.skipIf(!!problem && !process.env.CI)('version and updates in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let feed: ReturnType<typeof Bun.serve>;
  const release: Record<string, string> = { version: next, url: 'http://127.0.0.1/tablo-linux-x64', notes: 'Faster grids and a new calendar.' };

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    feed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => Response.json(release) });
    tablo = await startTablo({ NC_UPDATE_FEED: `http://127.0.0.1:${feed.port}/latest.json` });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
    feed?.stop(true);
  });

  browserTest('a newer release shows the banner; closed, it stays closed for that release', () => page, async () => {
    await signUpInBrowser(page, tablo.url, 'updates@example.com');
    const banner = page.getByRole('status').filter({ hasText: 'New version is available' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain(`Tablo ${next} (you run ${pkg.version})`);
    await shot(page, 'update-banner');
    await banner.getByRole('button', { name: 'Close' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('button', { name: 'Profile menu' }).waitFor();
    await page.waitForTimeout(500);
    expect(await banner.count()).toBe(0);
  });

  browserTest('the Version & Updates tab names the release, its notes, and Check now', () => page, async () => {
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Themes' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('tab', { name: 'Version & Updates' }).click();
    await settings.getByTestId('latest-release').getByText(`Tablo ${next} is available.`).waitFor();
    await settings.getByText('Faster grids and a new calendar.').waitFor();
    await shot(page, 'update-settings');
    await settings.getByRole('button', { name: 'Check now' }).click();
    // The server reads the feed at most once a minute: the answer is the release read at start-up.
    await settings.getByRole('button', { name: 'Check now' }).waitFor();
    expect(await settings.getByTestId('latest-release').textContent()).toContain(`Tablo ${next} is available.`);
    await settings.getByRole('button', { name: 'Close' }).click();
  });
});
