/**
 * The access matrix: each caller (owner, creator, editor, commenter, viewer, guest, API tokens with
 * a role, an expired token, an owner previewing a role) x each operation (list, read, create,
 * update, delete through REST and GraphQL, raw SQL, every schema-changing operation, invite),
 * allowed or refused, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines, dropDatabase, loadChinook, type TestEngine } from '../helpers/engines';
import { chinookTable } from '../helpers/chinook';
import { DASHBOARD_OPS, registerOps } from '../../src/api/dashboard/registry';
import { projectsRepo } from '../../src/meta/projects-repo';

let t: TestApp;
let owner: string;
beforeAll(async () => {
  t = await makeTestApp();
  owner = (await signupSuperAdmin(t, 'owner@example.com')).token;
});
afterAll(async () => t.close());

// An operation that declares a member's access but changes the schema: the dispatcher must still
// keep it for owners and creators, like every schema-changing operation other modules register.
registerOps([{ name: 'aclTestSchemaChange', access: 'projectMember', schemaChanging: true, run: async () => ({ ok: true }) }]);

type Op = 'list' | 'read' | 'create' | 'update' | 'delete' | 'rawSql' | 'schema' | 'invite';
const DATA: Op[] = ['list', 'read', 'create', 'update', 'delete'];
const all = (v: boolean, except: Partial<Record<Op, boolean>> = {}) =>
  Object.fromEntries((['list', 'read', 'create', 'update', 'delete', 'rawSql', 'schema', 'invite'] as Op[]).map((o) => [o, except[o] ?? v])) as Record<Op, boolean>;
const READER = all(false, { list: true, read: true });
const EDITOR = all(true, { rawSql: false, schema: false, invite: false });

/** Expected answers per caller; `status` is the refusal status (403, or 401 for a refused token). */
const MATRIX: Record<string, { allowed: Record<Op, boolean>; status?: number }> = {
  owner: { allowed: all(true) },
  creator: { allowed: all(true) },
  editor: { allowed: EDITOR },
  commenter: { allowed: READER },
  viewer: { allowed: READER },
  guest: { allowed: all(false) },
  'token:editor': { allowed: EDITOR },
  'token:viewer': { allowed: READER },
  'token:expired': { allowed: all(false), status: 401 },
  // Previewing acts as the role everywhere but in the team (admin roles) calls.
  'preview:viewer': { allowed: { ...READER, invite: true } },
  'preview:editor': { allowed: { ...EDITOR, invite: true } },
};

const auth = (token: string) => ({ 'xc-auth': token });

async function join_(projectId: string, email: string, roles: string): Promise<string> {
  const invite = await t.request('POST', '/admin', { headers: auth(owner), body: { email, roles, project_id: projectId } });
  expect(invite.status).toBe(200);
  const token = String(invite.body.invite_url).split('/signup/')[1]!;
  const signup = await t.request('POST', '/auth/signup', { body: { email, password: 'password123', token } });
  expect(signup.status).toBe(200);
  return signup.body.token;
}

