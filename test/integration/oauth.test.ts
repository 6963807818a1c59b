/**
 * Sign in with an OpenID Connect provider, Google and GitHub against a real authorization server
 * (oidc-provider) on a loopback port: the redirect with state and PKCE, the provider's login and
 * consent pages, the code exchange, id_token verification, userinfo / GitHub's API, and the
 * account rules (first user, invites, open sign-up, linking by verified e-mail, disabled users),
 * linked accounts, and the audit log.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { IDP_SECRET, startIdentityProvider, type IdentityProvider } from '../helpers/identity-provider';
import type { Config } from '../../src/config/config';
import { MSG_BAD_STATE } from '../../src/api/auth/oauth-routes';

const CALLBACK = 'http://localhost:8080/user/authentication/callback';
let idp: IdentityProvider;
let apps: TestApp[] = [];

beforeAll(async () => {
  idp = await startIdentityProvider([CALLBACK]);
  idp.accounts.set('ann', { email: 'Ann@Example.com', name: 'Ann Lee' });
  idp.accounts.set('bob', { email: 'bob@example.com', name: 'Bob' });
  idp.accounts.set('eve', { email: 'admin@example.com', emailVerified: false });
  idp.accounts.set('carl', { email: 'carl@example.com' });
});
afterAll(() => idp.close());
afterEach(async () => {
  for (const t of apps) await t.close();
  apps = [];
});

const providersConfig = (): Partial<Config> => ({
  oidcIssuer: idp.issuer,
  oidcClientId: 'tablo-oidc',
  oidcClientSecret: IDP_SECRET,
  oidcName: 'Test IdP',
  googleClientId: 'tablo-google',
  googleClientSecret: IDP_SECRET,
  googleIssuer: idp.issuer,
  githubClientId: 'tablo-github',
  githubClientSecret: IDP_SECRET,
  githubAuthorizeUrl: `${idp.issuer}/auth`,
  githubTokenUrl: `${idp.issuer}/token`,
  githubApiUrl: idp.issuer,
});

async function app(overrides: Partial<Config> = {}) {
  const t = await makeTestApp({ ...providersConfig(), ...overrides });
  apps.push(t);
  return t;
}

/** The cookie an answer sets, as a browser sends it back ('' when none). */
const cookieOf = (res: { headers: Headers }) => (res.headers.get('set-cookie') ?? '').split(';')[0]!;

/** The browser's part: start at Tablo, sign in at the provider, come back with code and state (and the browser's cookie). */
async function authorizeAt(t: TestApp, provider: string, login: string) {
  const start = await t.request('GET', `/auth/${provider}`);
  expect(start.status).toBe(302);
  return { ...(await idp.authorize(start.headers.get('location')!, login)), cookie: cookieOf(start) };
}

const exchange = (t: TestApp, provider: string, code: string, state: string, cookie = '') =>
  t.request('POST', `/auth/${provider}/genTokenByCode?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`, { headers: cookie ? { cookie } : {} });

async function signInWith(t: TestApp, provider: string, login: string) {
  const { code, state, cookie } = await authorizeAt(t, provider, login);
  return exchange(t, provider, code, state, cookie);
}

const me = async (t: TestApp, token: string) => (await t.request('GET', '/user/me', { headers: { 'xc-auth': token } })).body;
const auditOf = (t: TestApp) => t.app.ctx.meta.all<{ description: string; user_email: string | null }>("SELECT description, user_email FROM nc_audit WHERE op_type = 'AUTHENTICATION' ORDER BY id");

describe('providers', () => {
  test('auth type lists only the configured providers', async () => {
    const none = await makeTestApp();
    apps.push(none);
    expect((await none.request('GET', '/auth/type')).body.providers).toEqual([]);
    expect((await none.request('GET', '/auth/google')).body).toEqual({ msg: 'Sign-in with google is not configured on this server' });
    expect(await none.request('GET', '/auth/signout')).toMatchObject({ status: 404, body: { msg: 'Not found' } });
    const t = await app();
    expect((await t.request('GET', '/auth/type')).body.providers).toEqual([
      { id: 'google', name: 'Google' },
      { id: 'github', name: 'GitHub' },
      { id: 'oidc', name: 'Test IdP' },
    ]);
  });

  test('the redirect carries state, nonce and an S256 PKCE challenge; the callback path hands over to the web app', async () => {
    const t = await app();
    const start = await t.request('GET', '/auth/oidc');
    const url = new URL(start.headers.get('location')!);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(url.searchParams.get('state')).toStartWith('oidc.');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('nonce')).toBeTruthy();
    const back = await t.request('GET', '/user/authentication/callback?code=abc&state=oidc.xyz');
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe('../../#/user/authentication/callback?code=abc&state=oidc.xyz');
  });
});

