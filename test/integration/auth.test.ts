/**
 * Auth flows over app.handle with a real metadata store: sign-up, sign-in, me, refresh rotation,
 * password change / forgot / reset, master key, auth type none, validation and rate limits.
 */
import { afterEach, describe, expect, spyOn, test } from 'bun:test';
import { SignJWT } from 'jose';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { LIMITS } from '../../src/config/limits';

let apps: TestApp[] = [];
async function app(overrides = {}) {
  const t = await makeTestApp(overrides);
  apps.push(t);
  return t;
}
afterEach(async () => {
  for (const t of apps) await t.close();
  apps = [];
});

const cookieOf = (res: { headers: Headers }) => res.headers.get('set-cookie')!.split(';')[0]!;

describe('auth type and abilities', () => {
  test('before and after the first user', async () => {
    const t = await app();
    const before = await t.request('GET', '/auth/type');
    expect(before.body).toMatchObject({ authType: 'jwt', firstUser: true, allowSignup: false, projectHasDb: true, projectHasAdmin: false, env: 'dev' });
    expect(before.body.version).toBeString();
    await signupSuperAdmin(t);
    const after = await t.request('GET', '/dashboard/auth/type');
    expect(after.body).toMatchObject({ firstUser: false, projectHasAdmin: true });
    const ui = await t.request('GET', '/ui_ability');
    expect(ui.body).toMatchObject({ maxTables: 99999, maxTabs: 99 });
  });
});

