/**
 * A cron job's SQL that changes the schema (CREATE / ALTER / DROP TABLE) makes the server read the
 * project's model again, as the SQL Client does: the generated APIs see the new table and column at
 * once, and a dropped table is gone from them, on every engine.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, runScript } from '../helpers/engines';

let t: TestApp;
let token = '';
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => t.close());

describeEngines(
  'cron SQL that changes the schema',
  (engine) => {
    const name = `tablo_t_cronddl_${engine}`;
    let projectId = '';
    const op = (api: string, args?: unknown) => dashboardOp(t, token, api, { project_id: projectId, args });
    const read = (table: string) => t.request('GET', `/nc/${projectId}/api/v1/${table}`, { headers: { 'xc-auth': token } });
    const runSql = async (title: string, sql: string) => {
      const made = await op('xcCronCreate', { title, pattern: '0 0 1 1 *', action: { type: 'sql', sql, dbAlias: 'db' } });
      expect(made.status).toBe(200);
      return (await op('xcCronRun', { id: made.body.id })).body;
    };
    beforeAll(async () => {
      const cfg = await freshDatabase(engine, name);
      await runScript(engine, name, "CREATE TABLE first_one (id INTEGER PRIMARY KEY, v VARCHAR(20)); INSERT INTO first_one VALUES (1, 'a');");
      projectId = await projectOver(t, token, engine, `Cron DDL ${engine}`, cfg);
      // The model is read (and kept) before the job changes the schema.
      expect((await read('FirstOne')).status).toBe(200);
    });
    afterAll(async () => dropDatabase(engine, name));

    test('a table made, a column added and a table dropped by a job are seen by the APIs at once', async () => {
      expect(await runSql('make', 'CREATE TABLE made_by_cron (id INTEGER PRIMARY KEY, note VARCHAR(50))')).toMatchObject({ status: 'success' });
      const made = await read('MadeByCron');
      expect(made.status).toBe(200);
      expect(made.body).toEqual([]);

      expect(await runSql('add', "ALTER TABLE first_one ADD extra VARCHAR(20); UPDATE first_one SET extra = 'x'")).toMatchObject({ status: 'success' });
      expect((await read('FirstOne')).body).toEqual([{ Id: 1, V: 'a', Extra: 'x' }]);

      // A later statement failing does not keep the change made before it from the model.
      expect(await runSql('drop', 'DROP TABLE made_by_cron; SELECT * FROM no_such_table')).toMatchObject({ status: 'error' });
      expect((await read('MadeByCron')).status).toBe(404);
    }, 60_000);
  },
  ['sqlite', 'pg', 'mysql'],
);
