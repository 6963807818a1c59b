/**
 * Tablo behind a reverse proxy under a path, against the binary: a small proxy on loopback serves
 * http://127.0.0.1:<proxy>/tablo/* from Tablo's root (taking the path off, plain requests and
 * websocket upgrades alike), and Tablo knows its public address (NC_PUBLIC_URL=.../tablo). In
 * Chromium at /tablo/: sign-up, a project on the default SQLite, a table's grid with a cell edited
 * and seen at once in a second browser through the proxied realtime socket, the Swagger page from
 * the profile menu, a view shared and its link opened by a stranger; no request of any page ever
 * reaches the proxy outside /tablo/. Then the same proxy without NC_PUBLIC_URL, naming the path in
 * X-Forwarded-Prefix (Tablo trusting it by NC_TRUSTED_PROXIES): the session cookie and the links follow it.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout } from 'bun:test';
import type { Server, ServerWebSocket } from 'bun';
import type { Browser, Page } from 'playwright-core';
import { browserProblem, browserTest, freePort, launchBrowser, shot, signUpInBrowser, startTablo, type RunningTablo } from './helpers';

setDefaultTimeout(40_000);

const PREFIX = '/tablo';

type Relay = { upstream: string; protocols: string[]; origin: string | null; peer?: WebSocket; pending: (string | ArrayBuffer)[] };

/**
 * A reverse proxy serving `${PREFIX}/*` from `target()` without the prefix; every path that came
 * outside the prefix is kept in `strays` (and answered 404). With `forwarded`, it says what it took
 * off and where it was asked (X-Forwarded-Prefix, -Host, -Proto), as nginx or Traefik can.
 */
function startProxy(port: number, target: () => string, forwarded = false) {
  const strays: string[] = [];
  const server: Server<Relay> = Bun.serve<Relay>({
    port,
    hostname: '127.0.0.1',
    async fetch(request, srv) {
      const url = new URL(request.url);
      if (url.pathname !== PREFIX && !url.pathname.startsWith(`${PREFIX}/`)) {
        strays.push(url.pathname);
        return new Response('not under /tablo', { status: 404 });
      }
      const path = url.pathname.slice(PREFIX.length) || '/';
      const upstream = `${target()}${path}${url.search}`;
      if (request.headers.get('upgrade')?.toLowerCase() === 'websocket') {
        const protocols = (request.headers.get('sec-websocket-protocol') ?? '').split(',').map((p) => p.trim()).filter(Boolean);
        const data: Relay = { upstream: upstream.replace(/^http/, 'ws'), protocols, origin: request.headers.get('origin'), pending: [] };
        // The first protocol offered is the one Tablo picks (tablo.realtime, tablo.terminal).
        if (srv.upgrade(request, { data, headers: protocols[0] ? { 'sec-websocket-protocol': protocols[0] } : {} })) return undefined;
        return new Response('upgrade failed', { status: 400 });
      }
      const headers = new Headers(request.headers);
      headers.delete('host');
      if (forwarded) {
        headers.set('x-forwarded-prefix', PREFIX);
        headers.set('x-forwarded-host', url.host);
        headers.set('x-forwarded-proto', 'http');
      }
      const res = await fetch(upstream, { method: request.method, headers, body: request.body, redirect: 'manual' });
      const back = new Headers(res.headers);
      // fetch has decoded the body already.
      back.delete('content-encoding');
      back.delete('content-length');
      return new Response(res.body, { status: res.status, headers: back });
    },
    websocket: {
      open(ws: ServerWebSocket<Relay>) {
        const peer = new WebSocket(ws.data.upstream, { protocols: ws.data.protocols, headers: ws.data.origin ? { origin: ws.data.origin } : {} } as never);
        ws.data.peer = peer;
        peer.binaryType = 'arraybuffer';
        peer.onopen = () => {
          for (const m of ws.data.pending.splice(0)) peer.send(m);
        };
        peer.onmessage = (e) => ws.send(typeof e.data === 'string' ? e.data : new Uint8Array(e.data as ArrayBuffer));
        peer.onclose = (e) => ws.close(e.code === 1005 ? 1000 : e.code, e.reason);
      },
      message(ws, message) {
        const peer = ws.data.peer!;
        const data = typeof message === 'string' ? message : (message.buffer.slice(message.byteOffset, message.byteOffset + message.byteLength) as ArrayBuffer);
        if (peer.readyState === WebSocket.OPEN) peer.send(data);
        else ws.data.pending.push(data);
      },
      close(ws) {
        ws.data.peer?.close();
      },
    },
  });
  return { server, strays };
}

const problem = browserProblem();
if (problem && !process.env.CI) console.log(`skipped e2e suite 'subpath': ${problem}`);

