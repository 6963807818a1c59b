/**
 * Switching where attachments are stored keeps the files already stored readable: from the default
 * Local folder to another folder, to S3 (a real S3-API server on 127.0.0.1) and back to Local in yet
 * another folder, every file uploaded on the way still opens from its cell, new ones go to the active
 * storage, and the sweep removes a file from the folder or bucket it is in. S3's signed links serve a
 * file as Tablo serves a local one: an HTML page downloads, an image shows inline. S3 is not
 * uninstalled while it holds files.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { startS3 } from '../helpers/s3';
import { sweepAttachments } from '../../src/attachments/sweep';

setDefaultTimeout(60_000);

let t: TestApp;
let admin: string;
let projectId: string;
let s3: Awaited<ReturnType<typeof startS3>>;
let fourth: { id: string; path: string };

const op = (api: string, args: unknown) => dashboardOp(t, admin, api, { args });
const rest = (method: string, path: string, body?: unknown) => t.request(method, `/nc/${projectId}/api/v1/${path}`, { headers: { 'xc-auth': admin }, body });

async function upload(row: number, text: string, name = `${text}.txt`, type = 'text/plain') {
  const form = new FormData();
  form.append('file', new File([text], name, { type }));
  const res = await t.app.handle(new Request(`http://localhost/nc/${projectId}/api/v1/doc/${row}/attachments/files`, { method: 'POST', headers: { 'xc-auth': admin }, body: form }));
  expect(res.status).toBe(200);
  return ((await res.json()) as { uploaded: { id: string; path: string }[] }).uploaded[0]!;
}

/** The text of a file read from its cell (following the S3 redirect), or the status when refused. */
async function read(row: number, fileId: string): Promise<string | number> {
  const res = await t.app.handle(new Request(`http://localhost/nc/${projectId}/api/v1/doc/${row}/attachments/files/${fileId}`, { headers: { 'xc-auth': admin } }));
  if (res.status === 302) return (await fetch(res.headers.get('location')!)).text();
  return res.status === 200 ? res.text() : res.status;
}

beforeAll(async () => {
  s3 = await startS3();
  t = await makeTestApp({ attachmentSweepMs: 0 });
  admin = (await signupSuperAdmin(t)).token;
  projectId = (await op('projectCreateByWeb', { title: 'Switch', inflectionColumn: 'none' })).body.id;
  const made = await dashboardOp(t, admin, 'tableCreate', { project_id: projectId, plus: true, args: { tn: 'doc', _tn: 'doc', columns: [{ cn: 'id', uidt: 'ID', pk: true, ai: true }, { cn: 'files', uidt: 'Attachment' }] } });
  if (made.status !== 200) throw new Error(made.text);
  for (let i = 0; i < 4; i++) await rest('POST', 'doc', {});
});
afterAll(async () => {
  await t.close();
  await s3.stop();
});

test('files stay readable through Local folder changes and a switch to S3 and back', async () => {
  const first = await upload(1, 'default-folder');
  expect(await Bun.file(join(t.dataDir, 'attachments', first.path)).exists()).toBe(true);

  expect((await op('xcPluginSet', { title: 'Local', input: { folder: 'files/b' }, active: true })).status).toBe(200);
  const second = await upload(2, 'folder-b');
  expect(await Bun.file(join(t.dataDir, 'files/b', second.path)).exists()).toBe(true);
  expect(await read(1, first.id)).toBe('default-folder');

  const input = { endpoint: s3.endpoint, region: 'us-east-1', bucket: s3.bucket, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, pathStyle: true };
  expect((await op('xcPluginSet', { title: 'S3', input, active: true })).status).toBe(200);
  const third = await upload(3, 'in-s3');
  expect(await s3.text(third.path)).toBe('in-s3');

  // Back to Local, in yet another folder.
  expect((await op('xcPluginSet', { title: 'Local', input: { folder: 'files-c' }, active: true })).status).toBe(200);
  fourth = await upload(4, 'folder-c');
  expect(await Bun.file(join(t.dataDir, 'files-c', fourth.path)).exists()).toBe(true);
  expect([await read(1, first.id), await read(2, second.id), await read(3, third.id), await read(4, fourth.id)]).toEqual(['default-folder', 'folder-b', 'in-s3', 'folder-c']);

  // The sweep finds each file where it is.
  for (const id of [1, 2, 3]) expect((await rest('DELETE', `doc/${id}`)).status).toBe(200);
  const swept = await sweepAttachments(t.app.ctx, { all: true });
  expect(swept.removed).toBe(3);
  expect(await Bun.file(join(t.dataDir, 'attachments', first.path)).exists()).toBe(false);
  expect(await Bun.file(join(t.dataDir, 'files/b', second.path)).exists()).toBe(false);
  expect(await s3.exists(third.path)).toBe(false);
  expect(await read(4, fourth.id)).toBe('folder-c');
});

test("S3's signed links download an HTML or SVG file instead of showing it as a page; images and text show inline", async () => {
  const input = { endpoint: s3.endpoint, region: 'us-east-1', bucket: s3.bucket, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, pathStyle: true };
  expect((await op('xcPluginSet', { title: 'S3', input, active: true })).status).toBe(200);
  const cases: [string, string, string, string][] = [
    ['<script>alert(1)</script>', 'page "one".html', 'text/html', 'application/octet-stream'],
    ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'logo.svg', 'image/svg+xml', 'application/octet-stream'],
    ['GIF89a', 'dot.gif', 'image/gif', 'image/gif'],
    ['notes', 'notes.txt', 'text/plain', 'text/plain'],
  ];
  for (const [body, name, type, servedType] of cases) {
    const f = await upload(4, body, name, type);
    const res = await t.app.handle(new Request(`http://localhost/nc/${projectId}/api/v1/doc/4/attachments/files/${f.id}`, { headers: { 'xc-auth': admin } }));
    expect(res.status).toBe(302);
    const got = await fetch(res.headers.get('location')!);
    expect(await got.text()).toBe(body);
    expect(got.headers.get('content-type')).toBe(servedType);
    const disposition = got.headers.get('content-disposition')!;
    expect(disposition.split(';')[0]).toBe(servedType === 'application/octet-stream' ? 'attachment' : 'inline');
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(name)}`);
  }
  // Uninstalling S3 while it holds files would make them unreachable: refused, saying what to do instead.
  const uninstall = await op('xcPluginSet', { title: 'S3', input: null });
  expect(uninstall.status).toBe(400);
  expect(uninstall.body.msg).toMatch(/^The S3 storage still holds attachment files \(\d+\), which could not be opened without it: make Local active instead/);
  expect((await op('xcPluginSet', { title: 'Local', input: { folder: 'attachments' }, active: true })).status).toBe(200);
  expect(await read(4, fourth.id)).toBe('folder-c');
});
