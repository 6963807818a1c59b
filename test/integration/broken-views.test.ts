/**
 * A view whose table was dropped does not stop a project from loading or syncing: it is listed
 * with no columns and the reason, and reading it answers 400 (SQLite and MariaDB, where a view
 * can outlive its table). A schema read that fails after a change or a rollback answers a clear
 * 503 and leaves no stale model behind (SQLite and PostgreSQL).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { connectionFor, describeEngines, dropDatabase, freshDatabase, runScript, type TestEngine } from '../helpers/engines';

async function projectOn(t: TestApp, token: string, engine: TestEngine, name: string, title: string): Promise<string> {
  const cfg = await freshDatabase(engine, name);
  let connection = cfg.connection as Record<string, unknown>;
  if (engine === 'sqlite') {
    await Bun.write(join(t.dataDir, `${name}.sqlite`), Bun.file(cfg.connection.filename!));
    connection = { filename: `${name}.sqlite` };
  }
  const res = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title, inflectionColumn: 'none', inflectionTable: 'none', db: { client: engine, connection } } });
  if (res.status !== 200) throw new Error(res.text);
  return res.body.id;
}

describeEngines(
  'views over dropped tables',
  (engine: TestEngine) => {
    const name = `tablo_t_hard_views_${engine}`;
    let t: TestApp;
    let token = '';
    let projectId = '';
    const op = (api: string, args: unknown = {}) => dashboardOp(t, token, api, { project_id: projectId, args, plus: true });
    const views = async () => Object.fromEntries((await op('viewList')).body.data.list.map((v: any) => [v.tn, v.broken ?? null]));

    beforeAll(async () => {
      t = await makeTestApp();
      token = (await signupSuperAdmin(t)).token;
      await freshDatabase(engine, name);
      await runScript(
        engine,
        name,
        `CREATE TABLE gone (id INT PRIMARY KEY, x VARCHAR(20));
         CREATE TABLE kept (id INT PRIMARY KEY, label VARCHAR(20));
         CREATE TABLE later (id INT PRIMARY KEY);
         INSERT INTO kept (id, label) VALUES (1, 'one');
         CREATE VIEW v_gone AS SELECT id, x FROM gone;
         CREATE VIEW v_kept AS SELECT id, label FROM kept;
         CREATE VIEW v_later AS SELECT id FROM later;
         DROP TABLE gone;`,
      );
      let connection: Record<string, unknown>;
      if (engine === 'sqlite') {
        await Bun.write(join(t.dataDir, `${name}.sqlite`), Bun.file(connectionFor('sqlite', name).connection.filename!));
        connection = { filename: `${name}.sqlite` };
      } else {
        connection = connectionFor(engine, name).connection as Record<string, unknown>;
      }
      const res = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: `Views ${engine}`, inflectionColumn: 'none', inflectionTable: 'none', db: { client: engine, connection } } });
      expect(res.status).toBe(200);
      projectId = res.body.id;
    });
    afterAll(async () => {
      await t.close();
      await dropDatabase(engine, name);
    });

    test('the project loads; the broken view is listed with its reason and no columns, and answers 400', async () => {
      const list = await views();
      expect(list.v_kept).toBeNull();
      expect(list.v_later).toBeNull();
      expect(typeof list.v_gone).toBe('string');
      const base = `/nc/${projectId}/api/v1`;
      const bad = await t.request('GET', `${base}/v_gone`, { headers: { 'xc-auth': token } });
      expect(bad.status).toBe(400);
      expect(bad.body.msg).toStartWith("View 'v_gone' cannot be read: ");
      expect((await t.request('GET', `${base}/v_gone/count`, { headers: { 'xc-auth': token } })).status).toBe(400);
      expect((await t.request('GET', `${base}/v_kept`, { headers: { 'xc-auth': token } })).body).toEqual([{ id: 1, label: 'one' }]);
      const g = await t.request('POST', `/nc/${projectId}/v1/graphql`, { headers: { 'xc-auth': token }, body: { query: '{ v_keptList { label } }' } });
      expect(g.body).toEqual({ data: { v_keptList: [{ label: 'one' }] } });
    });

    test('changes that break a view sync: the view is marked, the model follows', async () => {
      expect((await op('tableDelete', { tn: 'later' })).status).toBe(200);
      expect((await op('tableList')).body.data.list.map((x: any) => x.tn)).not.toContain('later');
      expect(typeof (await views()).v_later).toBe('string');
      expect((await op('metaSync')).status).toBe(200);
      expect((await op('columnAdd', { tn: 'kept', column: { cn: 'more', uidt: 'Number' } })).status).toBe(200);
      const renamed = await op('tableRename', { tn: 'kept', newTn: 'kept2' });
      if (engine === 'sqlite') {
        // SQLite checks every view when a table is renamed: the broken one is named, nothing changes.
        expect(renamed).toMatchObject({ status: 400, body: { msg: 'Step 1 of 1 failed: error in view v_gone: no such table: main.gone' } });
        expect((await views()).v_kept).toBeNull();
      } else {
        // MariaDB renames without looking at views: the view over the old name is marked in turn.
        expect(renamed.status).toBe(200);
        expect(typeof (await views()).v_kept).toBe('string');
      }
    });
  },
  ['sqlite', 'mysql'],
);

describeEngines(
  'a failed schema read after a change',
  (engine: TestEngine) => {
    const name = `tablo_t_hard_resync_${engine}`;
    let t: TestApp;
    let token = '';
    let projectId = '';
    const op = (api: string, args: unknown = {}) => dashboardOp(t, token, api, { project_id: projectId, args, plus: true });
    const tables = async () => (await op('tableList')).body.data.list.map((x: any) => x.tn);
    /** Makes the next schema reads fail as a lost connection would, for the duration of `fn`. */
    const readsFail = async <T>(fn: () => Promise<T>): Promise<T> => {
      const registry = t.app.ctx.projects as unknown as Record<string, unknown>;
      registry.sync = async () => {
        throw new Error('connection lost');
      };
      try {
        return await fn();
      } finally {
        delete registry.sync;
      }
    };

    beforeAll(async () => {
      t = await makeTestApp();
      token = (await signupSuperAdmin(t)).token;
      projectId = await projectOn(t, token, engine, name, `Resync ${engine}`);
    });
    afterAll(async () => {
      await t.close();
      await dropDatabase(engine, name);
    });

    test('a change, a rollback and a metadata change whose schema read fails answer 503 and leave no stale model', async () => {
      expect((await op('tableCreate', { tn: 'first' })).status).toBe(200);
      const made = await readsFail(() => op('tableCreate', { tn: 'second' }));
      expect(made.status).toBe(503);
      expect(made.body.msg).toBe('The change was made, but reading the schema again failed: connection lost. Sync the schema once the database can be read.');
      expect(await tables()).toContain('second');

      const newest = (await op('migrationList')).body.list[0];
      expect(newest).toMatchObject({ title: "Create table 'second'", status: 'applied' });
      const rolled = await readsFail(() => op('migrationRollback', { id: newest.id }));
      expect(rolled.status).toBe(503);
      expect(await tables()).not.toContain('second');
      expect((await op('migrationList')).body.list[0].status).toBe('pending');

      // Metadata-only changes too: the formula is saved, the read failure said, the next call sees it.
      const formula = await readsFail(() => op('virtualColumnCreate', { tn: 'first', column: { _cn: 'Twice', uidt: 'Formula', formula: '{id} * 2' } }));
      expect(formula.status).toBe(503);
      expect(formula.body.msg).toStartWith('The change was made, but reading the schema again failed: connection lost.');
      expect((await op('tableMeta', { tn: 'first' })).body.virtuals.map((v: any) => v._cn)).toEqual(['Twice']);
    });
  },
  ['sqlite', 'pg'],
);
