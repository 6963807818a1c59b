/**
 * An Attachment value written into another cell (a cell copied and pasted in the grid, a fill-down,
 * a row's values sent again as a new row) names files of the first cell: each is copied for the
 * written cell, so it opens there and stays when the first cell lets it go. Through PUT, the bulk
 * update and create of a paste, and POST; a value written back into its own cell keeps its files;
 * a file the writer may not read through its own cell is not copied (and does not open).
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, type TestEngine } from '../helpers/engines';
import { sweepAttachments } from '../../src/attachments/sweep';

setDefaultTimeout(60_000);

describeEngines('attachment cells copied into other cells', (engine: TestEngine) => {
  const name = `tablo_t_attachment_copies_${engine}`;
  let a: TestApp;
  let root: string;
  let editor: string;
  let projectId: string;

  const rest = (method: string, path: string, body?: unknown, token = root) => a.request(method, `/nc/${projectId}/api/v1/${path}`, { headers: { 'xc-auth': token }, body });
  const files = async (id: number | string) => (await rest('GET', `item/${id}`)).body.files as { id: string; title: string; path: string }[];
  /** The bytes served for a file through a row, or the status when refused. */
  const served = async (id: number | string, fileId: string, token = root) => {
    const res = await a.app.handle(new Request(`http://localhost/nc/${projectId}/api/v1/item/${id}/attachments/files/${fileId}`, { headers: { 'xc-auth': token } }));
    return res.status === 200 ? await res.text() : res.status;
  };

  beforeAll(async () => {
    a = await makeTestApp({ attachmentSweepMs: 0 });
    root = (await signupSuperAdmin(a)).token;
    const cfg = await freshDatabase(engine, name);
    let connection = cfg.connection as Record<string, unknown>;
    if (engine === 'sqlite') {
      await Bun.write(join(a.dataDir, `${name}.sqlite`), Bun.file(cfg.connection.filename!));
      connection = { filename: `${name}.sqlite` };
    }
    const res = await dashboardOp(a, root, 'projectCreateByWeb', { args: { title: `Copies ${engine}`, inflectionColumn: 'none', db: { client: engine, connection } } });
    if (res.status !== 200) throw new Error(res.text);
    projectId = res.body.id;
    const call = (api: string, args: unknown) => dashboardOp(a, root, api, { project_id: projectId, args, plus: true });
    const made = await call('tableCreate', { tn: 'item', _tn: 'item', columns: [{ cn: 'id', uidt: 'ID', pk: true, ai: true }, { cn: 'owner', uidt: 'SingleLineText' }, { cn: 'files', uidt: 'Attachment' }] });
    if (made.status !== 200) throw new Error(made.text);
    const rule = await call('aclSave', { tn: 'item', role: 'editor', rule: { read: true, create: true, update: true, delete: false, where: '(owner,eq,$user.email)' } });
    if (rule.status !== 200) throw new Error(rule.text);
    const invite = await a.request('POST', '/admin', { headers: { 'xc-auth': root }, body: { email: 'editor@example.com', roles: 'editor', project_id: projectId } });
    const token = String(invite.body.invite_url).split('/signup/')[1];
    editor = (await a.request('POST', '/auth/signup', { body: { email: 'editor@example.com', password: 'password123', token } })).body.token;
    for (let i = 0; i < 4; i++) await rest('POST', 'item', { owner: 'editor@example.com' });
    const form = new FormData();
    form.append('file', new File(['the report'], 'report "Q1".txt', { type: 'text/plain' }));
    const up = await a.app.handle(new Request(`http://localhost/nc/${projectId}/api/v1/item/1/attachments/files`, { method: 'POST', headers: { 'xc-auth': root }, body: form }));
    if (up.status !== 200) throw new Error(await up.text());
  });
  afterAll(async () => {
    await a?.close();
    await dropDatabase(engine, name);
  });

  test('PUT, a pasted bulk update and a pasted bulk create copy the files of the first cell; each copy opens and outlives the first', async () => {
    const original = await files(1);
    expect(original).toHaveLength(1);
    const first = original[0]!;

    expect((await rest('PUT', 'item/2', { files: original })).status).toBe(200);
    // The grid's paste and fill-down: one bulk update, the value as JSON text.
    expect((await rest('PUT', 'item/bulk', [{ id: 3, files: JSON.stringify(original) }, { id: 4, files: JSON.stringify(original) }])).status).toBe(200);
    // Rows pasted past the last one: one bulk create.
    const made = (await rest('POST', 'item/bulk', [{ owner: 'editor@example.com', files: JSON.stringify(original) }])).body as string[];
    const created = (await rest('POST', 'item', { owner: 'editor@example.com', files: original })).body;

    const copies = [...(await Promise.all([2, 3, 4, made[0]!, created.id].map((id) => files(id))))];
    const ids = new Set([first.id]);
    for (const [i, list] of copies.entries()) {
      expect(list, `row ${i}`).toHaveLength(1);
      expect(list[0]!.title).toBe('report "Q1".txt');
      ids.add(list[0]!.id);
    }
    expect(ids.size).toBe(6);
    for (const [i, id] of [2, 3, 4, made[0]!, created.id].entries()) expect(await served(id, copies[i]![0]!.id)).toBe('the report');

    // The first row goes; its file is swept, the copies stay and still open.
    expect((await rest('DELETE', 'item/1')).status).toBe(200);
    await sweepAttachments(a.app.ctx, { all: true });
    expect(await served(2, copies[0]![0]!.id)).toBe('the report');
    expect(await served(made[0]!, copies[3]![0]!.id)).toBe('the report');
  });

  test('a value written back into its own cell keeps its files; a file the writer may not read is not copied', async () => {
    const own = await files(2);
    expect((await rest('PUT', 'item/2', { files: own })).status).toBe(200);
    expect((await files(2)).map((f) => f.id)).toEqual(own.map((f) => f.id));

    // Row 3 leaves the editor's row rule: its file is not theirs to copy.
    expect((await rest('PUT', 'item/3', { owner: 'someone@example.com' })).status).toBe(200);
    const hidden = (await files(3))[0]!;
    expect((await rest('PUT', 'item/4', { files: [hidden] }, editor)).status).toBe(200);
    expect((await files(4)).map((f) => f.id)).toEqual([hidden.id]);
    expect(await served(4, hidden.id, editor)).toBe(404);
  });
});