describe('discovery', () => {
  test('a discovery document that names another issuer is refused', async () => {
    const t = await app({ oidcIssuer: idp.issuer.replace('127.0.0.1', 'localhost') });
    const res = await t.request('GET', '/auth/oidc');
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(`Sign-in with Test IdP failed: its discovery document names another issuer (${idp.issuer})`);
  });
});

describe('a provider that cannot be reached', () => {
  test('answers 503 naming the provider, and the server log says why (the answer alone left the administrator guessing)', async () => {
    const closed = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    const port = closed.port;
    closed.stop(true);
    const t = await app({ oidcIssuer: `http://127.0.0.1:${port}` });
    const res = await t.request('GET', '/auth/oidc');
    expect(res.status).toBe(503);
    expect(res.body.msg).toBe('Test IdP could not be reached, please try again later');
    const line = t.log.lines.find((l) => l.startsWith('WARN sign-in with Test IdP: Test IdP could not be reached: '));
    expect(line).toBeDefined();
    expect(line).toContain(`127.0.0.1:${port}`);
  });
});

describe('OpenID Connect sign-in', () => {
  test('the first user signs up as Super Admin, then signs in again with the same identity', async () => {
    const t = await app();
    const first = await signInWith(t, 'oidc', 'ann');
    expect(first.status).toBe(200);
    expect(first.headers.get('set-cookie')).toContain('tablo_refresh=');
    expect(await me(t, first.body.token)).toMatchObject({ email: 'ann@example.com', firstname: 'Ann', lastname: 'Lee', roles: { super: true, user: true }, hasPassword: false });
    const again = await signInWith(t, 'oidc', 'ann');
    expect(again.status).toBe(200);
    expect((await me(t, again.body.token)).id).toBe((await me(t, first.body.token)).id);
    expect((await auditOf(t)).map((a) => a.description)).toEqual(['signed up as Super Admin with Test IdP', 'signed in with Test IdP']);
  });

  test("a code and state are heard only from the browser that started the sign-in (no one else's sign-in is handed over)", async () => {
    const t = await app();
    // The attacker signs in at the provider and stops before the exchange; the victim's browser
    // opens the callback link with that code and state but never started a sign-in.
    const attacker = await authorizeAt(t, 'oidc', 'ann');
    const victim = await exchange(t, 'oidc', attacker.code, attacker.state);
    expect(victim).toMatchObject({ status: 400, body: { msg: MSG_BAD_STATE } });
    // Nor with a sign-in of its own under way in another tab.
    const own = await t.request('GET', '/auth/oidc');
    expect((await exchange(t, 'oidc', attacker.code, attacker.state, cookieOf(own))).body).toEqual({ msg: MSG_BAD_STATE });
    // The browser that started it finishes it, also after starting another sign-in.
    const second = await t.request('GET', '/auth/oidc', { headers: { cookie: attacker.cookie } });
    const both = cookieOf(second);
    expect(both.split('.').length).toBe(2);
    expect((await exchange(t, 'oidc', attacker.code, attacker.state, both)).status).toBe(200);
  });

  test('a state is used once, belongs to its provider, and a bad code is refused by the provider', async () => {
    const t = await app();
    const { code, state, cookie } = await authorizeAt(t, 'oidc', 'ann');
    expect((await exchange(t, 'google', code, state, cookie)).body).toEqual({ msg: MSG_BAD_STATE });
    // The state was taken by the failed attempt above.
    expect((await exchange(t, 'oidc', code, state, cookie)).body).toEqual({ msg: MSG_BAD_STATE });
    const fresh = await authorizeAt(t, 'oidc', 'ann');
    const bad = await exchange(t, 'oidc', fresh.code + 'x', fresh.state, fresh.cookie);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toStartWith('Sign-in with Test IdP failed: ');
    expect((await t.request('POST', '/auth/oidc/genTokenByCode')).body).toEqual({ msg: 'code and state are required' });
    expect((await auditOf(t)).every((a) => a.description.startsWith('failed sign-in with'))).toBe(true);
  });

  test('later users need an invite unless sign-up is open; an invite is taken up by a provider sign-in', async () => {
    const t = await app();
    const owner = (await signupSuperAdmin(t)).token;
    const refused = await signInWith(t, 'oidc', 'bob');
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toContain('invitation');
    const projectId = (await dashboardOp(t, owner, 'projectCreateByWeb', { args: { title: 'Team' } })).body.id;
    await t.request('POST', '/admin', { headers: { 'xc-auth': owner }, body: { email: 'bob@example.com', roles: 'editor', project_id: projectId } });
    const joined = await signInWith(t, 'oidc', 'bob');
    expect(joined.status).toBe(200);
    expect((await me(t, joined.body.token)).roles).toEqual({ user: true });
    const list = (await t.request('GET', `/admin?project_id=${projectId}`, { headers: { 'xc-auth': owner } })).body.list;
    expect(list.find((u: any) => u.email === 'bob@example.com').status).toBe('active');
    const all = (await t.request('GET', '/admin/users?search=bob', { headers: { 'xc-auth': owner } })).body.list;
    expect(all).toMatchObject([{ email: 'bob@example.com', joined: true }]);

    const open = await app({ allowSignup: true });
    await signupSuperAdmin(open);
    const carl = await signInWith(open, 'oidc', 'carl');
    expect(await me(open, carl.body.token)).toMatchObject({ email: 'carl@example.com', roles: { user: true } });
  });

  test('an account that joined with a provider is added to another project, never sent a sign-up link that sets its password', async () => {
    const t = await app();
    const admin = (await signupSuperAdmin(t)).token;
    const team = (await dashboardOp(t, admin, 'projectCreateByWeb', { args: { title: 'Team' } })).body.id;
    await t.request('POST', '/admin', { headers: { 'xc-auth': admin }, body: { email: 'bob@example.com', roles: 'owner', project_id: team } });
    expect((await signInWith(t, 'oidc', 'bob')).status).toBe(200);
    // The owner of another project invites bob: without a mail plugin the inviter sees any link made.
    const other = (await dashboardOp(t, admin, 'projectCreateByWeb', { args: { title: 'Other' } })).body.id;
    const mallory = await t.request('POST', '/admin', { headers: { 'xc-auth': admin }, body: { email: 'mallory@example.com', roles: 'owner', project_id: other } });
    const malloryToken = (await t.request('POST', '/auth/signup', { body: { email: 'mallory@example.com', password: 'password123', token: String(mallory.body.invite_url).split('/signup/')[1] } })).body.token;
    const invite = await t.request('POST', '/admin', { headers: { 'xc-auth': malloryToken }, body: { email: 'bob@example.com', roles: 'viewer', project_id: other } });
    expect(invite.status).toBe(200);
    expect(invite.body).toEqual({ msg: 'The user was added to the project', email: 'bob@example.com' });
    expect((await t.request('POST', '/auth/signin', { body: { email: 'bob@example.com', password: 'password123' } })).status).toBe(400);
    const list = (await t.request('GET', `/admin?project_id=${other}`, { headers: { 'xc-auth': malloryToken } })).body.list;
    expect(list.find((u: any) => u.email === 'bob@example.com').status).toBe('active');
  });

  test('an existing account is linked by verified e-mail only; disabled users cannot sign in', async () => {
    const t = await app();
    const admin = await signupSuperAdmin(t);
    const eve = await signInWith(t, 'oidc', 'eve');
    expect(eve.body).toEqual({ msg: 'Your e-mail address at Test IdP is not verified' });
    idp.accounts.set('adminidp', { email: 'admin@example.com' });
    const linked = await signInWith(t, 'oidc', 'adminidp');
    expect(linked.status).toBe(200);
    expect((await me(t, linked.body.token)).email).toBe('admin@example.com');

    const open = await app({ allowSignup: true });
    const adminToken = (await signupSuperAdmin(open)).token;
    const carl = await signInWith(open, 'oidc', 'carl');
    const carlId = (await me(open, carl.body.token)).id;
    await open.request('PUT', `/admin/users/${carlId}`, { headers: { 'xc-auth': adminToken }, body: { disabled: true } });
    expect((await signInWith(open, 'oidc', 'carl')).body).toEqual({ msg: 'This account is disabled', code: 'ACCOUNT_DISABLED' });
    expect(admin.email).toBe('admin@example.com');
  });
});