describeEngines(
  'access matrix',
  (engine: TestEngine) => {
    const dbName = `tablo_t_acl_matrix_${engine}`;
    let projectId = '';
    const headers: Record<string, Record<string, string>> = {};
    beforeAll(async () => {
      const cfg = await loadChinook(engine, dbName);
      let connection = cfg.connection as Record<string, unknown>;
      if (engine === 'sqlite') {
        await Bun.write(join(t.dataDir, 'acl-matrix.sqlite'), Bun.file(cfg.connection.filename!));
        connection = { filename: 'acl-matrix.sqlite' };
      }
      projectId = (await dashboardOp(t, owner, 'projectCreateByWeb', { args: { title: `ACL ${engine}`, db: { client: engine, connection } } })).body.id;
      headers.owner = auth(owner);
      for (const role of ['creator', 'editor', 'commenter', 'viewer', 'guest']) {
        headers[role] = auth(await join_(projectId, `${role}.${engine}@example.com`, role === 'guest' ? 'viewer' : role));
      }
      // Invites grant real roles only; a guest member is set in the store.
      const guestId = (await t.request('GET', `/admin?project_id=${projectId}`, { headers: auth(owner) })).body.list.find((u: any) => u.email === `guest.${engine}@example.com`).id;
      await t.app.ctx.meta.run('UPDATE nc_project_users SET roles = ? WHERE project_id = ? AND user_id = ?', ['guest', projectId, guestId]);
      projectsRepo(t.app.ctx.meta).forgetRoles();
      for (const role of ['editor', 'viewer']) {
        const tok = await dashboardOp(t, owner, 'xcApiTokenCreate', { project_id: projectId, args: { description: role, role } });
        headers[`token:${role}`] = { 'xc-token': tok.body.token };
      }
      const expired = await dashboardOp(t, owner, 'xcApiTokenCreate', { project_id: projectId, args: { description: 'expired', role: 'editor' } });
      await t.app.ctx.meta.run('UPDATE nc_api_tokens SET expires_at = ? WHERE id = ?', [new Date(Date.now() - 1000).toISOString(), expired.body.id]);
      headers['token:expired'] = { 'xc-token': expired.body.token };
      headers['preview:viewer'] = { ...auth(owner), 'xc-preview': 'viewer' };
      headers['preview:editor'] = { ...auth(owner), 'xc-preview': 'editor' };
    });
    afterAll(async () => dropDatabase(engine, dbName));

    Object.entries(MATRIX).forEach(([who, { allowed, status = 403 }], n) => {
      test(`${who}: data through REST and GraphQL, raw SQL, schema changes, invite`, async () => {
        const h = headers[who]!;
        const base = `/nc/${projectId}/api/v1`;
        const id = 800 + n;
        const got: Record<string, string> = {};
        const want: Record<string, string> = {};
        const rest = async (op: Op, res: Promise<{ status: number }>) => {
          got[`REST ${op}`] = String((await res).status);
          want[`REST ${op}`] = allowed[op] ? '200' : String(status);
        };
        await rest('list', t.request('GET', `${base}/Genre?limit=1`, { headers: h }));
        await rest('read', t.request('GET', `${base}/Genre/1`, { headers: h }));
        await rest('create', t.request('POST', `${base}/Genre`, { headers: h, body: { GenreId: id, Name: who } }));
        await rest('update', t.request('PUT', `${base}/Genre/1`, { headers: h, body: { Name: 'Rock' } }));
        await rest('delete', t.request('DELETE', `${base}/Genre/${allowed.create ? id : 25}`, { headers: h }));

        const gqlId = 850 + n;
        const queries: Record<string, string> = {
          list: '{ GenreList(limit: 1) { GenreId } }',
          read: '{ GenreRead(id: "1") { Name } }',
          create: `mutation { GenreCreate(data: { GenreId: ${gqlId}, Name: "g" }) { GenreId } }`,
          update: 'mutation { GenreUpdate(id: "1", data: { Name: "Rock" }) { Name } }',
          delete: `mutation { GenreDelete(id: "${allowed.create ? gqlId : 25}") }`,
        };
        for (const op of DATA) {
          const res = await t.request('POST', `/nc/${projectId}/v1/graphql`, { headers: h, body: { query: queries[op] } });
          got[`GraphQL ${op}`] = res.body.errors ? res.body.errors[0].extensions.code : 'ok';
          want[`GraphQL ${op}`] = allowed[op] ? 'ok' : status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN';
        }

        const opCall = (api: string, args: unknown) => dashboardOp(t, null, api, { project_id: projectId, args, headers: h });
        const raw = await opCall('rawSql', { sql: `SELECT COUNT(*) AS n FROM ${chinookTable(engine, 'Genre')}` });
        got.rawSql = String(raw.status);
        want.rawSql = allowed.rawSql ? '200' : String(status);
        const schemaOps = [...DASHBOARD_OPS.values()].filter((o) => o.schemaChanging);
        expect(schemaOps.map((o) => o.name)).toContain('aclTestSchemaChange');
        for (const op of schemaOps) {
          // Allowed means past the access check (the arguments may still be refused with 400).
          const s = (await dashboardOp(t, null, op.name, { project_id: projectId, args: {}, plus: true, headers: h })).status;
          got[`schema ${op.name}`] = s === 401 || s === 403 ? String(s) : 'passed';
          want[`schema ${op.name}`] = allowed.schema ? 'passed' : String(status);
        }
        const invite = await t.request('POST', '/admin', { headers: h, body: { email: `new.${n}.${engine}@example.com`, roles: 'viewer', project_id: projectId } });
        got.invite = String(invite.status);
        want.invite = allowed.invite ? '200' : String(status);
        expect(got).toEqual(want);
        if (allowed.rawSql) expect(Number(raw.body.rows[0].n ?? raw.body.rows[0].N)).toBeGreaterThan(0);
      });
    });

    test('a signed-in stranger is refused; a guest must sign in', async () => {
      const stranger = await signupOther();
      expect((await t.request('GET', `/nc/${projectId}/api/v1/Genre`, { headers: auth(stranger) })).status).toBe(403);
      expect((await t.request('GET', `/nc/${projectId}/api/v1/Genre`)).status).toBe(401);
    });

    test('ui_ability answers the spec rules', async () => {
      const res = await t.request('GET', '/ui_ability', { headers: auth(owner) });
      expect(res.body).toMatchObject({ maxTables: 99999, maxTabs: 99, darkTheme: true });
    });
  },
  ['sqlite', 'pg'],
);

/** A signed-in user outside every project (invited to none, made through a throwaway project). */
async function signupOther(): Promise<string> {
  const p = (await dashboardOp(t, owner, 'projectCreateByWeb', { args: { title: `Lobby ${Math.random()}` } })).body.id;
  const email = `stranger.${Math.random().toString(36).slice(2)}@example.com`;
  const token = await join_(p, email, 'viewer');
  return token;
}
