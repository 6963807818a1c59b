/**
 * An Attachment column's accepted types against the names people give files: 'Invoice #12.pdf' or
 * 'Q&A?.txt' are taken by a column that accepts .pdf and .txt (the # and ? are part of the name, not
 * a URL's fragment or query), through an upload and in a written value; a link's query and fragment
 * still do not count as its name.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';

setDefaultTimeout(30_000);

let t: TestApp;
let token: string;
let projectId: string;

beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
  projectId = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Accept', inflectionColumn: 'none' } })).body.id;
  const made = await dashboardOp(t, token, 'tableCreate', {
    project_id: projectId,
    plus: true,
    args: { tn: 'doc', _tn: 'doc', columns: [{ cn: 'id', uidt: 'ID', pk: true, ai: true }, { cn: 'files', uidt: 'Attachment', meta: { accept: '.pdf, .txt' } }] },
  });
  if (made.status !== 200) throw new Error(made.text);
  await t.request('POST', `/nc/${projectId}/api/v1/doc`, { headers: { 'xc-auth': token }, body: {} });
});
afterAll(() => t.close());

describe('accepted types and file names', () => {
  test("names holding # or ? are judged by their own extension", async () => {
    const form = new FormData();
    form.append('file', new File(['%PDF'], 'Invoice #12.pdf', { type: 'application/pdf' }));
    form.append('file', new File(['notes'], 'Q&A?.txt', { type: 'text/plain' }));
    const res = await t.app.handle(new Request(`http://localhost/nc/${projectId}/api/v1/doc/1/attachments/files`, { method: 'POST', headers: { 'xc-auth': token }, body: form }));
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.uploaded.map((f: { title: string }) => f.title)).toEqual(['Invoice #12.pdf', 'Q&A_.txt']);

    const put = (files: unknown) => t.request('PUT', `/nc/${projectId}/api/v1/doc/1`, { headers: { 'xc-auth': token }, body: { files } });
    expect((await put([{ url: 'https://example.com/report.pdf?download=1#page=2' }])).status).toBe(200);
    expect((await put([{ url: 'https://example.com/a.txt', title: 'Minutes #3.txt' }])).status).toBe(200);
    const refused = await put([{ url: 'https://example.com/page?f=x.pdf' }]);
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(`Column 'files' accepts only .pdf, .txt: "https://example.com/page?f=x.pdf" is not one`);
  });
});