describe('sign-up', () => {
  test('the first user becomes Super Admin; later sign-ups need an invite', async () => {
    const t = await app();
    const { token } = await signupSuperAdmin(t);
    const me = await t.request('GET', '/user/me', { headers: { 'xc-auth': token } });
    expect(me.body).toMatchObject({ email: 'admin@example.com', roles: { super: true, user: true } });
    const second = await t.request('POST', '/auth/signup', { body: { email: 'two@example.com', password: 'password123' } });
    expect(second.status).toBe(403);
    expect(second.body.msg).toContain('invitation');
    // An e-mail with an account gets the same answer: sign-up does not tell who has one.
    const taken = await t.request('POST', '/auth/signup', { body: { email: 'Admin@example.com', password: 'password123' } });
    expect(taken).toMatchObject({ status: second.status, body: second.body });
  });

  test('open sign-up lets anyone in as a plain user', async () => {
    const t = await app({ allowSignup: true });
    await signupSuperAdmin(t);
    const second = await t.request('POST', '/auth/signup?tool=1', { body: { email: 'Two@Example.com', password: 'password123' } });
    expect(second.status).toBe(200);
    const me = await t.request('GET', '/user/me', { headers: { 'xc-auth': second.body.token } });
    expect(me.body).toMatchObject({ email: 'two@example.com', roles: { user: true } });
    expect(me.body.roles.super).toBeUndefined();
    const dup = await t.request('POST', '/auth/signup', { body: { email: 'two@example.com', password: 'password123' } });
    expect(dup.status).toBe(400);
  });

  test('an invited user signs up with the invite token', async () => {
    const t = await app();
    await signupSuperAdmin(t);
    const { sha256 } = await import('../../src/lib/ids');
    await t.app.ctx.meta.run(
      "INSERT INTO nc_users (id, email, roles, invite_token_hash, invite_expires_at, created_at, updated_at) VALUES ('us_inv', 'inv@example.com', 'user', ?, ?, 'x', 'x')",
      [sha256('invite-token-1'), new Date(Date.now() + 3600_000).toISOString()],
    );
    // The sign-up page shows the address the link was sent to.
    expect((await t.request('GET', '/auth/invite/invite-token-1')).body).toEqual({ email: 'inv@example.com' });
    const wrongMail = await t.request('POST', '/auth/signup', { body: { email: 'other@example.com', password: 'password123', token: 'invite-token-1' } });
    expect(wrongMail.status).toBe(400);
    const ok = await t.request('POST', '/auth/signup', { body: { email: 'inv@example.com', password: 'password123', token: 'invite-token-1' } });
    expect(ok.status).toBe(200);
    const again = await t.request('POST', '/auth/signup', { body: { email: 'inv@example.com', password: 'password123', token: 'invite-token-1' } });
    expect(again.status).toBe(400);
    // An invited account the Super Admin disabled before it joined takes no password and gets no session.
    await t.app.ctx.meta.run(
      "INSERT INTO nc_users (id, email, roles, disabled, invite_token_hash, invite_expires_at, created_at, updated_at) VALUES ('us_off', 'off@example.com', 'user', 1, ?, ?, 'x', 'x')",
      [sha256('invite-token-2'), new Date(Date.now() + 3600_000).toISOString()],
    );
    const off = await t.request('POST', '/auth/signup', { body: { email: 'off@example.com', password: 'password123', token: 'invite-token-2' } });
    expect(off).toMatchObject({ status: 403, body: { msg: 'This account is disabled' } });
    expect(off.body.token).toBeUndefined();
    // A used, expired or unknown link says so before anything is typed.
    for (const token of ['invite-token-1', 'no-such-token']) {
      expect(await t.request('GET', `/auth/invite/${token}`)).toMatchObject({ status: 400, body: { msg: 'This invite link is invalid or has expired' } });
    }
  });

  test('a refused sign-up is answered without hashing its password (anyone may call it, and a hash costs a CPU second)', async () => {
    const t = await app({ allowSignup: false });
    await signupSuperAdmin(t);
    const open = await app({ allowSignup: true });
    await signupSuperAdmin(open);
    // Watches Bun's hasher (the runtime's, not ours): each call still hashes.
    const hashes = spyOn(Bun.password, 'hash');
    try {
      const refused = [
        await t.request('POST', '/auth/signup', { body: { email: 'stranger@example.com', password: 'password123' } }),
        await t.request('POST', '/auth/signup', { body: { email: 'stranger@example.com', password: 'password123', token: 'no-such-invite' } }),
        await open.request('POST', '/auth/signup', { body: { email: 'admin@example.com', password: 'password123' } }),
      ];
      expect(refused.map((r) => r.status)).toEqual([403, 400, 400]);
      expect(hashes).toHaveBeenCalledTimes(0);
      expect((await open.request('POST', '/auth/signup', { body: { email: 'new@example.com', password: 'password123' } })).status).toBe(200);
      expect(hashes).toHaveBeenCalledTimes(1);
    } finally {
      hashes.mockRestore();
    }
  });

  test.each([
    [{}, 'E-mail is required'],
    [{ email: '', password: 'password123' }, 'E-mail is required'],
    [{ email: 'not-an-email', password: 'password123' }, 'E-mail must be valid'],
    [{ email: 'a@example.com' }, 'Password is required'],
    [{ email: 'a@example.com', password: '' }, 'Password is required'],
    [{ email: 'a@example.com', password: 'short' }, 'Your password must be at least 8 characters'],
  ])('validation: %j -> %s', async (body, msg) => {
    const t = await app();
    const res = await t.request('POST', '/auth/signup', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ msg });
  });
});

