/**
 * A metadata store outage in the browser: a person signed in on an instance whose PostgreSQL store is
 * cut (through a TCP proxy) opens another table, which the server cannot check: the page stays on the
 * project, signed in, with the banner saying the server cannot be reached (never the sign-in page);
 * a refresh of the session answers 503 and keeps its cookie. Once the store is back the banner goes,
 * the refresh works, and the grid follows a row written elsewhere again.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, signInInBrowser, startTablo, type RunningTablo } from './helpers';
import { describeEngines, PG } from '../helpers/engines';
import { freshMetaDb } from '../helpers/meta-db';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';

setDefaultTimeout(60_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'store-outage': ${problem}`);

const BANNER = 'The server cannot be reached right now: you stay signed in, and changes cannot be saved until it is back.';

describeEngines(
  'a metadata store outage in the browser',
  () => {
    let tablo: RunningTablo;
    let meta: { url: string; name: string; drop(): Promise<void> };
    let proxy: TcpProxy;
    let dataDir = '';
    let browser: Browser;
    let page: Page;
    let projectId = '';
    let owner = '';

    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${tablo.url}${path}`, { method, headers: { 'content-type': 'application/json', ...(owner ? { 'xc-auth': owner } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    };
    const op = async (api: string, args: unknown, plus = false) => {
      const res = await call('POST', `/dashboard?q=${plus ? 'sqlOpPlus' : 'sqlOp'}_${api}`, { api, project_id: projectId || undefined, args });
      if (res.status !== 200) throw new Error(`${api}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    /** The page's own refresh of its session (the httpOnly cookie goes with it); answers the status. */
    const refreshInPage = () =>
      page.evaluate(async () => (await fetch(new URL('auth/refresh-token', document.baseURI).href, { method: 'POST', credentials: 'include', headers: { 'xc-gui': 'true' } })).status);

    beforeAll(async () => {
      if (problem) throw new Error(problem);
      dataDir = mkdtempSync(join(tmpdir(), 'tablo-e2e-outage-'));
      meta = await freshMetaDb('e2e_outage');
      proxy = startTcpProxy(PG.host, PG.port);
      tablo = await startTablo({ NC_DATA_DIR: dataDir, NC_DB: `postgres://${PG.user}@127.0.0.1:${proxy.port}/${meta.name}`, NC_LOG_REQUESTS: 'false' });
      owner = (await call('POST', '/auth/signup', { email: 'owner@example.com', password: 'password123' })).body.token;
      projectId = (await op('projectCreateByWeb', { title: 'Outage' })).id;
      await op('tableCreate', { tn: 'task', _tn: 'Tasks' }, true);
      await op('tableCreate', { tn: 'note', _tn: 'Notes' }, true);
      expect((await call('POST', `/nc/${projectId}/api/v1/Tasks`, { title: 'Written before the outage' })).status).toBe(200);
      expect((await call('POST', `/nc/${projectId}/api/v1/Notes`, { title: 'A note before the outage' })).status).toBe(200);
      browser = await launchBrowser();
      page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
      await signInInBrowser(page, tablo.url, 'owner@example.com');
      await page.goto(`${tablo.url}/#/nc/${projectId}`);
      await page.locator('.tree').getByRole('button', { name: 'Tasks', exact: true }).click();
      await page.getByRole('gridcell', { name: 'Written before the outage', exact: true }).waitFor();
    }, 120_000);
    afterAll(async () => {
      proxy?.up();
      await browser?.close();
      await tablo?.stop();
      proxy?.down();
      await meta?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    browserTest('opening a table while the store is cut keeps the person signed in, with the banner; once it is back the grid is live again', () => page, async () => {
      try {
        proxy.down();
        // Until the server's cached rights of the owner (a second) are gone: its answers then need the store.
        const deadline = Date.now() + 20_000;
        while ((await call('GET', `/nc/${projectId}/api/v1/Tasks`)).status !== 503) {
          if (Date.now() > deadline) throw new Error('the server kept answering from its caches');
          await Bun.sleep(100);
        }
        // Opening another table subscribes it on the realtime socket, which the server cannot check now.
        await page.locator('.tree').getByRole('button', { name: 'Notes', exact: true }).click();
        await page.getByRole('status').filter({ hasText: BANNER }).waitFor();
        // The table could not be read: said so, with a way to try again (it is read again by itself once the store answers).
        await page.getByText('The metadata database is unreachable; try again in a moment.').waitFor();
        await page.getByRole('button', { name: 'Try again' }).waitFor();
        // The session's refresh gets no verdict either: 503, and the cookie stays for later.
        expect(await refreshInPage()).toBe(503);
        await shot(page, 'store-outage-banner');
        expect(page.url()).toContain(`#/nc/${projectId}`);
        expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
        expect(await page.evaluate(() => localStorage.getItem('tablo.token'))).toBeTruthy();
      } finally {
        proxy.up();
      }
      // The socket opens again by itself (waiting longer each time) and the banner goes.
      await page.getByRole('status').filter({ hasText: BANNER }).waitFor({ state: 'detached', timeout: 30_000 });
      await page.getByRole('gridcell', { name: 'A note before the outage', exact: true }).waitFor();
      expect(await refreshInPage()).toBe(200);
      // A row written elsewhere shows in the open grid without reloading: the grid follows changes again.
      expect((await call('POST', `/nc/${projectId}/api/v1/Notes`, { title: 'Written after the outage' })).status).toBe(200);
      await page.getByRole('gridcell', { name: 'Written after the outage', exact: true }).waitFor();
      expect(page.url()).toContain(`#/nc/${projectId}`);
      await shot(page, 'store-outage-back');
    }, 90_000);
  },
  ['pg'],
);
