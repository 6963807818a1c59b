/**
 * Security review, finding 1: API tokens belong to one project. A token made in project A is
 * refused (403 `{msg}`) on project B's REST, GraphQL, dashboard, team and docs routes whatever its
 * role, on the first request and on repeated ones (the cached fast paths); a token made by a member
 * acts with at most the member's current role. Sessions: signing out and reusing a rotated refresh
 * token end the access JWT too. Reproduced as the attacker did, on SQLite, PostgreSQL and MariaDB.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines, dropDatabase, type TestEngine } from '../helpers/engines';
import { LIMITS } from '../../src/config/limits';
import { apiToken, joinProject, libraryProject } from '../helpers/security';

const xcAuth = (token: string) => ({ 'xc-auth': token });
const xcToken = (token: string) => ({ 'xc-token': token });

describeEngines('API tokens belong to one project', (engine: TestEngine) => {
  const dbA = `tablo_t_sec_tokens_a_${engine}`;
  const dbB = `tablo_t_sec_tokens_b_${engine}`;
  let t: TestApp;
  let admin = '';
  let projectA = '';
  let projectB = '';
  let ownerToken = '';

  beforeAll(async () => {
    t = await makeTestApp();
    admin = (await signupSuperAdmin(t)).token;
    projectA = await libraryProject(t, admin, engine, dbA, 'Attacker project');
    projectB = await libraryProject(t, admin, engine, dbB, 'Victim project');
    // The attacker owns project A (a project of their own) and is a viewer of project B.
    const attacker = await joinProject(t, admin, projectA, 'attacker@example.com', 'owner');
    await joinProject(t, admin, projectB, 'attacker@example.com', 'viewer');
    // B hides the secret column from viewers.
    const rule = await dashboardOp(t, admin, 'aclSave', { project_id: projectB, args: { tn: 'note', role: 'viewer', rule: { read: ['id', 'title'], create: false, update: false, delete: false } } });
    expect(rule.status).toBe(200);
    ownerToken = await apiToken(t, attacker, projectA, 'owner');
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await dropDatabase(engine, dbA);
    await dropDatabase(engine, dbB);
  });

  test('a token of project A reads and writes its own project', async () => {
    const own = await t.request('GET', `/nc/${projectA}/api/v1/Note`, { headers: xcToken(ownerToken) });
    expect(own.status).toBe(200);
    expect(own.body.map((r: { Secret: string }) => r.Secret)).toEqual(['alpha', 'beta']);
  });

  test('REST of project B refuses it with 403 {msg}: no hidden column read, no row written (twice, for the cached roads)', async () => {
    for (let i = 0; i < 2; i++) {
      const list = await t.request('GET', `/nc/${projectB}/api/v1/Note`, { headers: xcToken(ownerToken) });
      expect(list.status).toBe(403);
      expect(list.body).toEqual({ msg: 'This API token belongs to another project' });
      const one = await t.request('GET', `/nc/${projectB}/api/v1/Note/1?fields=Secret`, { headers: { authorization: `Bearer ${ownerToken}` } });
      expect(one.status).toBe(403);
      expect(one.text).not.toContain('alpha');
    }
    const write = await t.request('POST', `/nc/${projectB}/api/v1/Note`, { headers: xcToken(ownerToken), body: { Id: 99, Title: 'pwned', Secret: 'x' } });
    expect(write.status).toBe(403);
    const update = await t.request('PUT', `/nc/${projectB}/api/v1/Note/1`, { headers: xcToken(ownerToken), body: { Secret: 'changed' } });
    expect(update.status).toBe(403);
    // The rows of B are as they were (read by its Super Admin).
    const rows = await t.request('GET', `/nc/${projectB}/api/v1/Note`, { headers: xcAuth(admin) });
    expect(rows.body.map((r: { Secret: string }) => r.Secret)).toEqual(['alpha', 'beta']);
  });

  test('GraphQL of project B refuses it (403) on every road: plain query, variables, mutation', async () => {
    const bodies = [
      { query: '{ NoteList { Id Secret } }' },
      { query: 'query ($l: Int) { NoteList(limit: $l) { Secret } }', variables: { l: 5 } },
      { query: 'mutation { NoteUpdate(id: "1", data: { Secret: "changed" }) { Secret } }' },
    ];
    for (const body of [...bodies, ...bodies]) {
      const res = await t.request('POST', `/nc/${projectB}/v1/graphql`, { headers: xcToken(ownerToken), body });
      expect(res.status).toBe(403);
      expect(res.text).not.toContain('alpha');
      expect(res.body.errors[0]).toMatchObject({ message: 'This API token belongs to another project', extensions: { code: 'FORBIDDEN' } });
    }
  });

  test('dashboard, team and docs routes of project B refuse it too; its project list holds only A', async () => {
    for (const api of ['tableList', 'tableMeta', 'aclList', 'xcApiTokenList', 'rawSql', 'projectEnvList']) {
      const res = await dashboardOp(t, null, api, { project_id: projectB, args: { tn: 'note', sql: 'SELECT * FROM note' }, headers: xcToken(ownerToken) });
      expect(res.status).toBe(403);
      expect(res.body.msg).toBe('This API token belongs to another project');
    }
    const team = await t.request('GET', `/admin?project_id=${projectB}`, { headers: xcToken(ownerToken) });
    expect(team.status).toBe(403);
    const invite = await t.request('POST', '/admin', { headers: xcToken(ownerToken), body: { email: 'friend@example.com', roles: 'owner', project_id: projectB } });
    expect(invite.status).toBe(403);
    const docs = await t.request('GET', `/nc/${projectB}/docs/openapi.json`, { headers: xcToken(ownerToken) });
    expect(docs.status).toBe(403);
    const list = await dashboardOp(t, null, 'PROJECT_READ_BY_WEB', { headers: xcToken(ownerToken) });
    expect(list.body.data.list.map((p: { id: string }) => p.id)).toEqual([projectA]);
    const create = await dashboardOp(t, null, 'projectCreateByWeb', { args: { title: 'From a token' }, headers: xcToken(ownerToken) });
    expect(create.status).toBe(403);
  });

  test("a member's token acts with at most the member's current role", async () => {
    // A token above one's own role is refused at creation: a creator cannot make an owner token.
    const creator = await joinProject(t, admin, projectB, 'creator@example.com', 'creator');
    const above = await dashboardOp(t, creator, 'xcApiTokenCreate', { project_id: projectB, args: { description: 'too much', role: 'owner' } });
    expect(above.status).toBe(403);
    expect((await dashboardOp(t, creator, 'xcApiTokenCreate', { project_id: projectB, args: { description: 'ok', role: 'creator' } })).status).toBe(200);

    // An owner of B makes an owner token, then is demoted to viewer: the token reads as a viewer.
    const owner = await joinProject(t, admin, projectB, 'owner.b@example.com', 'owner');
    const token = await apiToken(t, owner, projectB, 'owner');
    expect((await t.request('GET', `/nc/${projectB}/api/v1/Note/1`, { headers: xcToken(token) })).body.Secret).toBe('alpha');
    // A creator manages tokens up to their own role: an owner token is changed and deleted by owners only.
    const tokens = (await dashboardOp(t, owner, 'xcApiTokenList', { project_id: projectB })).body.data.list as { id: string; role: string; description: string }[];
    const ownerTokenId = tokens.find((x) => x.role === 'owner')!.id;
    const creatorTokenId = tokens.find((x) => x.description === 'ok')!.id;
    for (const [api, args] of [['xcApiTokenUpdate', { id: ownerTokenId, enabled: false }], ['xcApiTokenDelete', { id: ownerTokenId }]] as const) {
      const refused = await dashboardOp(t, creator, api, { project_id: projectB, args });
      expect(refused.status).toBe(403);
      expect(refused.body.msg).toBe('Only an owner can change or delete owner tokens');
    }
    expect((await t.request('GET', `/nc/${projectB}/api/v1/Note/1`, { headers: xcToken(token) })).status).toBe(200);
    expect((await dashboardOp(t, creator, 'xcApiTokenUpdate', { project_id: projectB, args: { id: creatorTokenId, enabled: false } })).status).toBe(200);
    expect((await dashboardOp(t, owner, 'xcApiTokenUpdate', { project_id: projectB, args: { id: creatorTokenId, enabled: true } })).status).toBe(200);
    const members = await t.request('GET', `/admin?project_id=${projectB}`, { headers: xcAuth(admin) });
    const ownerId = members.body.list.find((m: { email: string }) => m.email === 'owner.b@example.com').id;
    expect((await t.request('PUT', `/admin/${ownerId}`, { headers: xcAuth(admin), body: { roles: 'viewer', project_id: projectB } })).status).toBe(200);
    const asViewer = await t.request('GET', `/nc/${projectB}/api/v1/Note/1`, { headers: xcToken(token) });
    expect(asViewer.status).toBe(200);
    expect(asViewer.body.Secret).toBeUndefined();
    expect((await t.request('PUT', `/nc/${projectB}/api/v1/Note/1`, { headers: xcToken(token), body: { Title: 'x' } })).status).toBe(403);
    // Removed from the project: the token has no rights left.
    expect((await t.request('DELETE', `/admin/${ownerId}?project_id=${projectB}`, { headers: xcAuth(admin) })).status).toBe(200);
    expect((await t.request('GET', `/nc/${projectB}/api/v1/Note`, { headers: xcToken(token) })).status).toBe(403);
  });
});

describe('sessions end with sign-out and with a reused refresh token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
    await signupSuperAdmin(t);
  }, 60_000);
  afterAll(async () => t.close());

  const signin = async () => {
    const res = await t.request('POST', '/auth/signin', { body: { email: 'admin@example.com', password: 'password123' } });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('tablo_refresh='))!.split(';')[0]!;
    return { jwt: res.body.token as string, cookie };
  };

  test('sign-out refuses the access JWT at once (cached road included), other sessions live on', async () => {
    const a = await signin();
    const b = await signin();
    for (let i = 0; i < 3; i++) expect((await t.request('GET', '/user/me', { headers: xcAuth(a.jwt) })).status).toBe(200);
    const out = await t.request('POST', '/auth/signout', { headers: { ...xcAuth(a.jwt), cookie: a.cookie } });
    expect(out.status).toBe(200);
    const after = await t.request('GET', '/user/me', { headers: xcAuth(a.jwt) });
    expect(after.status).toBe(401);
    expect((await t.request('POST', '/dashboard?q=sqlOp_PROJECT_READ_BY_WEB', { headers: xcAuth(a.jwt), body: { api: 'PROJECT_READ_BY_WEB' } })).status).toBe(401);
    expect((await t.request('GET', '/user/me', { headers: xcAuth(b.jwt) })).status).toBe(200);
  });

  test('sign-out with the JWT alone (no cookie) ends it too', async () => {
    const a = await signin();
    expect((await t.request('POST', '/auth/signout', { headers: xcAuth(a.jwt) })).status).toBe(200);
    expect((await t.request('GET', '/user/me', { headers: xcAuth(a.jwt) })).status).toBe(401);
  });

  test('a reused refresh token ends the JWTs of its session, the first and the rotated one', async () => {
    const a = await signin();
    const rotated = await t.request('POST', '/auth/refresh-token', { headers: { cookie: a.cookie } });
    expect(rotated.status).toBe(200);
    const second = rotated.body.token as string;
    expect((await t.request('GET', '/user/me', { headers: xcAuth(second) })).status).toBe(200);
    // The attacker replays the stolen first refresh token, later than a lost answer's retry would come
    // (within LIMITS.refreshRetryGraceMs, with its successor unused, it would be taken for that retry).
    await t.app.ctx.meta.run('UPDATE nc_refresh_tokens SET revoked_at = ? WHERE revoked_at IS NOT NULL', [new Date(Date.now() - LIMITS.refreshRetryGraceMs - 1000).toISOString()]);
    const replay = await t.request('POST', '/auth/refresh-token', { headers: { cookie: a.cookie } });
    expect(replay.status).toBe(401);
    expect((await t.request('GET', '/user/me', { headers: xcAuth(a.jwt) })).status).toBe(401);
    expect((await t.request('GET', '/user/me', { headers: xcAuth(second) })).status).toBe(401);
  });
});
