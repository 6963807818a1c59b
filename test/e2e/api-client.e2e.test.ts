/**
 * The API Client and gRPC Client tabs in a real browser against the binary: a request with an
 * environment variable (chosen from the `{{` menu) sent to the project's REST API, its answer and
 * its history entry; a host that never answers shown as a time-out; the session token kept from other hosts; the
 * operations picked from the API named in French; a call of a real gRPC server (reflection, on loopback) from the gRPC tab.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, launchBrowser, shot, startTablo, type RunningTablo } from './helpers';
import { loadChinook } from '../helpers/engines';
import { CATALOGUES } from '../../web/src/i18n/catalogues';
import { LOCALES } from '../../web/src/i18n/locales';
import { startGrpcServer, type TestGrpcServer } from '../helpers/grpc-server';

setDefaultTimeout(60_000);

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'API client': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('API client and gRPC client in the browser', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;
  let grpcServer: TestGrpcServer;
  let projectId = '';

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    grpcServer = await startGrpcServer();
    // The test's gRPC server listens on loopback, which the server reaches only when allowed.
    tablo = await startTablo({ NC_API_CLIENT_ALLOW_PRIVATE: '1' });
    const res = await fetch(`${tablo.url}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'api@example.com', password: 'password123' }) });
    const token = ((await res.json()) as { token: string }).token;
    const cfg = await loadChinook('sqlite', 'tablo_t_e2e_apiclient');
    await Bun.write(join(tablo.dataDir, 'chinook.sqlite'), Bun.file(cfg.connection.filename!));
    const made = await fetch(`${tablo.url}/dashboard?q=sqlOp_projectCreateByWeb`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'xc-auth': token },
      body: JSON.stringify({ api: 'projectCreateByWeb', args: { title: 'Music', db: { client: 'sqlite', connection: { filename: 'chinook.sqlite' } } } }),
    });
    projectId = ((await made.json()) as { id: string }).id;
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await page.goto(`${tablo.url}/#/user/authentication/signin`);
    await page.getByLabel('E-mail').fill('api@example.com');
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/#\/projects/);
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
    await grpcServer?.stop();
  });

  browserTest('a request with a variable to the REST API: answer and history', () => page, async () => {
    await page.locator('.tree-extras').getByRole('button', { name: 'API Client', exact: true }).click();
    const panel = page.getByRole('region', { name: 'API Client' });
    await panel.getByRole('button', { name: 'New environment' }).click();
    await panel.getByLabel('Environment name').fill('dev');
    await panel.getByLabel('Variables name 1').fill('table');
    await panel.getByLabel('Variables value 1').fill('Album');
    await panel.getByRole('button', { name: 'Save environment' }).click();
    await panel.getByLabel('Environment', { exact: true }).locator('option', { hasText: 'dev' }).waitFor({ state: 'attached' });
    await panel.getByLabel('Environment', { exact: true }).selectOption({ label: 'dev' });

    const url = panel.getByRole('combobox', { name: 'URL' });
    // On a 1280 px screen the address keeps room to be read; the buttons after it wrap instead.
    await page.setViewportSize({ width: 1280, height: 800 });
    try {
      expect((await url.boundingBox())!.width).toBeGreaterThanOrEqual(320);
      await shot(page, 'api-client-1280');
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
    // Without a URL there is nothing to send (it once fetched the app's own page and kept '200 GET' in the history).
    expect(await url.inputValue()).toBe('');
    expect(await panel.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await url.fill(`/nc/${projectId}/api/v1/`);
    await url.press('End');
    await url.pressSequentially('{{ta');
    await panel.getByRole('listbox', { name: 'Variables' }).getByRole('option', { name: 'table' }).click();
    await expect(url.inputValue()).resolves.toBe(`/nc/${projectId}/api/v1/{{table}}`);
    await panel.getByRole('tab', { name: 'Params' }).click();
    await panel.getByRole('button', { name: '+ Add' }).click();
    await panel.getByLabel('Params name 1').fill('limit');
    await panel.getByLabel('Params value 1').fill('2');
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.getByLabel('Status').filter({ hasText: '200' }).waitFor();
    await panel.getByText('For Those About To Rock We Salute You').first().waitFor();
    await panel.getByRole('list', { name: 'History' }).getByText(`GET /nc/${projectId}/api/v1/{{table}}`).waitFor();
    await shot(page, 'api-client');

    // Every kept entry is listed (the newest 500), not only the first hundred.
    const added = await page.evaluate(async (pid) => {
      const call = (entry: unknown) =>
        fetch('/dashboard?q=sqlOp_apiClientHistoryAdd', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'xc-gui': 'true', 'xc-auth': localStorage.getItem('tablo.token') ?? '' },
          body: JSON.stringify({ api: 'apiClientHistoryAdd', project_id: pid, args: { entry } }),
        });
      for (let i = 1; i <= 120; i++) await call({ createdAt: new Date().toISOString(), request: { method: 'GET', url: `/old/${i}`, params: [], headers: [], auth: '', body: '' }, response: { status: 200, headers: [], data: '', size: 0, timeTaken: 1 } });
      return 120;
    }, projectId);
    await page.getByRole('tab', { name: 'API Client' }).locator('.tab-close').click();
    await page.locator('.tree-extras').getByRole('button', { name: 'API Client', exact: true }).click();
    const history = panel.getByRole('list', { name: 'History' });
    await history.getByText('GET /old/120').waitFor();
    await expect(history.getByRole('listitem').count()).resolves.toBe(added + 1);
    await history.getByText(`GET /nc/${projectId}/api/v1/{{table}}`).waitFor();
    // Clearing the history asks first: Esc keeps it, Clear history empties it.
    await panel.getByRole('button', { name: 'Clear history' }).click();
    const ask = page.getByRole('dialog', { name: `Clear the history of ${added + 1} requests?` });
    await ask.waitFor();
    await page.keyboard.press('Escape');
    await ask.waitFor({ state: 'detached' });
    await expect(history.getByRole('listitem').count()).resolves.toBe(added + 1);
    await panel.getByRole('button', { name: 'Clear history' }).click();
    await ask.getByRole('button', { name: 'Clear history' }).click();
    await history.getByRole('listitem').first().waitFor({ state: 'detached' });

    // A variable the environment lacks blocks the send with a message.
    await url.fill(`/nc/${projectId}/api/v1/{{nope}}`);
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.getByText('Unknown variable in this environment: nope').waitFor();

    // A header name with a space is named, not the browser's own failure.
    await url.fill(`/nc/${projectId}/api/v1/Album`);
    await panel.getByRole('tab', { name: /^Headers/ }).click();
    await panel.getByRole('button', { name: '+ Add' }).click();
    await panel.getByLabel('Headers name 1').fill('my header');
    await panel.getByLabel('Headers value 1').fill('1');
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.getByText("'my header' is not a valid header name: use letters, digits and - _ . only, without spaces").waitFor();
    expect(await panel.getByText(/Failed to execute/).count()).toBe(0);
  });

  browserTest('a host that never answers shows the time-out with its address', () => page, async () => {
    const silent = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data: () => {} } });
    try {
      const panel = page.getByRole('region', { name: 'API Client' });
      // The header row the test before left with a bad name gets a good one.
      await panel.getByRole('tab', { name: /^Headers/ }).click();
      await panel.getByLabel('Headers name 1').fill('x-ok');
      await panel.getByRole('combobox', { name: 'URL' }).fill(`http://127.0.0.1:${silent.port}/slow`);
      await panel.getByRole('button', { name: 'Send' }).click();
      await panel.getByText(`127.0.0.1:${silent.port} did not answer within 30 s`).waitFor({ timeout: 45_000 });
    } finally {
      silent.stop(true);
    }
  }, 70_000);

  browserTest('an image answer shows as the image with a download; from the history it says its bytes are not kept', () => page, async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
    const files = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(png, { headers: { 'content-type': 'image/png' } }) });
    try {
      const panel = page.getByRole('region', { name: 'API Client' });
      await panel.getByRole('combobox', { name: 'URL' }).fill(`http://127.0.0.1:${files.port}/logo.png`);
      await panel.getByRole('button', { name: 'Send' }).click();
      await panel.getByText(`Binary answer: image/png, ${png.length} B`).waitFor();
      const image = panel.getByRole('img', { name: 'The image the request answered' });
      await image.waitFor();
      expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
      const download = page.waitForEvent('download');
      await panel.getByRole('link', { name: 'Download' }).click();
      const saved = await download;
      expect(saved.suggestedFilename()).toBe('response.png');
      expect(Buffer.from(await Bun.file((await saved.path())!).arrayBuffer()).equals(png)).toBe(true);
      await shot(page, 'api-client-image');
      await panel.getByRole('list', { name: 'History' }).getByText(`GET http://127.0.0.1:${files.port}/logo.png`).first().click();
      await panel.getByText('The bytes of a binary answer are not kept in the history: send the request again to see them.').waitFor();
    } finally {
      files.stop(true);
    }
  });

  browserTest('the session token goes only to this server: another host gets no xc-auth unless one is typed in', () => page, async () => {
    const seen: (string | null)[] = [];
    const other = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => (seen.push(req.headers.get('xc-auth')), Response.json({ ok: true })) });
    try {
      await page.locator('.tree-extras').getByRole('button', { name: 'API Client', exact: true }).click();
      const panel = page.getByRole('region', { name: 'API Client' });
      const session = await page.evaluate(() => localStorage.getItem('tablo.token'));
      await panel.getByRole('tab', { name: /^Auth/ }).click();
      // The Auth field holds the session, as it does by default.
      await panel.getByLabel('Auth token').fill(session!);
      await panel.getByRole('combobox', { name: 'URL' }).fill(`http://127.0.0.1:${other.port}/elsewhere`);
      await panel.getByRole('button', { name: 'Send' }).click();
      await panel.getByLabel('Status').filter({ hasText: '200' }).waitFor();
      expect(seen).toEqual([null]);
      // Copied as curl for that host, the command leaves the session out too.
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: tablo.url });
      await panel.getByRole('button', { name: 'Copy as curl' }).click();
      await page.getByText('Copied the request as curl').waitFor();
      const curl = await page.evaluate(() => navigator.clipboard.readText());
      expect(curl).toContain(`http://127.0.0.1:${other.port}/elsewhere`);
      expect(curl).not.toContain(session!);
      // A token typed in by hand is the user's choice for that host: it goes.
      await panel.getByLabel('Auth token').fill('their-own-token');
      await panel.getByRole('button', { name: 'Send' }).click();
      for (let i = 0; i < 100 && seen.length < 2; i++) await Bun.sleep(50);
      expect(seen).toEqual([null, 'their-own-token']);
      // This server still gets the session.
      await panel.getByLabel('Auth token').fill(session!);
      await panel.getByRole('combobox', { name: 'URL' }).fill(`/nc/${projectId}/api/v1/Album/1`);
      await panel.getByRole('button', { name: 'Send' }).click();
      await panel.getByText('For Those About To Rock We Salute You').first().waitFor();
    } finally {
      other.stop(true);
    }
  });

  browserTest('a performance test sends the request many times and shows the rate, the times and the answers; the history keeps it', () => page, async () => {
    const panel = page.getByRole('region', { name: 'API Client' });
    let served = 0;
    let inFlight = 0;
    let most = 0;
    const target = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      async fetch() {
        const n = ++served;
        most = Math.max(most, ++inFlight);
        await Bun.sleep(5);
        inFlight--;
        return n % 5 === 0 ? Response.json({ msg: 'Too many requests' }, { status: 429 }) : Response.json({ ok: true });
      },
    });
    try {
      await panel.getByRole('combobox', { name: 'URL' }).fill(`http://127.0.0.1:${target.port}/ping`);
      await panel.getByRole('button', { name: 'Performance test' }).click();
      const form = panel.getByRole('form', { name: 'Performance test' });
      // Out of bounds: said, nothing sent.
      await form.getByLabel('Requests').fill('5000');
      await form.getByRole('button', { name: 'Run' }).click();
      await form.getByText('Requests: a whole number from 1 to 1,000').waitFor();
      expect(served).toBe(0);
      await form.getByLabel('Requests').fill('40');
      await form.getByLabel('At once').fill('4');
      await form.getByRole('button', { name: 'Run' }).click();
      await page.getByText('Starting performance test').waitFor();
      const result = panel.getByRole('region', { name: 'Performance test result' });
      await result.waitFor();
      await page.getByText('Finished performance test').waitFor();
      expect(served).toBe(40);
      expect(most).toBeLessThanOrEqual(4);
      await result.getByText(/^40 requests, 4 at once, in [\d.]+ s\.$/).waitFor();
      await result.getByText(/requests\/s$/).waitFor();
      const statuses = result.getByRole('list', { name: 'Answers by status' });
      expect((await statuses.getByRole('listitem').allTextContents()).map((x) => x.trim()).sort()).toEqual(['200 32 times', '429 8 times']);
      await shot(page, 'api-client-perf');
      // The history keeps the test: reopened, the result is shown again.
      await page.getByRole('tab', { name: 'API Client' }).locator('.tab-close').click();
      await page.locator('.tree-extras').getByRole('button', { name: 'API Client', exact: true }).click();
      const entry = panel.getByRole('list', { name: 'History' }).getByRole('button', { name: `PERF GET http://127.0.0.1:${target.port}/ping` });
      await entry.click();
      await panel.getByRole('region', { name: 'Performance test result' }).getByText(/^40 requests, 4 at once/).waitFor();
      expect(served).toBe(40);
    } finally {
      target.stop(true);
    }
  });

  browserTest('the gRPC tab lists a server through reflection and calls a method', () => page, async () => {
    await page.locator('.tree-extras').getByRole('button', { name: 'gRPC Client', exact: true }).click();
    const panel = page.getByRole('region', { name: 'gRPC Client' });
    await panel.getByLabel('Server address').fill(grpcServer.address);
    await panel.getByRole('button', { name: 'List services' }).click();
    await panel.getByRole('heading', { name: 'tablo.test.Greeter' }).waitFor();
    await panel.getByRole('button', { name: /^SayHello/ }).click();
    // The metadata editor is named on screen, and a metadata row goes out with the call.
    await panel.getByRole('heading', { name: 'Metadata' }).waitFor();
    await panel.getByRole('group', { name: 'Metadata' }).getByRole('button', { name: '+ Add' }).click();
    await panel.getByLabel('Metadata name 1').fill('x-greeting');
    await panel.getByLabel('Metadata value 1').fill('Hi');
    const editor = panel.locator('.cm-content').first();
    await editor.click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('{"name": "Ada"');
    await panel.getByRole('button', { name: 'Call' }).click();
    await panel.getByLabel('gRPC status').filter({ hasText: 'OK (0)' }).waitFor();
    await panel.getByText('Hi Ada').first().waitFor();
    await panel.getByText('test-greeter').waitFor();
    await panel.getByRole('button', { name: /^Count/ }).click();
    await panel.locator('.cm-content').first().getByText('"to"').waitFor();
    await panel.locator('.cm-content').first().click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('{"to": 3');
    await panel.getByRole('button', { name: 'Call' }).click();
    await panel.getByText('3 messages').waitFor();
    await shot(page, 'grpc-client');
  });
  browserTest('in French the operations picked from the API are named in French', () => page, async () => {
    const setLanguage = (language: string) =>
      page.evaluate((language) => {
        const key = 'tablo.settings.api@example.com';
        localStorage.setItem(key, JSON.stringify({ ...JSON.parse(localStorage.getItem(key) ?? '{}'), language }));
      }, language);
    const fr = CATALOGUES.fr;
    await setLanguage('fr');
    try {
      await page.goto(`${tablo.url}/#/nc/${projectId}`);
      await page.reload();
      await page.locator('.tree-extras').getByRole('button', { name: fr['common.panels.apiClient.title'], exact: true }).click();
      const picker = page.getByRole('region', { name: fr['tools.api.region'] }).getByLabel(fr['tools.api.operation']);
      await picker.locator('option', { hasText: /^POST Créer une ligne dans Album$/ }).waitFor({ state: 'attached' });
      const options = (await picker.locator('option').allInnerTexts()).map((o) => o.trim());
      expect(options).toContain('GET Lignes de Album, chacune avec ses lignes de Track');
      expect(options).toContain('DELETE Supprimer des lignes (tout ou rien)');
      // None in the English of the OpenAPI document ('Create a row in Album', 'Album rows each with its Track rows').
      expect(options.filter((o) => /\b(a row|rows|each with its|all or nothing|not linked yet)\b/.test(o))).toEqual([]);
      await shot(page, 'api-client-operations-fr');
      // Picking one fills the request as before.
      await picker.selectOption({ label: 'POST Créer une ligne dans Album' });
      expect(await page.getByRole('combobox', { name: fr['tools.api.url'] }).inputValue()).toEndWith('/api/v1/Album');
    } finally {
      await setLanguage('en');
      await page.reload();
    }
  });

  browserTest('the operation picker\'s placeholder fits in its box in every language', () => page, async () => {
    const setLanguage = (language: string) =>
      page.evaluate((language) => {
        const key = 'tablo.settings.api@example.com';
        localStorage.setItem(key, JSON.stringify({ ...JSON.parse(localStorage.getItem(key) ?? '{}'), language }));
      }, language);
    const cut: string[] = [];
    try {
      for (const { code } of LOCALES) {
        const c = CATALOGUES[code];
        await setLanguage(code);
        await page.goto(`${tablo.url}/#/nc/${projectId}`);
        await page.reload();
        await page.locator('.tree-extras').getByRole('button', { name: c['common.panels.apiClient.title'], exact: true }).click();
        const picker = page.getByRole('region', { name: c['tools.api.region'] }).getByLabel(c['tools.api.operation']);
        await picker.waitFor();
        // The text shown against the room the select leaves it (its paddings and its arrow, about 20 px, aside).
        const fit = await picker.evaluate((el) => {
          const s = el as HTMLSelectElement;
          const style = getComputedStyle(s);
          const ctx = document.createElement('canvas').getContext('2d')!;
          ctx.font = style.font;
          const text = s.options[s.selectedIndex]!.text;
          return { text, fits: ctx.measureText(text).width <= s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20 };
        });
        if (!fit.fits) cut.push(`${code}: ${fit.text}`);
        if (code === 'fr') await shot(page, 'api-client-picker-fr');
      }
      expect(cut).toEqual([]);
    } finally {
      await setLanguage('en');
      await page.reload();
    }
  });

  browserTest('picking an operation over an edited request asks first; an untouched one is replaced at once', () => page, async () => {
    await page.goto(`${tablo.url}/#/nc/${projectId}`);
    await page.reload();
    await page.locator('.tree-extras').getByRole('button', { name: 'API Client', exact: true }).click();
    const panel = page.getByRole('region', { name: 'API Client' });
    const picker = panel.getByLabel('Operation');
    const url = panel.getByRole('combobox', { name: 'URL' });
    await picker.locator('option', { hasText: /^POST Create a row in Album$/ }).waitFor({ state: 'attached' });
    await url.fill('/my/edited/request');
    await picker.selectOption({ label: 'POST Create a row in Album' });
    const ask = page.getByRole('dialog', { name: 'Replace the request you edited?' });
    await ask.getByText('POST Create a row in Album will take its place').waitFor();
    await shot(page, 'api-client-replace-ask');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await url.inputValue()).toBe('/my/edited/request');
    await picker.selectOption({ label: 'POST Create a row in Album' });
    await ask.getByRole('button', { name: 'Replace' }).click();
    await expect(url.inputValue()).resolves.toEndWith('/api/v1/Album');
    // Picked and not edited since: the next pick replaces it without asking.
    const other = (await picker.locator('optgroup[label="Artist"] option').first().innerText()).trim();
    await picker.selectOption({ label: other });
    await expect(url.inputValue()).resolves.toContain('/Artist');
    expect(await ask.count()).toBe(0);
    // A history entry (or a saved request) picked over an edited request asks too.
    await panel.getByRole('button', { name: 'Send', exact: true }).click();
    const entry = panel.getByRole('list', { name: 'History' }).getByRole('button').first();
    await entry.waitFor();
    await url.fill('/edited/again');
    await entry.click();
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await url.inputValue()).toBe('/edited/again');
    await entry.click();
    await ask.getByRole('button', { name: 'Replace' }).click();
    await expect(url.inputValue()).resolves.toContain('/Artist');
  });

  browserTest('previewed as a viewer, the API Client reads saved environments without their values and sends nothing', () => page, async () => {
    await page.getByLabel('Preview as').selectOption('viewer');
    await page.locator('.tree-extras').getByRole('button', { name: 'API Client', exact: true }).click();
    const panel = page.getByRole('region', { name: 'API Client' });
    await panel.getByRole('note').filter({ hasText: 'Only owners and creators send requests' }).waitFor();
    await panel.getByLabel('URL').fill('https://example.com/');
    expect(await panel.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    expect(await panel.getByRole('button', { name: 'New environment' }).count()).toBe(0);
    expect(await panel.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    await shot(page, 'api-client-viewer');
    await page.getByRole('button', { name: 'Reset Preview' }).click();
  });
});
