/**
 * Team and tokens: invites (link, sign-up with it, resend), role changes and removal rules, API
 * tokens (shown once, hashed, xc-token and Bearer, disable, expiry, delete), and a role x operation
 * access matrix through REST and GraphQL on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines, dropDatabase, loadChinook, type TestEngine } from '../helpers/engines';
import { MSG_LINK_NOT_SHOWN } from '../../src/api/team/routes';

let t: TestApp;
let owner: string;
beforeAll(async () => {
  t = await makeTestApp();
  owner = (await signupSuperAdmin(t, 'owner@example.com')).token;
});
afterAll(async () => t.close());

const auth = (token: string) => ({ 'xc-auth': token });

/** Invites `email` with `roles` and signs them up through the link; answers their session token. */
async function join_(projectId: string, email: string, roles: string): Promise<string> {
  const invite = await t.request('POST', '/admin', { headers: auth(owner), body: { email, roles, project_id: projectId } });
  expect(invite.status).toBe(200);
  const token = String(invite.body.invite_url).split('/signup/')[1]!;
  const signup = await t.request('POST', '/auth/signup', { body: { email, password: 'password123', token } });
  expect(signup.status).toBe(200);
  return signup.body.token;
}

describe('team', () => {
  let projectId = '';
  beforeAll(async () => {
    projectId = (await dashboardOp(t, owner, 'projectCreateByWeb', { args: { title: 'Team project' } })).body.id;
  });

  test('an invite answers a 24 h link, is logged, listed as invited, and joins the person', async () => {
    const res = await t.request('POST', '/admin', { headers: auth(owner), body: { email: 'Viewer@Example.com', roles: 'viewer', project_id: projectId } });
    expect(res.body.invite_url).toMatch(/#\/user\/authentication\/signup\/[\w-]+$/);
    expect(t.log.lines.some((l) => l.includes('invite link for viewer@example.com'))).toBe(true);
    const list = await t.request('GET', `/admin?project_id=${projectId}`, { headers: auth(owner) });
    expect(list.body.list).toContainEqual(expect.objectContaining({ email: 'viewer@example.com', roles: 'viewer', status: 'invited' }));
    const again = await t.request('POST', '/admin', { headers: auth(owner), body: { email: 'viewer@example.com', roles: 'viewer', project_id: projectId } });
    expect(again.status).toBe(400);
    const token = String(res.body.invite_url).split('/signup/')[1]!;
    const signup = await t.request('POST', '/auth/signup', { body: { email: 'viewer@example.com', password: 'password123', token } });
    expect(signup.status).toBe(200);
    const me = await t.request('GET', `/user/me?project_id=${projectId}`, { headers: auth(signup.body.token) });
    expect(me.body.roles).toMatchObject({ viewer: true, user: true });
    const audit = await t.app.ctx.meta.all<{ description: string }>("SELECT description FROM nc_audit WHERE op_type = 'TEAM'");
    expect(audit.map((a) => a.description)).toContain('viewer@example.com invited as viewer');
  });

  test('without NC_PUBLIC_URL the invite link starts with the address the owner reached Tablo at, not localhost', async () => {
    const res = await t.app.handle(
      new Request('http://tablo.internal:8080/admin', {
        method: 'POST',
        headers: { ...auth(owner), 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'elsewhere@example.com', roles: 'viewer', project_id: projectId }),
      }),
    );
    expect(res.status).toBe(200);
    expect((await res.json()).invite_url).toMatch(/^http:\/\/tablo\.internal:8080\/#\/user\/authentication\/signup\/[\w-]+$/);
  });

  test('resending an invite replaces the link', async () => {
    const first = await t.request('POST', '/admin', { headers: auth(owner), body: { email: 'late@example.com', roles: 'editor', project_id: projectId } });
    const users = await t.request('GET', `/admin?project_id=${projectId}`, { headers: auth(owner) });
    const late = users.body.list.find((u: any) => u.email === 'late@example.com');
    const second = await t.request('POST', `/admin/resendInvite/${late.id}?project_id=${projectId}`, { headers: auth(owner) });
    expect(second.status).toBe(200);
    const oldToken = String(first.body.invite_url).split('/signup/')[1]!;
    expect((await t.request('POST', '/auth/signup', { body: { email: 'late@example.com', password: 'password123', token: oldToken } })).status).toBe(400);
    const newToken = String(second.body.invite_url).split('/signup/')[1]!;
    expect((await t.request('POST', '/auth/signup', { body: { email: 'late@example.com', password: 'password123', token: newToken } })).status).toBe(200);
    expect((await t.request('POST', `/admin/resendInvite/${late.id}?project_id=${projectId}`, { headers: auth(owner) })).status).toBe(400);
  });

  test('an invite to a second project leaves the first mailed link working', async () => {
    const second = (await dashboardOp(t, owner, 'projectCreateByWeb', { args: { title: 'Second project' } })).body.id;
    const invite = (pid: string, roles: string) => t.request('POST', '/admin', { headers: auth(owner), body: { email: 'two-links@example.com', roles, project_id: pid } });
    const tokenOf = (res: { body: any }) => String(res.body.invite_url).split('/signup/')[1]!;
    const first = tokenOf(await invite(projectId, 'editor'));
    const next = tokenOf(await invite(second, 'viewer'));
    expect(first).not.toBe(next);
    for (const token of [first, next]) expect((await t.request('GET', `/auth/invite/${token}`)).body).toEqual({ email: 'two-links@example.com' });
    // The first link joins both projects; then no link works any more.
    const signup = await t.request('POST', '/auth/signup', { body: { email: 'two-links@example.com', password: 'password123', token: first } });
    expect(signup.status).toBe(200);
    expect((await t.request('GET', `/user/me?project_id=${second}`, { headers: auth(signup.body.token) })).body.roles).toMatchObject({ viewer: true });
    for (const token of [first, next]) expect((await t.request('GET', `/auth/invite/${token}`)).status).toBe(400);
  });

  test("the owner of another project is not shown the sign-up link of someone invited elsewhere (it would take over their invite)", async () => {
    const theirs = (await dashboardOp(t, owner, 'projectCreateByWeb', { args: { title: 'Mallory project' } })).body.id;
    const mallory = await join_(theirs, 'mallory@example.com', 'owner');
    // Carol is invited as owner here and has not signed up yet.
    await t.request('POST', '/admin', { headers: auth(owner), body: { email: 'carol@example.com', roles: 'owner', project_id: projectId } });
    const invite = await t.request('POST', '/admin', { headers: auth(mallory), body: { email: 'carol@example.com', roles: 'viewer', project_id: theirs } });
    expect(invite.status).toBe(200);
    expect(invite.body).toEqual({ msg: MSG_LINK_NOT_SHOWN, email: 'carol@example.com' });
    const carol = (await t.request('GET', `/admin?project_id=${theirs}`, { headers: auth(mallory) })).body.list.find((u: any) => u.email === 'carol@example.com');
    const resent = await t.request('POST', `/admin/resendInvite/${carol.id}?project_id=${theirs}`, { headers: auth(mallory) });
    expect(resent.body).toEqual({ msg: MSG_LINK_NOT_SHOWN });
    // The link went to the server log, where the administrator finds it; with it Carol joins both projects.
    const logged = t.log.lines.filter((l) => l.includes('invite link for carol@example.com')).at(-1)!;
    const token = logged.split('/signup/')[1]!.trim();
    const signup = await t.request('POST', '/auth/signup', { body: { email: 'carol@example.com', password: 'password123', token } });
    expect(signup.status).toBe(200);
    expect((await t.request('GET', `/user/me?project_id=${projectId}`, { headers: auth(signup.body.token) })).body.roles).toMatchObject({ owner: true });
    // Someone invited to this project only: its manager is shown the link, as before.
    const alone = await t.request('POST', '/admin', { headers: auth(mallory), body: { email: 'dave@example.com', roles: 'viewer', project_id: theirs } });
    expect(alone.body.invite_url).toContain('/signup/');
  });

  test('revoking an invite ends its link and the membership; joined members are removed instead', async () => {
    const other = (await dashboardOp(t, owner, 'projectCreateByWeb', { args: { title: 'Other project' } })).body.id;
    const invite = (email: string, pid: string) => t.request('POST', '/admin', { headers: auth(owner), body: { email, roles: 'editor', project_id: pid } });
    const first = await invite('gone@example.com', projectId);
    await invite('twice@example.com', projectId);
    const twiceOther = await invite('twice@example.com', other);
    const members = (await t.request('GET', `/admin?project_id=${projectId}`, { headers: auth(owner) })).body.list;
    const id = (email: string) => members.find((m: any) => m.email === email).id;
    const editorToken = await join_(projectId, 'revoker@example.com', 'editor');
    expect((await t.request('DELETE', `/admin/invite/${id('gone@example.com')}?project_id=${projectId}`, { headers: auth(editorToken) })).status).toBe(403);
    expect((await t.request('DELETE', `/admin/invite/${id('gone@example.com')}?project_id=${projectId}`, { headers: auth(owner) })).body).toEqual({ msg: 'The invite was revoked' });
    const token = String(first.body.invite_url).split('/signup/')[1]!;
    expect((await t.request('POST', '/auth/signup', { body: { email: 'gone@example.com', password: 'password123', token } })).status).toBe(400);
    expect((await t.request('DELETE', `/admin/invite/${id('gone@example.com')}?project_id=${projectId}`, { headers: auth(owner) })).status).toBe(404);
    // Invited to two projects: revoking one keeps the other membership, whose link is sent again.
    await t.request('DELETE', `/admin/invite/${id('twice@example.com')}?project_id=${projectId}`, { headers: auth(owner) });
    const otherList = (await t.request('GET', `/admin?project_id=${other}`, { headers: auth(owner) })).body.list;
    expect(otherList).toContainEqual(expect.objectContaining({ email: 'twice@example.com', status: 'invite expired' }));
    expect(twiceOther.body.invite_url).toBeString();
    const resent = await t.request('POST', `/admin/resendInvite/${id('twice@example.com')}?project_id=${other}`, { headers: auth(owner) });
    expect(resent.status).toBe(200);
    const viewer = (await t.request('GET', `/admin?project_id=${projectId}`, { headers: auth(owner) })).body.list.find((m: any) => m.email === 'viewer@example.com');
    expect((await t.request('DELETE', `/admin/invite/${viewer.id}?project_id=${projectId}`, { headers: auth(owner) })).body).toEqual({ msg: 'viewer@example.com has already joined: remove the member instead' });
  });

  // A body without project_id or roles answered zod's 'Invalid input: expected string, received undefined'.
  test('an invite or role change without project_id or roles says which is missing', async () => {
    const h = auth(owner);
    expect((await t.request('POST', '/admin', { headers: h, body: { email: 'someone@example.com', roles: 'editor' } })).body).toEqual({ msg: 'project_id is required' });
    expect((await t.request('POST', '/admin', { headers: h, body: { email: 'someone@example.com', project_id: projectId } })).body).toEqual({ msg: 'At least one role is required' });
    expect((await t.request('PUT', '/admin/us_nobody', { headers: h, body: { roles: 'viewer' } })).body).toEqual({ msg: 'project_id is required' });
  });

  test('roles change; only owners grant owner; owners cannot remove themselves', async () => {
    const creatorToken = await join_(projectId, 'creator@example.com', 'creator');
    const editorToken = await join_(projectId, 'editor@example.com', 'editor');
    const list = (await t.request('GET', `/admin?project_id=${projectId}`, { headers: auth(owner) })).body.list;
    const id = (email: string) => list.find((u: any) => u.email === email).id;
    expect((await t.request('PUT', `/admin/${id('editor@example.com')}`, { headers: auth(creatorToken), body: { roles: 'owner', project_id: projectId } })).status).toBe(403);
    expect((await t.request('PUT', `/admin/${id('editor@example.com')}`, { headers: auth(creatorToken), body: { roles: 'commenter', project_id: projectId } })).status).toBe(200);
    expect((await t.request('GET', `/admin?project_id=${projectId}`, { headers: auth(editorToken) })).status).toBe(403);
    expect((await t.request('PUT', `/admin/${id('editor@example.com')}`, { headers: auth(owner), body: { roles: 'boss', project_id: projectId } })).status).toBe(400);
    const self = await t.request('DELETE', `/admin/${id('owner@example.com')}?project_id=${projectId}`, { headers: auth(owner) });
    expect(self.body).toEqual({ msg: 'Owners cannot remove themselves from a project' });
    expect((await t.request('DELETE', `/admin/${id('owner@example.com')}?project_id=${projectId}`, { headers: auth(creatorToken) })).status).toBe(403);
    expect((await t.request('DELETE', `/admin/${id('editor@example.com')}?project_id=${projectId}`, { headers: auth(owner) })).status).toBe(200);
    expect((await dashboardOp(t, editorToken, 'tableList', { project_id: projectId })).status).toBe(403);
  });

  test('the last owner who has joined can be neither demoted nor removed, by themselves or the Super Admin', async () => {
    const pid = (await dashboardOp(t, owner, 'projectCreateByWeb', { args: { title: 'One owner' } })).body.id;
    const members = async () => (await t.request('GET', `/admin?project_id=${pid}`, { headers: auth(owner) })).body.list as any[];
    const ownerId = (await members()).find((m) => m.email === 'owner@example.com').id;
    const lastOwner = { msg: 'A project needs at least one owner: make another member owner first' };
    // An owner invited but not yet joined does not count.
    await t.request('POST', '/admin', { headers: auth(owner), body: { email: 'pending-owner@example.com', roles: 'owner', project_id: pid } });
    expect((await t.request('PUT', `/admin/${ownerId}`, { headers: auth(owner), body: { roles: 'viewer', project_id: pid } })).body).toEqual(lastOwner);
    // A second owner who has joined can be removed; the one left cannot.
    const coToken = await join_(pid, 'co-owner@example.com', 'owner');
    const coId = (await members()).find((m) => m.email === 'co-owner@example.com').id;
    expect((await t.request('DELETE', `/admin/${coId}?project_id=${pid}`, { headers: auth(owner) })).status).toBe(200);
    expect((await t.request('DELETE', `/admin/${ownerId}?project_id=${pid}`, { headers: auth(coToken) })).status).toBe(403);
    // Then demoting oneself is refused and the role stays; with another owner it is allowed.
    expect((await t.request('PUT', `/admin/${ownerId}`, { headers: auth(owner), body: { roles: 'editor', project_id: pid } })).status).toBe(400);
    expect((await members()).find((m) => m.email === 'owner@example.com').roles).toBe('owner');
    const second = await join_(pid, 'second-owner@example.com', 'owner');
    expect(second).toBeString();
    const secondId = (await members()).find((m) => m.email === 'second-owner@example.com').id;
    expect((await t.request('PUT', `/admin/${ownerId}`, { headers: auth(owner), body: { roles: 'editor', project_id: pid } })).status).toBe(200);
    // The Super Admin (now an editor here) may not take the last owner away either.
    expect((await t.request('DELETE', `/admin/${secondId}?project_id=${pid}`, { headers: auth(owner) })).body).toEqual(lastOwner);
    expect((await t.request('PUT', `/admin/${secondId}`, { headers: auth(owner), body: { roles: 'viewer', project_id: pid } })).body).toEqual(lastOwner);
  });
});

describe('API tokens', () => {
  test('shown once, stored hashed, used as xc-token or Bearer with their role; disabled, expired and deleted tokens are refused', async () => {
    const projectId = (await dashboardOp(t, owner, 'projectCreateByWeb', { args: { title: 'Tokens' } })).body.id;
    const created = await dashboardOp(t, owner, 'xcApiTokenCreate', { project_id: projectId, args: { description: 'CI', role: 'viewer' } });
    expect(created.body.token).toStartWith('tablo_');
    const stored = await t.app.ctx.meta.get<{ token_hash: string }>('SELECT token_hash FROM nc_api_tokens WHERE id = ?', [created.body.id]);
    expect(stored!.token_hash).not.toContain(created.body.token);
    const list = await dashboardOp(t, owner, 'xcApiTokenList', { project_id: projectId });
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
    expect(list.body.data.list[0]).toMatchObject({ description: 'CI', role: 'viewer', enabled: true });

    const info = (headers: Record<string, string>) => t.request('GET', `/nc/${projectId}/projectApiInfo`, { headers });
    expect((await info({ 'xc-token': created.body.token })).status).toBe(200);
    expect((await info({ authorization: `Bearer ${created.body.token}` })).status).toBe(200);
    expect((await info({ 'xc-token': 'tablo_wrong' })).status).toBe(401);
    // A viewer token reads but does not manage the project.
    expect((await dashboardOp(t, null, 'projectDelete', { project_id: projectId, headers: { 'xc-token': created.body.token } })).status).toBe(403);

    await dashboardOp(t, owner, 'xcApiTokenUpdate', { project_id: projectId, args: { id: created.body.id, enabled: false } });
    expect((await info({ 'xc-token': created.body.token })).status).toBe(401);
    await dashboardOp(t, owner, 'xcApiTokenUpdate', { project_id: projectId, args: { id: created.body.id, enabled: true } });
    await t.app.ctx.meta.run('UPDATE nc_api_tokens SET expires_at = ? WHERE id = ?', [new Date(Date.now() - 1000).toISOString(), created.body.id]);
    expect((await info({ 'xc-token': created.body.token })).body).toEqual({ msg: 'API token expired' });
    await dashboardOp(t, owner, 'xcApiTokenDelete', { project_id: projectId, args: { id: created.body.id } });
    expect((await info({ 'xc-token': created.body.token })).status).toBe(401);
    expect((await dashboardOp(t, owner, 'xcApiTokenCreate', { project_id: projectId, args: { description: 'old', expiresAt: '2001-01-01' } })).status).toBe(400);
    // A role or expiry that does not fit says what fits (they read 'Invalid option: expected one of ...' and 'Invalid input').
    const bad = async (args: Record<string, unknown>) => (await dashboardOp(t, owner, 'xcApiTokenCreate', { project_id: projectId, args: { description: 'x', ...args } })).body;
    expect(await bad({ role: 'guest' })).toEqual({ msg: 'The role is owner, creator, editor, commenter or viewer' });
    expect(await bad({ expiresAt: 'tomorrow' })).toEqual({ msg: 'expiresAt: The expiry is a date (2030-12-31) or a date and time with its offset (2030-12-31T18:00:00Z)' });
    expect((await dashboardOp(t, owner, 'xcApiTokenCreate', { project_id: projectId, args: { description: 'dated', expiresAt: '2099-01-01T10:00:00+02:00' } })).body.expiresAt).toBe('2099-01-01T08:00:00.000Z');
    const audit = await t.app.ctx.meta.all<{ description: string }>("SELECT description FROM nc_audit WHERE op_type = 'TOKEN'");
    expect(audit.map((a) => a.description)).toEqual(expect.arrayContaining(["API token 'CI' created (viewer)", "API token 'CI' disabled", "API token 'CI' deleted"]));
  });
});

const MATRIX: Record<string, Record<string, boolean>> = {
  owner: { list: true, read: true, create: true, update: true, delete: true, invite: true },
  creator: { list: true, read: true, create: true, update: true, delete: true, invite: true },
  editor: { list: true, read: true, create: true, update: true, delete: true, invite: false },
  commenter: { list: true, read: true, create: false, update: false, delete: false, invite: false },
  viewer: { list: true, read: true, create: false, update: false, delete: false, invite: false },
};

describeEngines(
  'access matrix',
  (engine: TestEngine) => {
    const dbName = `tablo_t_team_${engine}`;
    let projectId = '';
    const tokens: Record<string, string> = {};
    beforeAll(async () => {
      const cfg = await loadChinook(engine, dbName);
      let connection = cfg.connection as Record<string, unknown>;
      if (engine === 'sqlite') {
        await Bun.write(join(t.dataDir, 'team.sqlite'), Bun.file(cfg.connection.filename!));
        connection = { filename: 'team.sqlite' };
      }
      projectId = (await dashboardOp(t, owner, 'projectCreateByWeb', { args: { title: `Matrix ${engine}`, db: { client: engine, connection } } })).body.id;
      tokens.owner = owner;
      for (const role of ['creator', 'editor', 'commenter', 'viewer']) tokens[role] = await join_(projectId, `${role}.${engine}@example.com`, role);
    });
    afterAll(async () => dropDatabase(engine, dbName));

    for (const [role, allowed] of Object.entries(MATRIX)) {
      test(`${role}: REST and GraphQL rights`, async () => {
        const h = auth(tokens[role]!);
        const base = `/nc/${projectId}/api/v1`;
        const id = 900 + Object.keys(MATRIX).indexOf(role);
        const expectAllowed = (status: number, ok: boolean, what: string) => expect(`${what} ${status}`).toBe(`${what} ${ok ? 200 : 403}`);
        expectAllowed((await t.request('GET', `${base}/Genre?limit=1`, { headers: h })).status, allowed.list!, 'list');
        expectAllowed((await t.request('GET', `${base}/Genre/1`, { headers: h })).status, allowed.read!, 'read');
        expectAllowed((await t.request('POST', `${base}/Genre`, { headers: h, body: { GenreId: id, Name: role } })).status, allowed.create!, 'create');
        expectAllowed((await t.request('PUT', `${base}/Genre/1`, { headers: h, body: { Name: 'Rock' } })).status, allowed.update!, 'update');
        expectAllowed((await t.request('DELETE', `${base}/Genre/${allowed.create ? id : 25}`, { headers: h })).status, allowed.delete!, 'delete');
        expectAllowed((await t.request('POST', '/admin', { headers: h, body: { email: `new.${role}.${engine}@example.com`, roles: 'viewer', project_id: projectId } })).status, allowed.invite!, 'invite');
        const gql = await t.request('POST', `/nc/${projectId}/v1/graphql`, { headers: h, body: { query: `mutation { GenreUpdate(id: "1", data: { Name: "Rock" }) { Name } }` } });
        if (allowed.update) expect(gql.body.data.GenreUpdate).toEqual({ Name: 'Rock' });
        else expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
        const gqlRead = await t.request('POST', `/nc/${projectId}/v1/graphql`, { headers: h, body: { query: '{ GenreList(limit: 1) { GenreId } }' } });
        expect(gqlRead.body.data.GenreList).toEqual([{ GenreId: 1 }]);
      });
    }

    test('a signed-in stranger is refused, a guest must sign in', async () => {
      const stranger = await t.app.ctx.meta.get<{ n: number }>('SELECT COUNT(*) AS n FROM nc_users');
      expect(stranger!.n).toBeGreaterThan(0);
      expect((await t.request('GET', `/nc/${projectId}/api/v1/Genre`)).status).toBe(401);
    });
  },
  ['sqlite', 'pg'],
);

describe('Super Admin user management', () => {
  test('disabling a user ends their sign-ins for good: enabled again, they sign in anew', async () => {
    const t2 = await makeTestApp({ allowSignup: true });
    try {
      const admin = (await signupSuperAdmin(t2, 'root@example.com')).token;
      const ann = await t2.request('POST', '/auth/signup', { body: { email: 'ann@example.com', password: 'password123' } });
      const cookie = (ann.headers.get('set-cookie') ?? '').split(';')[0]!;
      const annId = (await t2.request('GET', '/user/me', { headers: auth(ann.body.token) })).body.id;
      await t2.request('PUT', `/admin/users/${annId}`, { headers: auth(admin), body: { disabled: true } });
      // The account was disabled because a session was stolen, say: enabling it again must not revive that session.
      await t2.request('PUT', `/admin/users/${annId}`, { headers: auth(admin), body: { disabled: false } });
      expect((await t2.request('POST', '/auth/refresh-token', { headers: { cookie } })).status).toBe(401);
      expect((await t2.request('POST', '/auth/signin', { body: { email: 'ann@example.com', password: 'password123' } })).status).toBe(200);
    } finally {
      await t2.close();
    }
  });

  test('every user keeps a global role, and the last Super Admin who may sign in keeps the role and the account', async () => {
    const t2 = await makeTestApp({ allowSignup: true, adminSecret: 'master-secret-1' });
    try {
      await signupSuperAdmin(t2, 'root@example.com');
      await t2.request('POST', '/auth/signup', { body: { email: 'ann@example.com', password: 'password123' } });
      const master = { 'xc-master-key': 'master-secret-1' };
      const ids = Object.fromEntries((await t2.request('GET', '/admin/users', { headers: master })).body.list.map((u: { email: string; id: string }) => [u.email, u.id]));
      const put = async (email: string, body: unknown) => {
        const res = await t2.request('PUT', `/admin/users/${ids[email]}`, { headers: master, body });
        return { status: res.status, body: res.body };
      };
      const rolesOf = async (email: string) => (await t2.request('GET', `/admin/users/${ids[email]}`, { headers: master })).body.roles;
      expect(await put('ann@example.com', { roles: [] })).toEqual({ status: 400, body: { msg: 'Every user keeps a global role: super (Super Admin) or user' } });
      expect(await rolesOf('ann@example.com')).toEqual(['user']);
      // The master key edits anyone, but not the only Super Admin out of the role or the product.
      expect(await put('root@example.com', { roles: ['user'] })).toEqual({ status: 400, body: { msg: 'The last Super Admin cannot lose the Super Admin role' } });
      expect(await put('root@example.com', { disabled: true })).toEqual({ status: 400, body: { msg: 'The last Super Admin cannot be disabled' } });
      expect(await rolesOf('root@example.com')).toContain('super');
      // With a second Super Admin, the first may be demoted; the second then is the last.
      expect((await put('ann@example.com', { roles: ['user', 'super'] })).status).toBe(200);
      expect((await put('root@example.com', { roles: ['user'] })).body).toMatchObject({ roles: ['user'] });
      expect((await put('ann@example.com', { roles: ['user'] })).status).toBe(400);
      // A disabled Super Admin does not count: the one who may sign in stays.
      expect((await put('root@example.com', { roles: ['user', 'super'], disabled: true })).status).toBe(200);
      expect((await put('ann@example.com', { disabled: true })).body).toEqual({ msg: 'The last Super Admin cannot be disabled' });
    } finally {
      await t2.close();
    }
  });

  test('list and search users, change global roles, disable a user; only the Super Admin may', async () => {
    const t2 = await makeTestApp({ allowSignup: true });
    try {
      const admin = (await signupSuperAdmin(t2, 'root@example.com')).token;
      const other = (await t2.request('POST', '/auth/signup', { body: { email: 'ann@example.com', password: 'password123', firstname: 'Ann' } })).body.token;
      const list = await t2.request('GET', '/admin/users?search=ann', { headers: auth(admin) });
      expect(list.body.list).toEqual([expect.objectContaining({ email: 'ann@example.com', name: 'Ann', roles: ['user'], disabled: false, joined: true })]);
      // % and _ in the search are the characters typed, not wildcards.
      await t2.request('POST', '/auth/signup', { body: { email: 'ann_lee@example.com', password: 'password123', firstname: '100%' } });
      const emails = async (search: string) => (await t2.request('GET', `/admin/users?search=${encodeURIComponent(search)}`, { headers: auth(admin) })).body.list.map((u: { email: string }) => u.email);
      expect(await emails('ann_')).toEqual(['ann_lee@example.com']);
      expect(await emails('%')).toEqual(['ann_lee@example.com']);
      expect(await emails('n_l')).toEqual(['ann_lee@example.com']);
      expect(await emails('ANN@')).toEqual(['ann@example.com']);
      // Names beyond ASCII are found whatever their case (SQLite's lower() folds ASCII letters only).
      await t2.request('POST', '/auth/signup', { body: { email: 'elodie@example.com', password: 'password123', firstname: 'Élodie', lastname: 'Öztürk' } });
      for (const search of ['Élodie', 'élodie', 'ÉLODIE', 'öztürk', 'die Öz']) expect({ search, found: await emails(search) }).toEqual({ search, found: ['elodie@example.com'] });
      expect(await emails('Ö_')).toEqual([]);
      expect((await t2.request('GET', '/admin/users', { headers: auth(other) })).status).toBe(403);
      expect((await t2.request('GET', '/admin/users')).status).toBe(401);
      const annId = list.body.list[0].id;
      // One user by id (the edit panel's link): the same fields; an unknown id is 404; only the Super Admin.
      expect((await t2.request('GET', `/admin/users/${annId}`, { headers: auth(admin) })).body).toEqual(list.body.list[0]);
      expect((await t2.request('GET', '/admin/users/no-such-user', { headers: auth(admin) })).status).toBe(404);
      expect((await t2.request('GET', `/admin/users/${annId}`, { headers: auth(other) })).status).toBe(403);
      const rootId = (await t2.request('GET', '/user/me', { headers: auth(admin) })).body.id;
      expect((await t2.request('PUT', `/admin/users/${rootId}`, { headers: auth(admin), body: { disabled: true } })).status).toBe(400);
      expect((await t2.request('PUT', `/admin/users/${rootId}`, { headers: auth(admin), body: { roles: ['user'] } })).status).toBe(400);
      expect((await t2.request('PUT', `/admin/users/${annId}`, { headers: auth(admin), body: { roles: ['root'] } })).status).toBe(400);
      const disabled = await t2.request('PUT', `/admin/users/${annId}`, { headers: auth(admin), body: { disabled: true } });
      expect(disabled.body).toMatchObject({ email: 'ann@example.com', disabled: true });
      expect((await t2.request('GET', '/user/me', { headers: auth(other) })).status).toBe(401);
      expect((await t2.request('POST', '/auth/signin', { body: { email: 'ann@example.com', password: 'password123' } })).status).toBe(403);
      await t2.request('PUT', `/admin/users/${annId}`, { headers: auth(admin), body: { disabled: false, roles: ['user', 'super'] } });
      const back = await t2.request('POST', '/auth/signin', { body: { email: 'ann@example.com', password: 'password123' } });
      expect((await t2.request('GET', '/user/me', { headers: auth(back.body.token) })).body.roles).toMatchObject({ super: true });
    } finally {
      await t2.close();
    }
  });
});