describe('Google and GitHub', () => {
  test('Google signs in through its OpenID Connect endpoints', async () => {
    const t = await app();
    const res = await signInWith(t, 'google', 'ann');
    expect(res.status).toBe(200);
    expect(await me(t, res.body.token)).toMatchObject({ email: 'ann@example.com', roles: { super: true } });
    expect((await auditOf(t)).at(-1)!.description).toBe('signed up as Super Admin with Google');
  });

  test('GitHub signs in through its token endpoint and its /user and /user/emails API', async () => {
    const t = await app();
    const res = await signInWith(t, 'github', 'ann');
    expect(res.status).toBe(200);
    expect(await me(t, res.body.token)).toMatchObject({ email: 'ann@example.com', firstname: 'Ann' });
    const again = await signInWith(t, 'github', 'ann');
    expect((await me(t, again.body.token)).email).toBe('ann@example.com');
    const rows = await t.app.ctx.meta.all<{ provider: string; subject: string }>('SELECT provider, subject FROM nc_user_identities');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.provider).toBe('github');
    expect(rows[0]!.subject).toMatch(/^\d+$/);
  });
});

describe('linked accounts', () => {
  test('a signed-in user links, lists and unlinks providers; the only sign-in method stays', async () => {
    const t = await app();
    const admin = await signupSuperAdmin(t);
    const h = { 'xc-auth': admin.token };
    expect((await t.request('GET', '/user/accounts', { headers: h })).body).toMatchObject({ hasPassword: true, list: [] });
    const link = await t.request('POST', '/user/accounts/github/link', { headers: h });
    const { code, state } = await idp.authorize(link.body.url, 'bob');
    expect((await exchange(t, 'github', code, state, cookieOf(link))).body).toEqual({ msg: 'Your GitHub account is linked', linked: 'github' });
    const accounts = (await t.request('GET', '/user/accounts', { headers: h })).body;
    expect(accounts.list).toMatchObject([{ provider: 'github', name: 'GitHub', email: 'bob@example.com' }]);
    // bob's GitHub identity now signs in as the admin.
    const viaGithub = await signInWith(t, 'github', 'bob');
    expect((await me(t, viaGithub.body.token)).email).toBe('admin@example.com');
    expect((await t.request('DELETE', '/user/accounts/github', { headers: h })).body).toEqual({ msg: 'Your GitHub account is unlinked' });
    expect((await t.request('DELETE', '/user/accounts/github', { headers: h })).status).toBe(404);

    const open = await app({ allowSignup: true });
    await signupSuperAdmin(open);
    const carl = (await signInWith(open, 'oidc', 'carl')).body.token;
    const only = await open.request('DELETE', '/user/accounts/oidc', { headers: { 'xc-auth': carl } });
    expect(only.body).toEqual({ msg: 'Set a password before you unlink your only way to sign in' });
    expect((await open.request('GET', '/user/accounts')).status).toBe(401);
  });
});

describe('password of a provider account', () => {
  test('an account without a password sets one without the current password, then may unlink', async () => {
    const t = await app();
    const token = (await signInWith(t, 'oidc', 'ann')).body.token;
    const h = { 'xc-auth': token };
    const set = await t.request('POST', '/user/password/change', { headers: h, body: { newPassword: 'password123' } });
    expect(set.body.msg).toBe('Password updated successfully');
    const h2 = { 'xc-auth': set.body.token };
    expect((await t.request('POST', '/user/password/change', { headers: h2, body: { newPassword: 'password456' } })).body).toEqual({ msg: 'Password is required' });
    expect((await t.request('DELETE', '/user/accounts/oidc', { headers: h2 })).status).toBe(200);
    expect((await t.request('POST', '/auth/signin', { body: { email: 'ann@example.com', password: 'password123' } })).status).toBe(200);
    expect((await auditOf(t)).map((a) => a.description)).toContain('password set');
  });
});

describe('rate limit', () => {
  test('code sign-ins are limited per IP like password sign-ins', async () => {
    const t = await app();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await exchange(t, 'oidc', 'code', `oidc.state${i}`)).status);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