describe('sign-in and sessions', () => {
  test('wrong password and unknown user get the same answer; right password works', async () => {
    const t = await app();
    await signupSuperAdmin(t);
    const wrong = await t.request('POST', '/auth/signin', { body: { email: 'admin@example.com', password: 'wrongpassword' } });
    const unknown = await t.request('POST', '/auth/signin', { body: { email: 'nobody@example.com', password: 'wrongpassword' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ msg: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
    expect(unknown.body).toEqual(wrong.body);
    const ok = await t.request('POST', '/auth/signin', { body: { email: 'ADMIN@example.com', password: 'password123' } });
    expect(ok.status).toBe(200);
    expect(ok.body.token).toBeString();
    expect(ok.headers.get('set-cookie')).toMatch(/tablo_refresh=.+; Path=\/auth; HttpOnly; SameSite=Lax/);
    const rows = await t.app.ctx.meta.all<{ description: string }>("SELECT description FROM nc_audit WHERE op_type = 'AUTHENTICATION'");
    expect(rows.map((r) => r.description)).toEqual(expect.arrayContaining(['signed up as Super Admin', 'signed in']));
  });

  test('/user/me: guest gets {}, a bad or expired token 401', async () => {
    const t = await app();
    const { token } = await signupSuperAdmin(t);
    expect((await t.request('GET', '/user/me')).body).toEqual({});
    expect((await t.request('GET', '/user/me', { headers: { 'xc-auth': 'garbage' } })).status).toBe(401);
    const me = await t.request('GET', '/user/me', { headers: { 'xc-auth': token } });
    const expired = await new SignJWT({ email: 'admin@example.com', v: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(me.body.id)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(t.config.jwtSecret!));
    const res = await t.request('GET', '/user/me', { headers: { 'xc-auth': expired } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ msg: 'Token expired please login to continue', code: 'SESSION_EXPIRED' });
    const forged = await new SignJWT({ email: 'admin@example.com', v: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject(me.body.id).setExpirationTime('1h').sign(new TextEncoder().encode('another-secret-another-secret'));
    expect((await t.request('GET', '/user/me', { headers: { 'xc-auth': forged } })).status).toBe(401);
  });

  test('refresh tokens rotate, and reusing an old one ends the whole family', async () => {
    const t = await app();
    const signup = await t.request('POST', '/auth/signup', { body: { email: 'admin@example.com', password: 'password123' } });
    const first = cookieOf(signup);
    const r1 = await t.request('POST', '/auth/refresh-token', { headers: { cookie: first } });
    expect(r1.status).toBe(200);
    expect(r1.body.token).toBeString();
    const second = cookieOf(r1);
    expect(second).not.toBe(first);
    const third = cookieOf(await t.request('POST', '/auth/refresh-token', { headers: { cookie: second } }));
    // The old cookie again after its successor was used: reuse detected, the family (including `third`) is revoked.
    const reuse = await t.request('POST', '/auth/refresh-token', { headers: { cookie: first } });
    expect(reuse.status).toBe(401);
    expect(reuse.body.msg).toBe('Refresh token already used; all sessions of this sign-in were ended');
    expect((await t.request('POST', '/auth/refresh-token', { headers: { cookie: third } })).status).toBe(401);
    expect((await t.request('POST', '/auth/refresh-token')).status).toBe(401);
  });

  test('a refresh whose answer was lost can be sent again moments later; past the grace it is a stolen copy', async () => {
    const t = await app();
    const signup = await t.request('POST', '/auth/signup', { body: { email: 'admin@example.com', password: 'password123' } });
    const first = cookieOf(signup);
    // The rotation committed but its answer (the new cookie) never reached the browser: it sends `first` again.
    expect((await t.request('POST', '/auth/refresh-token', { headers: { cookie: first } })).status).toBe(200);
    const again = await t.request('POST', '/auth/refresh-token', { headers: { cookie: first } });
    expect(again.status).toBe(200);
    const kept = cookieOf(again);
    expect((await t.request('GET', '/user/me', { headers: { 'xc-auth': again.body.token } })).body.email).toBe('admin@example.com');
    // The session goes on from the new cookie.
    const next = await t.request('POST', '/auth/refresh-token', { headers: { cookie: kept } });
    expect(next.status).toBe(200);

    // A token rotated longer ago than the grace, whose successor is unused, is a copy: the sign-in ends.
    const later = cookieOf(next);
    const r = await t.request('POST', '/auth/refresh-token', { headers: { cookie: later } });
    expect(r.status).toBe(200);
    await t.app.ctx.meta.run('UPDATE nc_refresh_tokens SET revoked_at = ? WHERE revoked_at IS NOT NULL', [new Date(Date.now() - LIMITS.refreshRetryGraceMs - 1000).toISOString()]);
    const copy = await t.request('POST', '/auth/refresh-token', { headers: { cookie: later } });
    expect(copy.status).toBe(401);
    expect(copy.body.msg).toBe('Refresh token already used; all sessions of this sign-in were ended');
    expect((await t.request('POST', '/auth/refresh-token', { headers: { cookie: cookieOf(r) } })).status).toBe(401);
  });

  test("a session's refresh cookie after its sign-out or a password change is refused as ended, not taken for a stolen copy", async () => {
    const t = await app();
    const signup = await t.request('POST', '/auth/signup', { body: { email: 'admin@example.com', password: 'password123' } });
    const signedOut = cookieOf(await t.request('POST', '/auth/refresh-token', { headers: { cookie: cookieOf(signup) } }));
    expect((await t.request('POST', '/auth/signout', { headers: { cookie: signedOut } })).status).toBe(200);
    const afterSignout = await t.request('POST', '/auth/refresh-token', { headers: { cookie: signedOut } });
    expect(afterSignout.status).toBe(401);
    expect(afterSignout.body.msg).toBe('This session has ended: sign in again');

    // Another browser's session when the password is changed elsewhere.
    const other = await t.request('POST', '/auth/signin', { body: { email: 'admin@example.com', password: 'password123' } });
    const here = await t.request('POST', '/auth/signin', { body: { email: 'admin@example.com', password: 'password123' } });
    expect((await t.request('POST', '/user/password/change', { headers: { 'xc-auth': here.body.token }, body: { currentPassword: 'password123', newPassword: 'newpassword1' } })).status).toBe(200);
    const afterChange = await t.request('POST', '/auth/refresh-token', { headers: { cookie: cookieOf(other) } });
    expect(afterChange.status).toBe(401);
    expect(afterChange.body.msg).toBe('This session has ended: sign in again');
    // Neither was recorded as a refresh token used twice (it was: 'refresh token reused: sessions of that sign-in ended').
    const reused = await t.app.ctx.meta.all("SELECT description FROM nc_audit WHERE description LIKE 'refresh token reused%'");
    expect(reused).toEqual([]);
  });

  test('a signed-out token created in the same millisecond as the one it replaced is still refused as ended, not as a copy', async () => {
    const t = await app();
    const signup = await t.request('POST', '/auth/signup', { body: { email: 'admin@example.com', password: 'password123' } });
    const signedOut = cookieOf(await t.request('POST', '/auth/refresh-token', { headers: { cookie: cookieOf(signup) } }));
    // As on a fast machine: the first token and the one that replaced it share their creation time.
    await t.app.ctx.meta.run("UPDATE nc_refresh_tokens SET created_at = '2026-01-01T00:00:00.000Z'");
    expect((await t.request('POST', '/auth/signout', { headers: { cookie: signedOut } })).status).toBe(200);
    const after = await t.request('POST', '/auth/refresh-token', { headers: { cookie: signedOut } });
    expect(after.status).toBe(401);
    expect(after.body.msg).toBe('This session has ended: sign in again');
  });

  test('changing the password invalidates older tokens', async () => {
    const t = await app();
    const { token } = await signupSuperAdmin(t);
    const bad = await t.request('POST', '/user/password/change', { headers: { 'xc-auth': token }, body: { currentPassword: 'nope-nope', newPassword: 'newpassword1' } });
    expect(bad.status).toBe(400);
    const short = await t.request('POST', '/user/password/change', { headers: { 'xc-auth': token }, body: { currentPassword: 'password123', newPassword: 'short' } });
    expect(short.body).toEqual({ msg: 'Your password must be at least 8 characters' });
    const ok = await t.request('POST', '/user/password/change', { headers: { 'xc-auth': token }, body: { currentPassword: 'password123', newPassword: 'newpassword1' } });
    expect(ok.status).toBe(200);
    expect((await t.request('GET', '/user/me', { headers: { 'xc-auth': token } })).status).toBe(401);
    expect((await t.request('GET', '/user/me', { headers: { 'xc-auth': ok.body.token } })).body.email).toBe('admin@example.com');
    expect((await t.request('POST', '/user/password/change', { body: { currentPassword: 'x', newPassword: 'y' } })).status).toBe(401);
  });
});

describe('password reset', () => {
  test('forgot -> link in the log -> validate -> reset -> old password fails; one time only', async () => {
    const t = await app({ publicUrl: 'https://tablo.example.com' });
    await signupSuperAdmin(t);
    const unknown = await t.request('POST', '/auth/password/forgot', { body: { email: 'nobody@example.com' } });
    const known = await t.request('POST', '/auth/password/forgot', { body: { email: 'admin@example.com' } });
    expect(unknown.body).toEqual({ msg: 'Please check your email to reset the password' });
    expect(known.body).toEqual(unknown.body);
    const line = t.log.lines.find((l) => l.includes('password reset link'))!;
    expect(line).toContain('https://tablo.example.com/#/user/password/reset?token=');
    const token = line.split('token=')[1]!;
    expect((await t.request('GET', `/auth/token/validate/${token}`)).body).toBe(true);
    expect((await t.request('POST', `/auth/password/reset/${token}`, { body: { password: 'short' } })).body).toEqual({ msg: 'Your password must be at least 8 characters' });
    expect((await t.request('POST', `/auth/password/reset/${token}`, { body: { password: 'brandnew123' } })).status).toBe(200);
    expect((await t.request('POST', '/auth/signin', { body: { email: 'admin@example.com', password: 'password123' } })).status).toBe(400);
    expect((await t.request('POST', '/auth/signin', { body: { email: 'admin@example.com', password: 'brandnew123' } })).status).toBe(200);
    const reused = await t.request('POST', `/auth/password/reset/${token}`, { body: { password: 'another123' } });
    expect(reused.status).toBe(400);
    expect((await t.request('GET', `/auth/token/validate/${token}`)).status).toBe(400);
    expect(t.log.lines.join('\n')).not.toContain('brandnew123');
  });

  test('a new password ends every other reset link of the account (reset with one link, or a password change)', async () => {
    const t = await app();
    await signupSuperAdmin(t);
    const links = async () => {
      await t.request('POST', '/auth/password/forgot', { body: { email: 'admin@example.com' } });
      return t.log.lines.filter((l) => l.includes('password reset link')).map((l) => l.split('token=')[1]!);
    };
    await links();
    const [first, second] = await links();
    expect((await t.request('POST', `/auth/password/reset/${first}`, { body: { password: 'brandnew123' } })).status).toBe(200);
    const other = await t.request('POST', `/auth/password/reset/${second}`, { body: { password: 'hijacked123' } });
    expect(other.status).toBe(400);
    expect(other.body.msg).toContain('invalid or has expired');
    expect((await t.request('POST', '/auth/signin', { body: { email: 'admin@example.com', password: 'brandnew123' } })).status).toBe(200);

    const third = (await links()).at(-1)!;
    const signedIn = await t.request('POST', '/auth/signin', { body: { email: 'admin@example.com', password: 'brandnew123' } });
    const changed = await t.request('POST', '/user/password/change', { body: { currentPassword: 'brandnew123', newPassword: 'changed1234' }, headers: { 'xc-auth': signedIn.body.token } });
    expect(changed.status).toBe(200);
    expect((await t.request('GET', `/auth/token/validate/${third}`)).status).toBe(400);
    expect((await t.request('POST', `/auth/password/reset/${third}`, { body: { password: 'hijacked123' } })).status).toBe(400);
  });

  test('a reset with a link that is not valid is refused before the new password is hashed', async () => {
    const t = await app();
    await signupSuperAdmin(t);
    // Watches Bun's hasher (the runtime's, not ours).
    const hashes = spyOn(Bun.password, 'hash');
    try {
      const res = await t.request('POST', '/auth/password/reset/no-such-link', { body: { password: 'password999' } });
      expect(res.body).toMatchObject({ msg: 'This password reset link is invalid or has expired' });
      expect(hashes).toHaveBeenCalledTimes(0);
    } finally {
      hashes.mockRestore();
    }
  });

  test('an expired reset token is refused', async () => {
    const t = await app();
    await signupSuperAdmin(t);
    await t.request('POST', '/auth/password/forgot', { body: { email: 'admin@example.com' } });
    const token = t.log.lines.find((l) => l.includes('password reset link'))!.split('token=')[1]!;
    await t.app.ctx.meta.run('UPDATE nc_password_resets SET expires_at = ?', [new Date(Date.now() - 1000).toISOString()]);
    const res = await t.request('POST', `/auth/password/reset/${token}`, { body: { password: 'brandnew123' } });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('invalid or has expired');
  });
});

describe('rate limits', () => {
  test('failed sign-ins on one account slow unknown clients down (429 with the reset path), never the known client', async () => {
    const t = await app();
    await signupSuperAdmin(t);
    // A client that signed in before holds the known-device cookie of this account.
    const known = await t.request('POST', '/auth/signin', { body: { email: 'admin@example.com', password: 'password123' } });
    const knownCookie = known.headers.getSetCookie().find((c) => c.startsWith('tablo_known='))!.split(';')[0]!;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await t.request('POST', '/auth/signin', { body: { email: 'admin@example.com', password: 'wrongpassword' }, headers: { 'x-forwarded-for': `10.0.0.${i}` } })).status);
    }
    // Five free failures, the sixth starts a back-off: the next attempt comes too early.
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 429]);
    const limited = await t.request('POST', '/auth/signin', { body: { email: 'admin@example.com', password: 'password123' }, headers: { 'x-forwarded-for': '10.0.1.1' } });
    expect(limited.status).toBe(429);
    expect(limited.body.msg).toContain('reset your password');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    const fromKnown = await t.request('POST', '/auth/signin', { body: { email: 'admin@example.com', password: 'password123' }, headers: { cookie: knownCookie } });
    expect(fromKnown.status).toBe(200);
  });
  test('guesses at the current password of a password change are limited: a session alone does not take the account over', async () => {
    const t = await app();
    const { token } = await signupSuperAdmin(t);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await t.request('POST', '/user/password/change', { headers: { 'xc-auth': token }, body: { currentPassword: `guess-${i}-xx`, newPassword: 'taken-over-1' } });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(10).fill(400), 429]);
    const right = await t.request('POST', '/user/password/change', { headers: { 'xc-auth': token }, body: { currentPassword: 'password123', newPassword: 'taken-over-1' } });
    expect(right.status).toBe(429);
    expect((await t.request('POST', '/auth/signin', { body: { email: 'admin@example.com', password: 'password123' } })).status).toBe(200);
  });

  test('password reset requests are limited per IP', async () => {
    const t = await app();
    let last = 0;
    for (let i = 0; i < 11; i++) last = (await t.request('POST', '/auth/password/forgot', { body: { email: `u${i}@example.com` }, headers: { 'x-forwarded-for': '10.9.9.9' } })).status;
    expect(last).toBe(429);
  });
});

