/**
 * A has-many over a column the child already has, as the schema editor makes it (a Number column
 * pointing at a key made as ID), on every engine: the link is made with the values the column holds,
 * refuses values pointing at no row from then on, and undone leaves the column as it was.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, type TestEngine } from '../helpers/engines';

describeEngines('a link over an existing column', (engine: TestEngine) => {
  const db = `tablo_t_link_existing_${engine}`;
  let t: TestApp;
  let token = '';
  let projectId = '';

  const op = async (api: string, args: unknown) => {
    const res = await dashboardOp(t, token, api, { project_id: projectId, args, plus: true });
    if (res.status !== 200) throw new Error(`${api}: ${res.status} ${res.text.slice(0, 400)}`);
    return res.body;
  };
  const rest = (method: string, path: string, body?: unknown) => t.request(method, `/nc/${projectId}/api/v1/${path}`, { body, headers: { 'xc-auth': token } });

  beforeAll(async () => {
    t = await makeTestApp();
    token = (await signupSuperAdmin(t)).token;
    projectId = await projectOver(t, token, engine, 'Links', await freshDatabase(engine, db), { inflectionColumn: 'none' });
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await dropDatabase(engine, db);
  });

  test('a Number column becomes the link to a key made as ID, with its values; undone, it is a Number again', async () => {
    await op('tableCreate', { tn: 'team', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'name', uidt: 'SingleLineText' }] });
    await op('tableCreate', { tn: 'member', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'team_ref', uidt: 'Number' }] });
    const team = await rest('POST', 'Team', { name: 'Blue' });
    expect((await rest('POST', 'Member', { team_ref: team.body.id })).status).toBe(200);
    const linked = await op('relationCreate', { type: 'hm', parentTn: 'team', childTn: 'member', childColumn: 'team_ref' });
    expect(linked.migration.status).toBe('applied');
    expect(linked.table.relations).toContainEqual(expect.objectContaining({ type: 'bt', table: 'Team' }));
    expect((await rest('GET', 'Member?fields=team_ref')).body).toEqual([{ team_ref: team.body.id }]);
    expect((await rest('POST', 'Member', { team_ref: 999 })).status).toBe(409);
    await op('migrationRollback', { id: linked.migration.id });
    const col = (await op('tableMeta', { tn: 'member' })).columns.find((c: { cn: string }) => c.cn === 'team_ref');
    expect(col).toMatchObject({ uidt: 'Number', kind: expect.stringMatching(/integer|bigint/) });
    if (engine === 'mysql') expect(col.dt).toStartWith('bigint');
    expect((await rest('POST', 'Member', { team_ref: 999 })).status).toBe(200);
  });
  test('a text column becomes the link where the engine allows it; the model says what the column is, also once undone', async () => {
    await op('tableCreate', { tn: 'crew', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'team_code', uidt: 'Email' }] });
    expect((await rest('POST', 'Crew', {})).status).toBe(200);
    const column = async () => (await op('tableMeta', { tn: 'crew' })).columns.find((c: { cn: string }) => c.cn === 'team_code');
    const res = await dashboardOp(t, token, 'relationCreate', { project_id: projectId, args: { type: 'hm', parentTn: 'team', childTn: 'crew', childColumn: 'team_code' }, plus: true });
    if (engine === 'pg') {
      // PostgreSQL links no text column to a number key: the column stays as it was.
      expect(res.status).toBe(400);
      expect(await column()).toMatchObject({ uidt: 'Email', kind: 'string' });
      return;
    }
    expect(res.status).toBe(200);
    const team = await rest('POST', 'Team', { name: 'Red' });
    if (engine === 'mysql') {
      // MariaDB gave the column the key's type: a whole number column now, holding keys as numbers.
      expect(await column()).toMatchObject({ uidt: 'Number', kind: expect.stringMatching(/integer|bigint/), dt: expect.stringMatching(/^int/) });
      expect((await rest('POST', 'Crew', { team_code: team.body.id })).body).toMatchObject({ team_code: team.body.id });
    } else {
      // SQLite keeps the column's type: still a text column.
      expect(await column()).toMatchObject({ uidt: 'Email', kind: 'string' });
    }
    await op('migrationRollback', { id: res.body.migration.id });
    expect(await column()).toMatchObject({ uidt: 'Email', kind: 'string' });
    expect((await rest('POST', 'Crew', { team_code: 'crew@example.com' })).status).toBe(200);
  });
});