describe.skipIf(!!problem && !process.env.CI)('Tablo behind a reverse proxy under /tablo', () => {
  let tablo: RunningTablo;
  let proxy: ReturnType<typeof startProxy>;
  let browser: Browser;
  let page: Page;
  let second: Page | undefined;
  let stranger: Page | undefined;
  let base = '';
  let projectId = '';
  const sockets: string[] = [];

  /** A call from the page, addressed relative to it as the web app does. */
  const callInPage = (p: Page, path: string, method = 'GET', body?: unknown) =>
    p.evaluate(
      async ([path, method, body]) => {
        const res = await fetch(path as string, {
          method: method as string,
          headers: { 'content-type': 'application/json', 'xc-gui': 'true', 'xc-auth': localStorage.getItem('tablo.token') ?? '' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: await res.json().catch(() => null) };
      },
      [path, method, body] as const,
    );
  const tree = (p: Page) => p.getByRole('navigation', { name: 'Project tree' });
  const openNotes = async (p: Page) => {
    await p.goto(`${base}/#/nc/${projectId}`);
    await tree(p).getByRole('button', { name: 'Notes', exact: true }).click();
    await p.getByRole('gridcell', { name: 'first note', exact: true }).first().waitFor();
  };

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    const port = freePort();
    let target = '';
    proxy = startProxy(port, () => target);
    base = `http://127.0.0.1:${port}${PREFIX}`;
    tablo = await startTablo({ NC_PUBLIC_URL: base });
    target = tablo.url;
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 880 } })).newPage();
    page.on('websocket', (ws) => sockets.push(ws.url()));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    proxy?.server.stop(true);
    await tablo?.stop();
  });

  browserTest('sign-up and a new project on the default SQLite, all under /tablo/; the session cookie lives on /tablo/auth and refreshes there', () => page, async () => {
    await signUpInBrowser(page, base, 'owner@example.com');
    await page.getByRole('button', { name: '+ New Project' }).first().click();
    await page.getByLabel('Project name').fill('Under a path');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Active Env').waitFor();
    projectId = /#\/nc\/([^/?]+)/.exec(page.url())![1]!;
    expect(page.url()).toStartWith(`${base}/#/nc/`);
    const made = await callInPage(page, 'dashboard?q=sqlOp_tableCreate', 'POST', { api: 'tableCreate', project_id: projectId, args: { tn: 'note', _tn: 'Notes', columns: [{ cn: 'id', uidt: 'ID', pk: true, ai: true }, { cn: 'title', uidt: 'SingleLineText' }] } });
    expect(made.status).toBe(200);
    expect((await callInPage(page, `nc/${projectId}/api/v1/Notes`, 'POST', { title: 'first note' })).status).toBe(200);

    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'tablo_refresh')?.path).toBe('/tablo/auth');
    expect((await callInPage(page, 'auth/refresh-token', 'POST')).status).toBe(200);
    expect(proxy.strays).toEqual([]);
  });

  browserTest('a cell edited in the grid shows at once in a second browser, over realtime sockets through the proxy', () => page, async () => {
    second = await (await browser.newContext({ viewport: { width: 1400, height: 880 } })).newPage();
    await second.goto(`${base}/#/user/authentication/signin`);
    await second.getByLabel('E-mail').fill('owner@example.com');
    await second.getByLabel('Password').fill('password123');
    await second.getByRole('button', { name: 'Sign in' }).click();
    await second.waitForURL(/#\/projects/);
    await openNotes(page);
    await openNotes(second);
    const cell = page.getByRole('gridcell', { name: 'first note', exact: true }).first();
    await cell.dblclick();
    const input = page.getByLabel(/^Edit title$/i);
    await input.fill('edited through the proxy');
    await input.press('Enter');
    await second.getByRole('gridcell', { name: 'edited through the proxy', exact: true }).first().waitFor();
    await shot(second, 'subpath-grid-second-browser');
    expect(sockets.some((u) => u.startsWith(`ws://127.0.0.1:${new URL(base).port}/tablo/api/v1/realtime?`))).toBe(true);
    expect(proxy.strays).toEqual([]);
  });

  browserTest('the Swagger page opens from the profile menu under /tablo/ and reads its spec there', () => page, async () => {
    await page.getByRole('button', { name: 'Profile menu' }).click();
    const opened = page.context().waitForEvent('page');
    await page.getByRole('menuitem', { name: 'Swagger APIs Doc' }).click();
    const docs = await opened;
    await docs.locator('.swagger-ui .info .title').waitFor();
    expect(docs.url()).toStartWith(`${base}/nc/${projectId}/docs`);
    await docs.getByText('/api/v1/Notes', { exact: false }).first().waitFor();
    await shot(docs, 'subpath-swagger');
    const spec = await callInPage(page, `nc/${projectId}/docs/openapi.json?dbAlias=db`);
    expect(spec.body.servers).toEqual([{ url: `/tablo/nc/${projectId}` }]);
    await docs.close();
    expect(proxy.strays).toEqual([]);
  });

  browserTest("a shared view's link carries /tablo/ and opens for a stranger through the proxy", () => page, async () => {
    const drawer = page.getByRole('complementary', { name: 'Views' });
    await drawer.getByRole('button', { name: 'Grid', exact: true }).click();
    await page.getByRole('dialog').getByLabel('View name').fill('Public notes');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('view-title').getByText('Public notes').waitFor();
    await drawer.getByRole('button', { name: 'View menu of Public notes' }).click();
    await page.getByRole('menuitem', { name: 'Share view' }).click();
    const dialog = page.getByRole('dialog', { name: "Share view 'Public notes'" });
    const link = await dialog.getByLabel('Shared link').inputValue();
    expect(link).toStartWith(`${base}/#/nc/view/`);
    stranger = await (await browser.newContext({ viewport: { width: 1400, height: 860 } })).newPage();
    await stranger.goto(link);
    await stranger.getByRole('gridcell', { name: 'edited through the proxy', exact: true }).first().waitFor();
    await shot(stranger, 'subpath-shared-view');
    expect(proxy.strays).toEqual([]);
  });
});

