/**
 * Audit records of writes made in a transaction are written once it commits: every row of a bulk create
 * has its record, and a bulk call that fails part-way (all or nothing) leaves no record of the rows it
 * rolled back.
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

  test('a bulk create writes one record per row after it commits', async () => {
    const res = await t.request('POST', `${base}/Genre/bulk`, { body: [9611, 9612, 9613].map((id) => ({ GenreId: id, Name: `Bulk ${id}` })), headers: { 'xc-auth': token } });
    expect(res.status).toBe(200);
    const rows = await audits(['9611', '9612', '9613']);
    expect(rows.map((r) => [r.pk, r.description])).toEqual([
      ['9611', 'insert'],
      ['9612', 'insert'],
      ['9613', 'insert'],
    ]);
    expect(rows[0]!.user_email).toBe('admin@example.com');
  });

  test('a bulk create that fails on its second row leaves no record of the first', async () => {
    const res = await t.request('POST', `${base}/Genre/bulk`, { body: [{ GenreId: 9621, Name: 'First' }, { GenreId: 9621, Name: 'Same key' }], headers: { 'xc-auth': token } });
    expect(res.status).toBe(409);
    expect((await t.request('GET', `${base}/Genre/9621`, { headers: { 'xc-auth': token } })).status).toBe(404);
    expect(await audits(['9621'])).toEqual([]);
  });
});
