/**
 * Renaming a project (projectRename): owners and creators change the title; the id and the API
 * addresses stay; a title another project has (case ignored) is a 409, a blank or overlong one a
 * 400; editors may not; an unknown project is a 404.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => t.close());

const create = async (title: string) => (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title } })).body.id as string;
const rename = (projectId: string, title: unknown, as = token) => dashboardOp(t, as, 'projectRename', { project_id: projectId, args: { title } });
const titles = async () => (await dashboardOp(t, token, 'PROJECT_READ_BY_WEB')).body.data.list.map((p: { title: string }) => p.title).sort();

test('the title changes, the id and the API addresses stay', async () => {
  const id = await create('Salse');
  const res = await rename(id, '  Sales  ');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ id, title: 'Sales' });
  expect(await titles()).toContain('Sales');
  expect(await titles()).not.toContain('Salse');
  expect((await dashboardOp(t, token, 'tableList', { project_id: id })).status).toBe(200);
  expect((await t.request('GET', `/nc/${id}/docs/openapi.json?dbAlias=db`, { headers: { 'xc-auth': token } })).status).toBe(200);
  // The same title in another case is the project's own: allowed.
  expect((await rename(id, 'SALES')).body).toEqual({ id, title: 'SALES' });
});

test("another project's title, a blank or overlong title: refused, nothing changes", async () => {
  const a = await create('Alpha');
  await create('Beta');
  expect((await rename(a, 'beta')).status).toBe(409);
  expect((await rename(a, 'beta')).body).toEqual({ msg: "A project named 'beta' already exists" });
  expect((await rename(a, '   ')).body.msg).toContain('Project name is required');
  expect((await rename(a, 'x'.repeat(101))).body.msg).toContain('Project name is too long (at most 100 characters)');
  expect((await rename(a, 42)).status).toBe(400);
  expect(await titles()).toContain('Alpha');
});

test('editors may not rename; an unknown project is a 404', async () => {
  const id = await create('Team project');
  const invited = await t.request('POST', '/admin', { headers: { 'xc-auth': token }, body: { email: 'ed@example.com', roles: 'editor', project_id: id } });
  const invite = String(invited.body.invite_url).split('/').pop();
  const ed = (await t.request('POST', '/auth/signup', { body: { email: 'ed@example.com', password: 'password123', token: invite } })).body.token as string;
  expect((await rename(id, 'Mine now', ed)).status).toBe(403);
  expect(await titles()).toContain('Team project');
  expect((await rename('no_such_project', 'Anything')).status).toBe(404);
});
