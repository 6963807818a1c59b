/**
 * Downloads named after a title of any characters, over a real HTTP server (where a header value
 * must stay ASCII): the shared view's CSV and the project's metadata zip carry an ASCII stand-in in
 * `filename` and the title itself in `filename*` (RFC 5987), on SQLite.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { dropDatabase, freshDatabase } from '../helpers/engines';

const DB = 'tablo_t_download_names';
const PROJECT = 'Proyecto año 客户';
const VIEW = 'Clientes año 客户';

let t: TestApp;
let server: ReturnType<typeof Bun.serve>;
let url = '';
let token = '';
let projectId = '';

beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
  projectId = await projectOver(t, token, 'sqlite', PROJECT, await freshDatabase('sqlite', DB));
  server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (r) => t.app.handle(r) });
  url = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server?.stop(true);
  await t?.close();
  await dropDatabase('sqlite', DB);
});

const op = async (api: string, args: unknown) => {
  const res = await dashboardOp(t, token, api, { project_id: projectId, args, plus: true });
  if (res.status !== 200) throw new Error(`${api}: ${res.status} ${res.text}`);
  return res.body;
};

test("a shared view's CSV downloads under the view's title", async () => {
  await op('tableCreate', { tn: 'client', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'name', uidt: 'SingleLineText' }] });
  const view = await op('xcVirtualTableCreate', { tn: 'client', title: VIEW, type: 'grid' });
  const link = await op('createSharedViewLink', { view_id: view.id, allowCsvDownload: true });
  const res = await fetch(`${url}/api/v1/shared/${link.uuid}/rows.csv`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Clientes a_o __.csv"; filename*=UTF-8''Clientes%20a%C3%B1o%20%E5%AE%A2%E6%88%B7.csv`);
  expect(await res.text()).toBe('Id,Name\r\n');
});

test("the metadata zip downloads under the project's title", async () => {
  const res = await fetch(`${url}/dashboard?q=sqlOp_xcMetaTablesExportDbToZip`, {
    method: 'POST',
    headers: { 'xc-auth': token, 'content-type': 'application/json' },
    body: JSON.stringify({ api: 'xcMetaTablesExportDbToZip', project_id: projectId }),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Proyecto a_o __-metadata.zip"; filename*=UTF-8''Proyecto%20a%C3%B1o%20%E5%AE%A2%E6%88%B7-metadata.zip`);
  expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
});
