/**
 * Security review, smaller findings at the HTTP edge: JSON bodies nested too deep answer 400, bodies
 * over the limit 413 with `{msg}` (also when sent in chunks, on REST and on GraphQL's early road);
 * security headers on HTML answers; the refresh cookie is Secure over HTTPS (directly or through a
 * trusted proxy); X-Forwarded-For is believed only from NC_TRUSTED_PROXIES (rate limits and audit
 * addresses), and its X-Forwarded-Host names the server in links and socket origin checks; reset tokens are masked in the request log; a malformed % escape in a path and an
 * envelope field of the wrong type answer 400 {msg}; an address or headers over Tablo's limit answer 414 / 431 {msg}.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { serveApp } from '../../src/http/serve';

const xcAuth = (token: string) => ({ 'xc-auth': token });

/** A body sent in chunks (no Content-Length) of `mb` megabytes of spaces. */
const chunked = (mb: number) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < mb; i++) c.enqueue(new Uint8Array(1024 * 1024).fill(32));
      c.close();
    },
  });

describe('request bodies', () => {
  let t: TestApp;
  let admin = '';
  let projectId = '';
  beforeAll(async () => {
    t = await makeTestApp();
    admin = (await signupSuperAdmin(t)).token;
    projectId = (await dashboardOp(t, admin, 'projectCreateByWeb', { args: { title: 'Bodies' } })).body.id;
    await dashboardOp(t, admin, 'tableCreate', { project_id: projectId, args: { tn: 'item', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'name', uidt: 'SingleLineText' }] } });
  }, 60_000);
  afterAll(async () => t.close());

  const send = async (path: string, body: BodyInit, headers: Record<string, string> = {}) => {
    const res = await t.app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers: { ...xcAuth(admin), 'content-type': 'application/json', ...headers }, body, duplex: 'half' } as RequestInit));
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) };
  };

  test('JSON nested deeper than the limit answers 400 {msg} on REST, GraphQL and the dashboard', async () => {
    const deep = `{"name":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    for (const path of [`/nc/${projectId}/api/v1/Item`, `/nc/${projectId}/v1/graphql`, '/dashboard?q=sqlOp_tableList', '/auth/signin']) {
      const res = await send(path, deep);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ msg: 'The JSON body is nested deeper than 64 levels' });
    }
    // Ordinary nesting is fine.
    expect((await send(`/nc/${projectId}/api/v1/Item`, JSON.stringify({ name: 'ok' }))).status).toBe(200);
  });

  test('over the limit: 413 {msg} by Content-Length and by chunks, never "Body already used"', async () => {
    const declared = await send(`/nc/${projectId}/api/v1/Item`, '{}', { 'content-length': String(11 * 1024 * 1024) });
    expect(declared.status).toBe(413);
    expect(declared.body).toEqual({ msg: 'The request body is larger than the limit of 10485760 bytes' });
    for (const path of [`/nc/${projectId}/api/v1/Item`, `/nc/${projectId}/v1/graphql`, '/dashboard?q=sqlOp_tableList']) {
      const res = await send(path, chunked(12));
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ msg: 'The request body is larger than the limit of 10485760 bytes' });
      expect(res.text).not.toContain('already used');
    }
    // A chunked body under the limit still works.
    expect((await send(`/nc/${projectId}/api/v1/Item`, new Blob([JSON.stringify({ name: 'chunked' })]).stream())).status).toBe(200);
  });
});

describe('malformed input at the edge', () => {
  let t: TestApp;
  let admin = '';
  let projectId = '';
  beforeAll(async () => {
    t = await makeTestApp();
    admin = (await signupSuperAdmin(t)).token;
    projectId = (await dashboardOp(t, admin, 'projectCreateByWeb', { args: { title: 'Edge' } })).body.id;
    await dashboardOp(t, admin, 'tableCreate', { project_id: projectId, args: { tn: 'item', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'name', uidt: 'SingleLineText' }] } });
  }, 60_000);
  afterAll(async () => t.close());

  test('a path with a malformed % escape answers 400 {msg} on every route (a reset token of %ZZ was a 500)', async () => {
    const paths: [string, string][] = [
      ['GET', '/auth/token/validate/%ZZ'], ['POST', '/auth/password/reset/%E0%A4%A'], ['GET', '/nc/%ZZ/docs'], ['GET', '/nc/%ZZ/projectApiInfo'],
      ['PUT', '/admin/%ZZ'], ['GET', '/api/v1/shared/%ZZ/rows'], ['POST', '/nc/%ZZ/v1/graphql'], ['GET', `/nc/${projectId}/api/v1/Item/%2`],
    ];
    for (const [method, path] of paths) {
      const res = await t.request(method, path, { headers: xcAuth(admin), body: method === 'GET' ? undefined : { password: 'password1234' } });
      expect([path, res.status, res.body]).toEqual([path, 400, { msg: 'The URL holds a malformed escape (%)' }]);
    }
    // A well-formed escape, in the path or the query, is no concern of the edge.
    expect((await t.request('GET', `/nc/${projectId}/api/v1/Item?where=${encodeURIComponent('(Name,like,%25x%)')}`, { headers: xcAuth(admin) })).status).toBe(200);
  });

  test('an address or headers over 64 KiB answer 414 / 431 {msg} (on the fast road too); a long filter under it is served', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',');
    // About 40 KB of where: more than Bun's default 16 KiB header limit, which the binary raises (binary.e2e.test.ts).
    const long = await t.request('GET', `/nc/${projectId}/api/v1/Item?where=(Id,in,${ids(7000)})&limit=1`, { headers: xcAuth(admin) });
    expect(long.status).toBe(200);
    for (const path of [`/nc/${projectId}/api/v1/Item?where=(Id,in,${ids(13000)})`, `/nc/${projectId}/api/v1/Item/count?where=(Id,in,${ids(13000)})`, `/api/health?x=${'a'.repeat(70_000)}`]) {
      const res = await t.request('GET', path, { headers: xcAuth(admin) });
      expect(res.status).toBe(414);
      expect(res.body.msg).toMatch(/^The request's address is too long: \d+ bytes, at most 65536\. Shorten the filter \(where\), or send it in the body of a GraphQL query$/);
    }
    const headers = await t.request('GET', `/nc/${projectId}/api/v1/Item`, { headers: { ...xcAuth(admin), 'x-padding': 'p'.repeat(70_000) } });
    expect(headers.status).toBe(431);
    expect(headers.body.msg).toMatch(/^The request's headers are too large: \d+ bytes with the address, at most 65536$/);
  });

  test('dashboard and team calls whose project_id (or api, dbAlias, env) is no string answer 400 {msg}', async () => {
    for (const key of ['project_id', 'api', 'dbAlias', 'env']) {
      const res = await t.request('POST', '/dashboard', { headers: xcAuth(admin), body: { api: 'tableList', project_id: projectId, [key]: { x: 1 } } });
      expect([key, res.status, res.body]).toEqual([key, 400, { msg: `${key} must be a string` }]);
    }
    const invite = await t.request('POST', '/admin/resendInvite/nobody', { headers: xcAuth(admin), body: { project_id: {} } });
    expect(invite.status).toBe(400);
    expect(invite.body).toEqual({ msg: 'project_id is required' });
  });
});

describe('HTML answers and cookies', () => {
  let t: TestApp;
  let admin = '';
  let projectId = '';
  beforeAll(async () => {
    t = await makeTestApp({ logRequests: true });
    admin = (await signupSuperAdmin(t)).token;
    projectId = (await dashboardOp(t, admin, 'projectCreateByWeb', { args: { title: 'Docs' } })).body.id;
  }, 60_000);
  afterAll(async () => t.close());

  test('the Swagger page carries CSP (its inline script by hash), frame-ancestors, X-Frame-Options, nosniff, Referrer-Policy', async () => {
    const res = await t.request('GET', `/nc/${projectId}/docs`, { headers: xcAuth(admin) });
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    const inline = /<script>([\s\S]*?)<\/script>/.exec(res.text)![1]!;
    expect(csp).toContain(`'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
    expect(csp).not.toContain("'unsafe-inline' 'unsafe-eval'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  test('a project id in the Swagger page cannot open a script', async () => {
    const res = await t.request('GET', `/nc/${encodeURIComponent('x</title><script>alert(1)</script>')}/docs`);
    expect(res.text).not.toContain('<script>alert(1)');
    expect(res.text).toContain('&#60;/title&#62;');
  });

  test('the refresh cookie is Secure over HTTPS, not over plain HTTP', async () => {
    const body = JSON.stringify({ email: 'admin@example.com', password: 'password123' });
    const over = async (url: string, headers: Record<string, string> = {}) =>
      (await t.app.handle(new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }))).headers.getSetCookie();
    const https = await over('https://tablo.example.com/auth/signin');
    expect(https.find((c) => c.startsWith('tablo_refresh='))).toContain('; Secure');
    const http = await over('http://localhost/auth/signin');
    expect(http.find((c) => c.startsWith('tablo_refresh='))).not.toContain('Secure');
    // X-Forwarded-Proto from a client that is no trusted proxy changes nothing.
    const claimed = await over('http://localhost/auth/signin', { 'x-forwarded-proto': 'https' });
    expect(claimed.find((c) => c.startsWith('tablo_refresh='))).not.toContain('Secure');
  });

  test('reset tokens are masked in the request log', async () => {
    const forgot = await t.request('POST', '/auth/password/forgot', { body: { email: 'admin@example.com' } });
    expect(forgot.status).toBe(200);
    const link = t.log.lines.find((l) => l.includes('password reset link'))!;
    const token = /token=([\w-]+)/.exec(link)![1]!;
    await t.request('GET', `/auth/token/validate/${token}`);
    expect((await t.request('POST', `/auth/password/reset/${token}`, { body: { password: 'another-password1' } })).status).toBe(200);
    await Bun.sleep(20); // the request line is written after the answer
    const requests = t.log.lines.filter((l) => / \/auth\/(token\/validate|password\/reset)\//.test(l));
    expect(requests.length).toBe(2);
    for (const line of requests) {
      expect(line).toContain('/***');
      expect(line).not.toContain(token);
    }
  });
});

