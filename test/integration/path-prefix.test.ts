/**
 * Tablo behind a reverse proxy under a path (NC_PUBLIC_URL=https://corp.example/tablo): links,
 * cookies and endpoints carry the path, and requests that still carry it (a proxy that does not
 * take it off) reach the same routes, over a real listening server.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { serveApp } from '../../src/http/serve';
import { publicPath } from '../../src/http/link-base';
import { useSocketServer } from '../../src/http/client-address';

const PUBLIC = 'https://corp.example/tablo';

describe('under a path prefix', () => {
  let t: TestApp;
  let server: ReturnType<typeof serveApp>;
  let base: string;
  beforeAll(async () => {
    t = await makeTestApp({ publicUrl: PUBLIC });
    server = serveApp(t.app, { port: 0, hostname: '127.0.0.1', pathPrefix: publicPath(t.config) });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    server.stop(true);
    useSocketServer(null);
    await t.close();
  });

  test('requests under the path reach the same routes as without it; the bare path is sent on to its directory; other paths are not taken off', async () => {
    expect((await fetch(`${base}/tablo/api/health`)).status).toBe(200);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    const bare = await fetch(`${base}/tablo?x=1`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/tablo/?x=1');
    expect((await fetch(`${base}/tabloid/api/health`)).status).toBe(404);
    expect((await fetch(`${base}/tablo/tablo/api/health`)).status).toBe(404);
  });

  test('a sign-up under the path sets the refresh cookie on /tablo/auth, which refreshes there; the client address is the socket, not lost with the copy', async () => {
    const signup = await fetch(`${base}/tablo/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'root@example.com', password: 'password123' }) });
    expect(signup.status).toBe(200);
    const cookie = signup.headers.get('set-cookie')!;
    expect(cookie).toContain('Path=/tablo/auth;');
    const refreshed = await fetch(`${base}/tablo/auth/refresh-token`, { method: 'POST', headers: { cookie: cookie.split(';')[0]!, 'xc-gui': 'true' } });
    expect(refreshed.status).toBe(200);
    expect((await refreshed.json()).token).toBeString();
    const ips = await t.app.ctx.meta.all<{ ip: string }>("SELECT DISTINCT ip FROM nc_audit WHERE op_type = 'AUTHENTICATION'");
    expect(ips.map((r) => r.ip)).toEqual(['127.0.0.1']);
  });

  test('endpoints, the OpenAPI server, Swagger UI, invitation and password reset links carry the path; the realtime socket opens under it', async () => {
    // The account made by the sign-up above.
    const signin = await fetch(`${base}/tablo/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'root@example.com', password: 'password123' }) });
    // The known-device cookie (sign-in-guard) lives beside the refresh cookie, else the browser never sends it back.
    expect(signin.headers.getSetCookie().find((c) => c.startsWith('tablo_known='))).toContain('; Path=/tablo/auth;');
    const { token } = (await signin.json()) as { token: string };
    const projectId = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Prefixed' } })).body.id as string;
    const info = await (await fetch(`${base}/tablo/nc/${projectId}/projectApiInfo`, { headers: { 'xc-auth': token } })).json();
    expect(info.info.db).toMatchObject({ swaggerUrl: `/tablo/nc/${projectId}/docs?dbAlias=db`, gqlApiUrl: `/tablo/nc/${projectId}/v1/graphql`, restApiUrl: `/tablo/nc/${projectId}/api/v1` });
    const doc = await (await fetch(`${base}/tablo/nc/${projectId}/docs/openapi.json?dbAlias=db`, { headers: { 'xc-auth': token } })).json();
    expect(doc.servers).toEqual([{ url: `/tablo/nc/${projectId}` }]);
    // Swagger UI's files and spec are addressed from the page (/tablo/nc/{id}/docs), wherever it is served.
    const page = await (await fetch(`${base}/tablo/nc/${projectId}/docs?dbAlias=db`)).text();
    expect(page).toContain('href="../../_swagger/swagger-ui.css"');
    expect(page).toContain('src="../../_swagger/swagger-ui-bundle.js"');
    expect(page).toContain('url: "docs/openapi.json?dbAlias=db"');
    expect((await fetch(new URL('../../_swagger/swagger-ui.css', `${base}/tablo/nc/${projectId}/docs`))).status).toBe(200);

    const invite = await (await fetch(`${base}/tablo/admin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'xc-auth': token },
      body: JSON.stringify({ email: 'invited@example.com', roles: 'editor', project_id: projectId }),
    })).json();
    expect(invite.invite_url).toStartWith(`${PUBLIC}/#/user/authentication/signup/`);
    await fetch(`${base}/tablo/auth/password/forgot`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'root@example.com' }) });
    expect(t.log.lines.find((l) => l.includes('password reset link'))).toContain(`${PUBLIC}/#/user/password/reset?token=`);

    const opened = await new Promise<string>((done) => {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/tablo/api/v1/realtime?project_id=${projectId}&token=${token}`, { headers: { origin: 'https://corp.example' } } as never);
      ws.addEventListener('message', () => (ws.close(), done('open')), { once: true });
      ws.addEventListener('error', () => done('refused'), { once: true });
    });
    expect(opened).toBe('open');
  });
});

test('at the root (no NC_PUBLIC_URL path) cookies stay on /auth, endpoints on /nc, and a /tablo path is not taken off', async () => {
  const t = await makeTestApp({ publicUrl: 'https://tablo.example.com/' });
  const server = serveApp(t.app, { port: 0, hostname: '127.0.0.1', pathPrefix: publicPath(t.config) });
  try {
    const { token, cookie } = await signupSuperAdmin(t);
    expect(cookie).toContain('Path=/auth;');
    const projectId = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Root' } })).body.id as string;
    expect((await t.request('GET', `/nc/${projectId}/projectApiInfo`, { headers: { 'xc-auth': token } })).body.info.db.swaggerUrl).toBe(`/nc/${projectId}/docs?dbAlias=db`);
    expect((await fetch(`http://127.0.0.1:${server.port}/tablo/api/health`)).status).toBe(404);
  } finally {
    server.stop(true);
    useSocketServer(null);
    await t.close();
  }
});

describe('behind a trusted proxy that takes the path off and names it in X-Forwarded-Prefix (no NC_PUBLIC_URL)', () => {
  let t: TestApp;
  let server: ReturnType<typeof serveApp>;
  let base: string;
  /** What the proxy adds to every request it passes on. */
  const proxied = { 'x-forwarded-prefix': '/tablo', 'x-forwarded-host': 'corp.example', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = proxied) =>
    fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', 'xc-gui': 'true', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  beforeAll(async () => {
    t = await makeTestApp({ trustedProxies: ['127.0.0.1'] });
    server = serveApp(t.app, { port: 0, hostname: '127.0.0.1', pathPrefix: publicPath(t.config) });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    server.stop(true);
    useSocketServer(null);
    await t.close();
  });

  test('the refresh and known-device cookies live under the prefix, and the refreshed one stays there', async () => {
    const signup = await call('POST', '/auth/signup', { email: 'root@example.com', password: 'password123' });
    expect(signup.status).toBe(200);
    const [refreshSet] = signup.headers.getSetCookie();
    expect(refreshSet).toStartWith('tablo_refresh=');
    expect(refreshSet).toContain('; Path=/tablo/auth;');
    expect(refreshSet).toEndWith('; Secure');
    const signin = await call('POST', '/auth/signin', { email: 'root@example.com', password: 'password123' });
    const cookies = signin.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith('tablo_refresh='))).toContain('; Path=/tablo/auth;');
    expect(cookies.find((c) => c.startsWith('tablo_known='))).toContain('; Path=/tablo/auth;');
    const refreshed = await call('POST', '/auth/refresh-token', undefined, { ...proxied, cookie: refreshSet!.split(';')[0]! });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.getSetCookie()[0]).toContain('; Path=/tablo/auth;');
    // The client address is the one the trusted proxy reports.
    const ips = await t.app.ctx.meta.all<{ ip: string }>("SELECT DISTINCT ip FROM nc_audit WHERE op_type = 'AUTHENTICATION'");
    expect(ips.map((r) => r.ip)).toEqual(['203.0.113.9']);
  });

  test('endpoints, the OpenAPI server, invitation and shared view links carry the prefix and the forwarded host', async () => {
    const { token } = await (await call('POST', '/auth/signin', { email: 'root@example.com', password: 'password123' })).json();
    const auth = { ...proxied, 'xc-auth': token };
    const op = async (api: string, body: Record<string, unknown>, plus = false) => (await call('POST', `/dashboard?q=${plus ? 'sqlOpPlus' : 'sqlOp'}_${api}`, { api, ...body }, auth)).json();
    const projectId = (await op('projectCreateByWeb', { args: { title: 'Forwarded' } })).id as string;
    const info = await (await call('GET', `/nc/${projectId}/projectApiInfo`, undefined, auth)).json();
    expect(info.info.db).toMatchObject({ swaggerUrl: `/tablo/nc/${projectId}/docs?dbAlias=db`, gqlApiUrl: `/tablo/nc/${projectId}/v1/graphql`, restApiUrl: `/tablo/nc/${projectId}/api/v1` });
    const doc = await (await call('GET', `/nc/${projectId}/docs/openapi.json?dbAlias=db`, undefined, auth)).json();
    expect(doc.servers).toEqual([{ url: `/tablo/nc/${projectId}` }]);
    const invite = await (await call('POST', '/admin', { email: 'invited@example.com', roles: 'editor', project_id: projectId }, auth)).json();
    expect(invite.invite_url).toStartWith('https://corp.example/tablo/#/user/authentication/signup/');

    await op('tableCreate', { project_id: projectId, dbAlias: 'db', args: { tn: 'notes', columns: [{ cn: 'id', uidt: 'ID', pk: true, ai: true }, { cn: 'title', uidt: 'SingleLineText' }] } }, true);
    const view = await op('xcVirtualTableCreate', { project_id: projectId, dbAlias: 'db', args: { tn: 'notes', title: 'All notes', type: 'grid' } });
    const link = await op('createSharedViewLink', { project_id: projectId, dbAlias: 'db', args: { view_id: view.id } });
    expect(link.url).toBe(`https://corp.example/tablo/#/nc/view/${link.uuid}`);
  });

  test('the prefix of a client that is not a trusted proxy, or one that is not a plain path, is not heard', async () => {
    const cookiePath = async (headers: Record<string, string>) => {
      const res = await call('POST', '/auth/signin', { email: 'root@example.com', password: 'password123' }, headers);
      expect(res.status).toBe(200);
      return res.headers.getSetCookie()[0]!.match(/; Path=([^;]*);/)![1];
    };
    expect(await cookiePath({ 'x-forwarded-prefix': '/tablo/' })).toBe('/tablo/auth');
    expect(await cookiePath({ 'x-forwarded-prefix': '/corp, /tablo' })).toBe('/corp/tablo/auth');
    for (const bad of ['/tablo; Domain=evil.example', '/../admin', 'https://evil.example/x', 'tablo', '/ta blo', `/${'x'.repeat(300)}`]) {
      expect(await cookiePath({ 'x-forwarded-prefix': bad })).toBe('/auth');
    }
    const untrusted = await makeTestApp({ trustedProxies: ['10.0.0.1'] });
    const direct = serveApp(untrusted.app, { port: 0, hostname: '127.0.0.1', pathPrefix: '' });
    try {
      const res = await fetch(`http://127.0.0.1:${direct.port}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json', ...proxied }, body: JSON.stringify({ email: 'root@example.com', password: 'password123' }) });
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie()[0]).toContain('; Path=/auth;');
      expect(res.headers.getSetCookie()[0]).not.toContain('Secure');
    } finally {
      direct.stop(true);
      await untrusted.close();
    }
  });
});
