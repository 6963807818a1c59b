/**
 * Profile settings (display name, picture by upload or URL) and the audit log: every sign-in,
 * password, invite, role, member and API token event is written, and the Super Admin reads it.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';

let apps: TestApp[] = [];
async function app() {
  const t = await makeTestApp();
  apps.push(t);
  return t;
}
afterEach(async () => {
  for (const t of apps) await t.close();
  apps = [];
});

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

async function upload(t: TestApp, token: string, bytes: Uint8Array<ArrayBuffer>, type = 'image/png') {
  const form = new FormData();
  form.set('file', new Blob([bytes], { type }), 'me.png');
  const res = await t.app.handle(new Request('http://localhost/user/picture', { method: 'POST', headers: { 'xc-auth': token }, body: form }));
  return { status: res.status, body: (await res.json()) as any };
}

describe('profile settings', () => {
  test('display name, picture by URL and by upload, removal', async () => {
    const t = await app();
    const { token } = await signupSuperAdmin(t);
    const h = { 'xc-auth': token };
    const named = await t.request('PUT', '/user/profile', { headers: h, body: { firstname: ' Ada ', lastname: 'Lovelace' } });
    expect(named.body).toMatchObject({ msg: 'Profile updated', firstname: 'Ada', lastname: 'Lovelace', picture: null });
    expect((await t.request('PUT', '/user/profile', { headers: h, body: { lastname: '' } })).body).toMatchObject({ firstname: 'Ada', lastname: null });
    expect((await t.request('PUT', '/user/profile', { headers: h, body: { firstname: 'x'.repeat(101) } })).body).toEqual({ msg: 'Names are at most 100 characters' });
    // A value of the wrong type names its field (it once read only 'Invalid input: expected string, received number').
    expect((await t.request('PUT', '/user/profile', { headers: h, body: { firstname: 123 } })).body).toEqual({ msg: 'firstname: Invalid input: expected string, received number' });
    const users = (await t.request('GET', '/admin/users', { headers: h })).body.list;
    expect((await t.request('PUT', `/admin/users/${users[0].id}`, { headers: h, body: { disabled: 'yes' } })).body).toEqual({ msg: 'disabled: Invalid input: expected boolean, received string' });

    const byUrl = await t.request('PUT', '/user/picture', { headers: h, body: { url: 'https://example.com/ada.png' } });
    expect(byUrl.body.picture).toBe('https://example.com/ada.png');
    expect((await t.request('PUT', '/user/picture', { headers: h, body: { url: 'javascript:alert(1)' } })).body).toEqual({ msg: 'The picture URL must be an http or https URL' });

    const up = await upload(t, token, PNG);
    expect(up.status).toBe(200);
    expect(up.body.picture).toStartWith(`/user/picture/${up.body.id}?v=`);
    const me = (await t.request('GET', '/user/me', { headers: h })).body;
    expect(me.picture).toBe(up.body.picture);
    const served = await t.app.handle(new Request(`http://localhost${up.body.picture}`));
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);

    const notImage = await upload(t, token, new TextEncoder().encode('<svg onload="alert(1)"></svg>'), 'image/png');
    expect(notImage).toEqual({ status: 400, body: { msg: 'The picture must be a PNG, JPEG, GIF or WebP image' } });
    const big = new Uint8Array(1024 * 1024 + 1);
    big.set(PNG);
    expect((await upload(t, token, big)).status).toBe(413);

    expect((await t.request('DELETE', '/user/picture', { headers: h })).body.picture).toBeNull();
    expect((await t.app.handle(new Request(`http://localhost/user/picture/${up.body.id}`))).status).toBe(404);
    expect((await t.request('PUT', '/user/profile', { body: { firstname: 'x' } })).status).toBe(401);
  });
});

describe('audit log', () => {
  test('sign-in, password, invite, role, member and token events are written and read by the Super Admin', async () => {
    const t = await app();
    const admin = await signupSuperAdmin(t);

    expect((await t.request('POST', '/auth/signin', { body: { email: admin.email, password: 'wrong-password' } })).status).toBe(400);
    const signedIn = await t.request('POST', '/auth/signin', { body: { email: admin.email, password: admin.password } });
    const h2 = { 'xc-auth': (await t.request('POST', '/user/password/change', { headers: { 'xc-auth': signedIn.body.token }, body: { currentPassword: admin.password, newPassword: 'password456' } })).body.token };
    await t.request('POST', '/auth/password/forgot', { body: { email: admin.email } });
    await t.request('POST', '/auth/password/forgot', { body: { email: 'nobody@example.com' } });
    const resetToken = t.log.lines.map((l) => String(l)).join('\n').match(/reset\?token=([\w-]+)/)![1]!;
    expect((await t.request('POST', `/auth/password/reset/${resetToken}`, { body: { password: 'password789' } })).status).toBe(200);
    const token = (await t.request('POST', '/auth/signin', { body: { email: admin.email, password: 'password789' } })).body.token;
    const a = { 'xc-auth': token };
    expect(h2['xc-auth']).toBeString();

    const projectId = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Audit' } })).body.id;
    const invite = (email: string) => t.request('POST', '/admin', { headers: a, body: { email, roles: 'editor', project_id: projectId } });
    await invite('one@example.com');
    await invite('two@example.com');
    const members = (await t.request('GET', `/admin?project_id=${projectId}`, { headers: a })).body.list;
    const id = (email: string) => members.find((m: any) => m.email === email).id;
    await t.request('POST', `/admin/resendInvite/${id('one@example.com')}?project_id=${projectId}`, { headers: a });
    await t.request('PUT', `/admin/${id('one@example.com')}`, { headers: a, body: { roles: 'viewer', project_id: projectId } });
    await t.request('DELETE', `/admin/${id('one@example.com')}?project_id=${projectId}`, { headers: a });
    expect((await t.request('DELETE', `/admin/invite/${id('two@example.com')}?project_id=${projectId}`, { headers: a })).body).toEqual({ msg: 'The invite was revoked' });
    const tk = await dashboardOp(t, token, 'xcApiTokenCreate', { project_id: projectId, args: { description: 'CI' } });
    await dashboardOp(t, token, 'xcApiTokenUpdate', { project_id: projectId, args: { id: tk.body.id, enabled: false } });
    await dashboardOp(t, token, 'xcApiTokenDelete', { project_id: projectId, args: { id: tk.body.id } });

    const log = await t.request('GET', '/admin/audit?limit=500', { headers: a });
    expect(log.status).toBe(200);
    const lines = log.body.list.map((e: any) => `${e.opType} ${e.description}`).reverse();
    expect(lines).toEqual([
      'AUTHENTICATION signed up as Super Admin',
      `AUTHENTICATION failed sign-in: Invalid email or password`,
      'AUTHENTICATION signed in',
      'AUTHENTICATION password changed',
      'AUTHENTICATION password reset requested',
      'AUTHENTICATION password reset requested for an unknown or disabled account',
      'AUTHENTICATION password reset',
      'AUTHENTICATION signed in',
      'TEAM one@example.com invited as editor',
      'TEAM two@example.com invited as editor',
      'TEAM invite to one@example.com sent again',
      'TEAM one@example.com role changed from editor to viewer',
      'TEAM one@example.com removed from the project',
      'TEAM invite to two@example.com revoked',
      "TOKEN API token 'CI' created (editor)",
      "TOKEN API token 'CI' disabled",
      "TOKEN API token 'CI' deleted",
    ]);
    expect(log.body.pageInfo).toEqual({ totalRows: 17, limit: 500, offset: 0 });
    expect(log.body.list[0]).toMatchObject({ userEmail: admin.email, projectId });

    const team = await t.request('GET', '/admin/audit?op_type=TEAM&search=TWO@', { headers: a });
    expect(team.body.list.map((e: any) => e.description)).toEqual(['invite to two@example.com revoked', 'two@example.com invited as editor']);
    expect((await t.request('GET', '/admin/audit?search=100%25', { headers: a })).body.list).toEqual([]);
    expect((await t.request('GET', '/admin/audit?op_type=NOPE', { headers: a })).status).toBe(400);
    // App Store events have their kind too.
    expect((await t.request('GET', '/admin/audit?op_type=PLUGIN', { headers: a })).body.list).toEqual([]);
    expect((await t.request('GET', '/admin/audit?limit=0', { headers: a })).status).toBe(400);
    expect((await t.request('GET', '/admin/audit')).status).toBe(401);
    // The revoked invite held no other membership: its account is gone with it.
    expect(await t.app.ctx.meta.get("SELECT 1 FROM nc_users WHERE email = 'two@example.com'")).toBeUndefined();
  });

  test('sign-out is written like sign-in, by the session or by the refresh cookie alone', async () => {
    const t = await app();
    const admin = await signupSuperAdmin(t);
    const signin = async () => {
      const res = await t.request('POST', '/auth/signin', { body: { email: admin.email, password: admin.password } });
      return { token: res.body.token as string, cookie: res.headers.get('set-cookie')!.split(';')[0]! };
    };
    const one = await signin();
    expect((await t.request('POST', '/auth/signout', { headers: { 'xc-auth': one.token, cookie: one.cookie } })).status).toBe(200);
    const two = await signin();
    expect((await t.request('POST', '/auth/signout', { headers: { cookie: two.cookie } })).status).toBe(200);
    // Nobody behind the call (no session, a revoked cookie): nothing is written.
    expect((await t.request('POST', '/auth/signout', { headers: { cookie: two.cookie } })).status).toBe(200);
    expect((await t.request('POST', '/auth/signout')).status).toBe(200);
    const log = await t.request('GET', '/admin/audit?op_type=AUTHENTICATION&limit=50', { headers: { 'xc-auth': (await signin()).token } });
    expect(log.body.list.map((e: any) => `${e.description} ${e.userEmail}`).reverse()).toEqual([
      `signed up as Super Admin ${admin.email}`,
      `signed in ${admin.email}`,
      `signed out ${admin.email}`,
      `signed in ${admin.email}`,
      `signed out ${admin.email}`,
      `signed in ${admin.email}`,
    ]);
  });

  test('the search finds non-ASCII text in another case, a page at a time', async () => {
    const t = await app();
    const { token } = await signupSuperAdmin(t);
    const a = { 'xc-auth': token };
    const projectId = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Audit' } })).body.id;
    for (const description of ['Élodie ÖZTÜRK', 'Łódź', 'Plain']) expect((await dashboardOp(t, token, 'xcApiTokenCreate', { project_id: projectId, args: { description } })).status).toBe(200);
    const found = async (search: string, limit = 100) => {
      const res = await t.request('GET', `/admin/audit?search=${encodeURIComponent(search)}&limit=${limit}`, { headers: a });
      expect(res.status).toBe(200);
      return { search, found: res.body.list.map((e: any) => e.description), total: res.body.pageInfo.totalRows };
    };
    for (const search of ['élodie', 'ÉLODIE', 'Élodie', 'öztürk', 'die öz'])
      expect(await found(search)).toEqual({ search, found: ["API token 'Élodie ÖZTÜRK' created (editor)"], total: 1 });
    expect(await found('ŁÓDŹ')).toEqual({ search: 'ŁÓDŹ', found: ["API token 'Łódź' created (editor)"], total: 1 });
    // Paginated: one entry on the page, the count of all that match.
    expect(await found('API TOKEN', 1)).toEqual({ search: 'API TOKEN', found: ["API token 'Plain' created (editor)"], total: 3 });
  });

  test('only the Super Admin reads the audit log', async () => {
    const t = await makeTestApp({ allowSignup: true });
    apps.push(t);
    await signupSuperAdmin(t);
    const user = await t.request('POST', '/auth/signup', { body: { email: 'u@example.com', password: 'password123' } });
    expect((await t.request('GET', '/admin/audit', { headers: { 'xc-auth': user.body.token } })).body).toEqual({ msg: 'Only the Super Admin reads the audit log' });
  });
});