describe.skipIf(!!problem && !process.env.CI)('Tablo under /tablo behind a proxy that leaves the path on', () => {
  let tablo: RunningTablo;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    const port = freePort();
    // Reached directly, as through a proxy that passes /tablo/... on as it is.
    tablo = await startTablo({ NC_PUBLIC_URL: `http://127.0.0.1:${port}${PREFIX}` }, port);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 880 } })).newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await tablo?.stop();
  });

  browserTest('the page, its files and every call are served under /tablo/; /tablo is sent on to /tablo/', () => page, async () => {
    const outside: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('data:') && !r.url().startsWith(`${tablo.url}${PREFIX}/`)) outside.push(r.url());
    });
    await page.goto(`${tablo.url}${PREFIX}`);
    // The app starts at /tablo/ and routes there (its first route needs its own calls to work).
    await page.waitForURL(`${tablo.url}${PREFIX}/#/user/authentication/signup`);
    await signUpInBrowser(page, `${tablo.url}${PREFIX}`, 'owner@example.com');
    await page.getByRole('button', { name: '+ New Project' }).first().click();
    await page.getByLabel('Project name').fill('Path left on');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Active Env').waitFor();
    await shot(page, 'subpath-unstripped-project');
    // The first address asked for was /tablo itself (sent on to /tablo/).
    expect(outside).toEqual([`${tablo.url}${PREFIX}`]);
  });
});

describe.skipIf(!!problem && !process.env.CI)('Tablo behind a proxy that takes /tablo off and names it in X-Forwarded-Prefix, without NC_PUBLIC_URL', () => {
  let tablo: RunningTablo;
  let proxy: ReturnType<typeof startProxy>;
  let browser: Browser;
  let page: Page;
  let base = '';

  beforeAll(async () => {
    if (problem) throw new Error(problem);
    const port = freePort();
    let target = '';
    proxy = startProxy(port, () => target, true);
    base = `http://127.0.0.1:${port}${PREFIX}`;
    tablo = await startTablo({ NC_TRUSTED_PROXIES: '127.0.0.1' });
    target = tablo.url;
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 880 } })).newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    proxy?.server.stop(true);
    await tablo?.stop();
  });

  // The cookie lived on /auth: the browser never sent it to /tablo/auth/refresh-token, so an expired session could not be renewed.
  browserTest('the session cookie lives on /tablo/auth and refreshes there; the API endpoints and a shared link carry /tablo', () => page, async () => {
    const call = (path: string, method = 'GET', body?: unknown) =>
      page.evaluate(
        async ([path, method, body]) => {
          const res = await fetch(path as string, { method: method as string, headers: { 'content-type': 'application/json', 'xc-gui': 'true', 'xc-auth': localStorage.getItem('tablo.token') ?? '' }, body: body === undefined ? undefined : JSON.stringify(body) });
          return { status: res.status, body: await res.json().catch(() => null) };
        },
        [path, method, body] as const,
      );
    await signUpInBrowser(page, base, 'owner@example.com');
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'tablo_refresh')?.path).toBe('/tablo/auth');
    expect((await call('auth/refresh-token', 'POST')).status).toBe(200);

    const projectId = (await call('dashboard?q=sqlOp_projectCreateByWeb', 'POST', { api: 'projectCreateByWeb', args: { title: 'Forwarded prefix' } })).body.id as string;
    expect((await call(`nc/${projectId}/projectApiInfo`)).body.info.db.restApiUrl).toBe(`/tablo/nc/${projectId}/api/v1`);
    const op = (api: string, args: unknown) => call(`dashboard?q=sqlOp_${api}`, 'POST', { api, project_id: projectId, args });
    expect((await op('tableCreate', { tn: 'note', columns: [{ cn: 'id', uidt: 'ID', pk: true, ai: true }, { cn: 'title', uidt: 'SingleLineText' }] })).status).toBe(200);
    const view = (await op('xcVirtualTableCreate', { tn: 'note', title: 'Everyone', type: 'grid' })).body;
    const link = (await op('createSharedViewLink', { view_id: view.id })).body;
    expect(link.url).toBe(`${base}/#/nc/view/${link.uuid}`);
    expect(proxy.strays).toEqual([]);
  });
});
