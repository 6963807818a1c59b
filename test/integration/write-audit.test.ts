/**
 * Audit records of writes are written once they are final: a bulk create has one record holding every
 * row, and a bulk call that fails part-way (all or nothing) leaves no record of the rows it rolled back.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, loadChinook } from '../helpers/engines';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => {
  await t.close();
});

describeEngines('audit of writes in a transaction', (engine) => {
  const dbName = `tablo_t_write_audit_${engine}`;
  let base = '';
  let projectId = '';
  beforeAll(async () => {
    projectId = await projectOver(t, token, engine, `Write audit ${engine}`, await loadChinook(engine, dbName));
    base = `/nc/${projectId}/api/v1`;
  }, 60_000);
  afterAll(async () => {
    await dropDatabase(engine, dbName);
  });
  const audits = (pks: string[]) =>
    t.app.ctx.meta.all<{ pk: string; description: string; user_email: string }>(
      `SELECT pk, description, user_email FROM nc_audit WHERE op_type = 'DATA' AND project_id = ? AND pk IN (${pks.map(() => '?').join(', ')}) ORDER BY id`,
      [projectId, ...pks],
    );

  test('a bulk create writes one record holding every row', async () => {
    const res = await t.request('POST', `${base}/Genre/bulk`, { body: [9611, 9612, 9613].map((id) => ({ GenreId: id, Name: `Bulk ${id}` })), headers: { 'xc-auth': token } });
    expect(res.status).toBe(200);
    const rows = await t.app.ctx.meta.all<{ pk: string; description: string; user_email: string; value: string }>(
      `SELECT pk, description, user_email, value FROM nc_audit WHERE op_type = 'DATA' AND project_id = ? AND pk = '' ORDER BY id`,
      [projectId],
    );
    expect(rows.map((r) => [r.pk, r.description, r.user_email])).toEqual([['', 'insert', 'admin@example.com']]);
    const { ids, rows: values } = JSON.parse(rows[0]!.value) as { ids: string[]; rows: { Name: string }[] };
    expect(ids).toEqual(['9611', '9612', '9613']);
    expect(values.map((v) => v.Name)).toEqual(['Bulk 9611', 'Bulk 9612', 'Bulk 9613']);
  });

  test('a bulk create that fails on its second row leaves no record of the first', async () => {
    const res = await t.request('POST', `${base}/Genre/bulk`, { body: [{ GenreId: 9621, Name: 'First' }, { GenreId: 9621, Name: 'Same key' }], headers: { 'xc-auth': token } });
    expect(res.status).toBe(409);
    expect((await t.request('GET', `${base}/Genre/9621`, { headers: { 'xc-auth': token } })).status).toBe(404);
    expect(await audits(['9621'])).toEqual([]);
    expect((await t.app.ctx.meta.all(`SELECT id FROM nc_audit WHERE op_type = 'DATA' AND project_id = ? AND pk = ''`, [projectId])).length).toBe(1);
  });
});
