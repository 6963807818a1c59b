/**
 * projectEnvList by role: owners and creators (who edit connections) see each database's host, port,
 * user and database name (never the password); editors, commenters and viewers, and an owner
 * previewing one of those roles, see the environments with each database's alias and engine only.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver, sqliteCopyName } from '../helpers/dashboard';
import { dbName, describeEngines, dropDatabase, freshDatabase, PG, type TestEngine } from '../helpers/engines';

describeEngines(
  'projectEnvList by role',
  (engine: TestEngine) => {
    const db = 'tablo_t_envroles';
    const title = 'EnvRoles';
    let t: TestApp;
    let admin = '';
    let projectId = '';
    const tokens: Record<string, string> = {};
    /** What identifies the server (or the SQLite file): none of it may reach a non-admin. */
    const secrets = () => (engine === 'pg' ? [dbName(db), PG.user, PG.host] : [sqliteCopyName(title)]);

    const join = async (email: string, roles: string) => {
      const invite = await t.request('POST', '/admin', { headers: { 'xc-auth': admin }, body: { email, roles, project_id: projectId } });
      expect(invite.status).toBe(200);
      const token = String(invite.body.invite_url).split('/signup/')[1]!;
      return (await t.request('POST', '/auth/signup', { body: { email, password: 'password123', token } })).body.token as string;
    };
    const envList = (token: string, headers: Record<string, string> = {}) => dashboardOp(t, token, 'projectEnvList', { project_id: projectId, headers });

    beforeAll(async () => {
      t = await makeTestApp();
      admin = (await signupSuperAdmin(t)).token;
      projectId = await projectOver(t, admin, engine, title, await freshDatabase(engine, db));
      for (const role of ['owner', 'creator', 'editor', 'commenter', 'viewer']) tokens[role] = await join(`${role}@example.com`, role);
    }, 30_000);
    afterAll(async () => {
      await t.close();
      await dropDatabase(engine, db);
    }, 30_000);

    test('owners, creators and the Super Admin see the connection, without its password', async () => {
      for (const token of [admin, tokens.owner!, tokens.creator!]) {
        const res = await envList(token);
        expect(res.status).toBe(200);
        const d = res.body.envs.dev.dbs[0];
        expect(d).toMatchObject({ dbAlias: 'db', client: engine, isXcdb: false });
        if (engine === 'pg') expect(d.connection).toMatchObject({ host: PG.host, port: PG.port, user: PG.user, database: dbName(db) });
        else expect(d.connection.filename).toContain(sqliteCopyName(title));
        expect(d.connection).not.toHaveProperty('password');
      }
    });

    test('other roles, and an owner previewing one, get the list without host, port, user or database', async () => {
      const calls = [
        ...['editor', 'commenter', 'viewer'].map((role) => () => envList(tokens[role]!)),
        () => envList(tokens.owner!, { 'xc-preview': 'viewer' }),
        () => envList(admin, { 'xc-preview': 'editor' }),
      ];
      for (const call of calls) {
        const res = await call();
        expect(res.status).toBe(200);
        expect(res.body.workingEnv).toBe('dev');
        expect(res.body.envs.dev.active).toBe(true);
        expect(res.body.envs.dev.dbs).toEqual([{ dbAlias: 'db', client: engine, isXcdb: false, inflection: { table: 'camelize', column: 'camelize' } }]);
        for (const s of secrets()) expect(res.text).not.toContain(s);
      }
    });
  },
  ['pg', 'sqlite'],
);