describe('X-Forwarded-For only from trusted proxies', () => {
  const attempt = (url: string, forwardedFor: string, extra: Record<string, string> = {}) =>
    fetch(`${url}/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor, ...extra },
      body: JSON.stringify({ email: `nobody${Math.random()}@example.com`, password: 'wrong-password' }),
    });

  const serve = (t: TestApp) => Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (r, server) => (useServer(server), t.app.handle(r)) });
  let useServer: (s: unknown) => void = () => {};

  test('without NC_TRUSTED_PROXIES a made-up X-Forwarded-For neither escapes the per-address limit nor reaches the audit log', async () => {
    const t = await makeTestApp();
    const { useSocketServer } = await import('../../src/http/client-address');
    useServer = (s) => useSocketServer(s as never);
    const server = serve(t);
    try {
      const url = `http://127.0.0.1:${server.port}`;
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await attempt(url, `203.0.113.${i}`)).status);
      expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
      expect(statuses[10]).toBe(429);
      const ips = await t.app.ctx.meta.all<{ ip: string }>("SELECT DISTINCT ip FROM nc_audit WHERE op_type = 'AUTHENTICATION'");
      expect(ips.map((r) => r.ip)).toEqual(['127.0.0.1']);
    } finally {
      server.stop(true);
      useServer = () => {};
      (await import('../../src/http/client-address')).useSocketServer(null);
      await t.close();
    }
  });

  test('behind a trusted proxy that passes its own upstream address as Host, the host it reports is the server in invite links and realtime origin checks', async () => {
    const t = await makeTestApp({ trustedProxies: ['127.0.0.0/8'] });
    const server = serveApp(t.app, { port: 0, hostname: '127.0.0.1' });
    const proxied = { 'x-forwarded-for': '198.51.100.5', 'x-forwarded-host': 'tablo.example.com', 'x-forwarded-proto': 'https' };
    try {
      const { token } = await signupSuperAdmin(t);
      const projectId = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Behind a proxy' } })).body.id;
      const invite = await fetch(`http://127.0.0.1:${server.port}/admin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'xc-auth': token, ...proxied },
        body: JSON.stringify({ email: 'invited@example.com', roles: 'editor', project_id: projectId }),
      });
      expect((await invite.json()).invite_url).toMatch(/^https:\/\/tablo\.example\.com\/#\/user\/authentication\/signup\//);
      const socket = (origin: string) =>
        new Promise<string>((done) => {
          const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api/v1/realtime?project_id=${projectId}&token=${token}`, { headers: { origin, ...proxied } } as never);
          ws.addEventListener('message', () => (ws.close(), done('open')), { once: true });
          ws.addEventListener('error', () => done('refused'), { once: true });
        });
      expect(await socket('https://tablo.example.com')).toBe('open');
      expect(await socket('https://elsewhere.example.com')).toBe('refused');
    } finally {
      server.stop(true);
      (await import('../../src/http/client-address')).useSocketServer(null);
      await t.close();
    }
  });

  test('from a trusted proxy, the client address it reports counts (limits per client, audit) and its X-Forwarded-Proto too', async () => {
    const t = await makeTestApp({ trustedProxies: ['127.0.0.0/8'] });
    const { useSocketServer } = await import('../../src/http/client-address');
    useServer = (s) => useSocketServer(s as never);
    const server = serve(t);
    try {
      const url = `http://127.0.0.1:${server.port}`;
      const statuses: number[] = [];
      // Each client behind the proxy has its own limit; a spoofed entry left of the real one is ignored.
      for (let i = 0; i < 11; i++) statuses.push((await attempt(url, `10.9.9.9, 198.51.100.${i}`)).status);
      expect(statuses.every((s) => s === 400)).toBe(true);
      const ips = await t.app.ctx.meta.all<{ ip: string }>("SELECT DISTINCT ip FROM nc_audit WHERE op_type = 'AUTHENTICATION' ORDER BY ip");
      expect(ips.map((r) => r.ip)).toContain('198.51.100.0');
      expect(ips.map((r) => r.ip)).not.toContain('10.9.9.9');
      await signupSuperAdmin(t);
      const signin = await fetch(`${url}/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.77' },
        body: JSON.stringify({ email: 'admin@example.com', password: 'password123' }),
      });
      expect(signin.status).toBe(200);
      expect(signin.headers.getSetCookie().find((c) => c.startsWith('tablo_refresh='))).toContain('; Secure');
    } finally {
      server.stop(true);
      useServer = () => {};
      (await import('../../src/http/client-address')).useSocketServer(null);
      await t.close();
    }
  });
});
