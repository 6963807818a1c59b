/**
 * Project metadata in the browser against the binary: export from the projects list (a real
 * download), clear the metadata through the confirm dialog, import the zip in the Project Metadata
 * tab, and see the display names back in the tree; edit a connection with Update & Restart.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, startTablo, type RunningTablo } from './helpers';
import { loadChinook } from '../helpers/engines';

setDefaultTimeout(60_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'project metadata': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('project metadata in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let token = '';
  let projectId = '';
  const downloads = mkdtempSync(join(tmpdir(), 'tablo-downloads-'));

  const op = async (api: string, args: unknown = {}, project_id?: string) => {
    const res = await fetch(`${tablo.url}/dashboard?q=sqlOp_${api}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'xc-auth': token, 'xc-gui': 'true' },
      body: JSON.stringify({ api, project_id, args }),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const albumTitle = async () => ((await op('tableList', {}, projectId)).body.data.list as { tn: string; _tn: string }[]).find((t) => t.tn === 'Album')!._tn;

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    tablo = await startTablo();
    const res = await fetch(`${tablo.url}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'meta@example.com', password: 'password123' }) });
    token = ((await res.json()) as { token: string }).token;
    const cfg = await loadChinook('sqlite', 'tablo_t_e2e_meta');
    await Bun.write(join(tablo.dataDir, 'chinook.sqlite'), Bun.file(cfg.connection.filename!));
    const made = await op('projectCreateByWeb', { title: 'Music', db: { client: 'sqlite', connection: { filename: 'chinook.sqlite' } } });
    expect(made.status).toBe(200);
    projectId = made.body.id;
    expect((await op('modelUpdate', { tn: 'Album', _tn: 'Records' }, projectId)).status).toBe(200);
    expect((await op('xcVirtualTableCreate', { tn: 'Album', title: 'Long titles', type: 'grid', query_params: { where: '(Title,like,%the%)' } }, projectId)).status).toBe(200);
    // A job whose key an export never holds.
    expect((await op('xcCronCreate', { title: 'Nightly', pattern: '0 3 * * *', action: { type: 'url', url: 'https://example.com/nightly', headers: { Authorization: 'Bearer k-1' } } }, projectId)).status).toBe(200);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true })).newPage();
    await page.goto(`${tablo.url}/#/user/authentication/signin`);
    await page.getByLabel('E-mail').fill('meta@example.com');
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/#\/projects/);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  let zipPath = '';
  browserTest('export from the projects list downloads the zip; clear metadata asks first', () => page, async () => {
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Music', exact: true }) });
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Export' }).click()]);
    zipPath = join(downloads, download.suggestedFilename());
    await download.saveAs(zipPath);
    expect(download.suggestedFilename()).toBe('Music-metadata.zip');
    expect((await Bun.file(zipPath).bytes()).subarray(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));

    await row.getByRole('button', { name: 'Clear metadata' }).click();
    await page.getByRole('heading', { name: "Clear all metadata of 'Music'?" }).waitFor();
    // The project's webhooks and cron jobs go too: the confirmation says so.
    await page.getByRole('dialog').getByText(/webhooks and cron jobs are removed/).waitFor();
    await shot(page, 'project-meta-clear-confirm');
    await page.keyboard.press('Escape');
    expect(await albumTitle()).toBe('Records');
    await row.getByRole('button', { name: 'Clear metadata' }).click();
    await page.getByRole('button', { name: 'Submit' }).click();
    for (let i = 0; i < 50 && (await albumTitle()) !== 'Album'; i++) await Bun.sleep(100);
    expect(await albumTitle()).toBe('Album');
  });

  browserTest('import in the Project Metadata tab brings the display names back', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.locator('.tree-extras').getByRole('button', { name: 'Project Metadata', exact: true }).click();
    await page.getByRole('region', { name: 'Project Metadata' }).waitFor();
    await page.getByLabel('Metadata zip').setInputFiles(zipPath);
    await page.getByRole('button', { name: 'Import and restart' }).click();
    // Clearing removed the job and its key; the zip has none: the tab says which value to type again.
    const retype = page.getByRole('list', { name: /^Header values not in the zip/ });
    await retype.getByText("cron job 'Nightly': the value of 'Authorization' was not in the archive: type it again").waitFor();
    await shot(page, 'project-meta-import-retype');
    expect(await page.getByText('Everything in the zip was applied.').count()).toBe(0);
    expect(await albumTitle()).toBe('Records');
    await page.reload();
    await page.getByText('Records', { exact: true }).first().waitFor();
    // The saved view came back with the metadata.
    await page.locator('.tree').getByRole('button', { name: 'Records', exact: true }).click();
    await page.getByText('Long titles', { exact: true }).first().waitFor();
    await page.locator('.tree-extras').getByRole('button', { name: 'Project Metadata', exact: true }).click();
    await page.getByRole('region', { name: 'Environment dev' }).waitFor();
    await shot(page, 'project-meta-tab');
    // On a phone the tab's actions (export, import, clear) wrap instead of running off the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const rights = await page.getByRole('region', { name: 'Project Metadata' }).locator('.inline-actions').first().getByRole('button').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right));
      expect(Math.max(...rights)).toBeLessThanOrEqual(390);
      await shot(page, 'project-meta-tab-phone');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  browserTest('importing the zip on a new embedded database from the projects list says what it left out', () => page, async () => {
    await page.goto(`${tablo.url}/#/projects`);
    await page.getByLabel('Project metadata zip').setInputFiles(zipPath);
    await page.getByRole('button', { name: 'New embedded database' }).click();
    await page.getByText('Imported a project', { exact: true }).waitFor();
    // The new database holds none of Chinook's tables: the toast names them instead of keeping quiet.
    await page.getByText(/^Imported; skipped: .*table 'Album': not in this database/).waitFor();
    await page.getByText("Type these header values again: cron job 'Nightly': the value of 'Authorization' was not in the archive: type it again").waitFor();
    await shot(page, 'project-import-skipped');
  });

  browserTest('a title beyond ASCII names its zip as it is', () => page, async () => {
    const made = await op('projectCreateByWeb', { title: 'Música 客户' });
    expect(made.status).toBe(200);
    await page.goto(`${tablo.url}/#/projects`);
    await page.reload();
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Música 客户', exact: true }) });
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toBe('Música 客户-metadata.zip');
  });
});
