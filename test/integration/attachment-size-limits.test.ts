/**
 * How large an attachment upload may be: the attachment limit (NC_ATTACHMENT_MAX_BYTES) may be set
 * above the 10 MB body limit of other calls, and an upload route then takes a file that size; a
 * body past what an upload may carry answers 413 saying what a file may have (with a Content-Length
 * or chunked). `/ui_ability` tells the web app the limit, which refuses bigger files before sending.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';

setDefaultTimeout(60_000);

const MB = 1024 * 1024;
let t: TestApp;
let token: string;
let projectId: string;

beforeAll(async () => {
  t = await makeTestApp({ attachmentMaxBytes: 16 * MB });
  token = (await signupSuperAdmin(t)).token;
  projectId = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Big files', inflectionColumn: 'none' } })).body.id;
  const made = await dashboardOp(t, token, 'tableCreate', { project_id: projectId, plus: true, args: { tn: 'doc', _tn: 'doc', columns: [{ cn: 'id', uidt: 'ID', pk: true, ai: true }, { cn: 'files', uidt: 'Attachment' }] } });
  if (made.status !== 200) throw new Error(made.text);
  await t.request('POST', `/nc/${projectId}/api/v1/doc`, { headers: { 'xc-auth': token }, body: {} });
});
afterAll(() => t.close());

/** Uploads one file of `size` bytes to row 1, with a Content-Length or (chunked) without one. */
async function upload(size: number, chunked: boolean, path = `/nc/${projectId}/api/v1/doc/1/attachments/files`) {
  const form = new FormData();
  form.append('file', new File([new Uint8Array(size)], 'scan.pdf', { type: 'application/pdf' }));
  const encoded = new Response(form);
  const type = encoded.headers.get('content-type')!;
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  const body = chunked ? new ReadableStream({ start: (c) => (c.enqueue(bytes), c.close()) }) : bytes;
  const res = await t.app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers: { 'xc-auth': token, 'content-type': type, ...(chunked ? {} : { 'content-length': String(bytes.length) }) }, body }));
  return { status: res.status, body: (await res.json()) as any };
}

describe('attachment size limits', () => {
  test('the web app is told the attachment limit', async () => {
    expect((await t.request('GET', '/ui_ability')).body.attachmentMaxBytes).toBe(16 * MB);
  });

  test('a file over the 10 MB body limit but under the attachment limit is taken, with or without a Content-Length', async () => {
    for (const chunked of [false, true]) {
      const r = await upload(12 * MB, chunked);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.uploaded[0]).toMatchObject({ title: 'scan.pdf', size: 12 * MB });
    }
  });

  test('a file past the attachment limit answers 413 naming it; a body past what an upload carries says what a file may have', async () => {
    const over = await upload(16 * MB + 10, false);
    expect(over).toEqual({ status: 413, body: { msg: `'scan.pdf' is larger than the limit of ${16 * MB} bytes` } });
    for (const chunked of [false, true]) {
      const r = await upload(17 * MB, chunked);
      expect(r.status).toBe(413);
      expect(r.body.msg).toBe(`The upload is larger than the limit of ${16 * MB + 64 * 1024} bytes: a file may have up to ${16 * MB} bytes (send large files one per request)`);
    }
    // Other calls keep the 10 MB body limit.
    const json = await t.request('POST', `/nc/${projectId}/api/v1/doc`, { headers: { 'xc-auth': token }, body: { files: 'x'.repeat(11 * MB) } });
    expect(json.status).toBe(413);
    expect(json.body.msg).toBe(`The request body is larger than the limit of ${10 * MB} bytes`);
  });
});