describe('other auth types', () => {
  test('master key mode', async () => {
    const t = await app({ adminSecret: 'master-secret-1' });
    expect((await t.request('GET', '/auth/type')).body.authType).toBe('masterKey');
    expect((await t.request('POST', '/auth/admin/verify', { body: { secret: 'wrong' } })).status).toBe(401);
    expect((await t.request('POST', '/auth/admin/verify', { body: { secret: 'master-secret-1' } })).status).toBe(200);
    expect((await t.request('GET', '/user/me', { headers: { 'xc-master-key': 'wrong' } })).status).toBe(401);
    const me = await t.request('GET', '/user/me', { headers: { 'xc-master-key': 'master-secret-1' } });
    expect(me.body.roles.super).toBe(true);
    const list = await t.request('POST', '/dashboard?q=sqlOp_PROJECT_READ_BY_WEB', { body: { api: 'PROJECT_READ_BY_WEB' }, headers: { 'xc-master-key': 'master-secret-1' } });
    expect(list.status).toBe(200);
  });
  test('wrong master keys are limited per address like sign-ins: past ten, even the right key waits', async () => {
    const t = await app({ adminSecret: 'master-secret-1' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await t.request('POST', '/auth/admin/verify', { body: { secret: `guess-${i}` } })).status);
    for (let i = 5; i < 10; i++) statuses.push((await t.request('GET', '/user/me', { headers: { 'xc-master-key': `guess-${i}` } })).status);
    expect(statuses).toEqual(Array(10).fill(401));
    const right = await t.request('GET', '/user/me', { headers: { 'xc-master-key': 'master-secret-1' } });
    expect(right.status).toBe(429);
    expect(right.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await t.request('POST', '/auth/admin/verify', { body: { secret: 'master-secret-1' } })).status).toBe(429);
  });

  test('auth type none treats every caller as an administrator', async () => {
    const t = await app({ authType: 'none' });
    const list = await t.request('POST', '/dashboard?q=sqlOp_PROJECT_READ_BY_WEB', { body: { api: 'PROJECT_READ_BY_WEB' } });
    expect(list.status).toBe(200);
  });
});

describe('error edge', () => {
  test('unknown routes, bodies over the limit and broken JSON', async () => {
    const t = await app();
    expect((await t.request('GET', '/no/such/route')).body).toEqual({ msg: 'Not found', code: 'NOT_FOUND' });
    const big = await t.app.handle(new Request('http://localhost/auth/signin', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) }, body: '{}' }));
    expect(big.status).toBe(413);
    const broken = await t.request('POST', '/auth/signin', { body: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(broken.body.msg).toBeString();
    expect(broken.text).not.toContain('at ');
  });
});
