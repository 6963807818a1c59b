/**
 * Security review, smaller findings on the data side, reproduced as a viewer or editor would on
 * SQLite, PostgreSQL and MariaDB: row ids decoded once (a malformed escape is 400, never 500);
 * restricted roles never see the database's own error messages (owners do); a lookup in groupby
 * works for a viewer under a row rule as for the owner; a MariaDB default holding `\'` stays one
 * default; table names `.` and `..` are refused.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines, dropDatabase, type TestEngine } from '../helpers/engines';
import { joinProject, libraryProject } from '../helpers/security';

const xcAuth = (token: string) => ({ 'xc-auth': token });

describeEngines('security: data', (engine: TestEngine) => {
  const dbName = `tablo_t_sec_data_${engine}`;
  let t: TestApp;
  let admin = '';
  let viewer = '';
  let editor = '';
  let projectId = '';
  let base = '';
  const op = (token: string, api: string, args?: unknown) => dashboardOp(t, token, api, { project_id: projectId, args });

  beforeAll(async () => {
    t = await makeTestApp();
    admin = (await signupSuperAdmin(t)).token;
    // With a table keyed by text, whose keys hold a percent sign, and one with a check constraint.
    projectId = await libraryProject(t, admin, engine, dbName, 'Data', `
      CREATE TABLE tag (code VARCHAR(20) PRIMARY KEY, label VARCHAR(20));
      INSERT INTO tag (code, label) VALUES ('50%', 'half'), ('50', 'fifty');
      CREATE TABLE shelf (id INTEGER PRIMARY KEY, slots INTEGER CHECK (slots >= 0));
      INSERT INTO shelf (id, slots) VALUES (1, 3);
    `);
    base = `/nc/${projectId}/api/v1`;
    viewer = await joinProject(t, admin, projectId, 'viewer@example.com', 'viewer');
    editor = await joinProject(t, admin, projectId, 'editor@example.com', 'editor');
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await dropDatabase(engine, dbName);
  });

  test('row ids are decoded once: 50%25 is the row 50%, a malformed escape answers 400 {msg}', async () => {
    const half = await t.request('GET', `${base}/Tag/50%25`, { headers: xcAuth(viewer) });
    expect(half.status).toBe(200);
    expect(half.body).toEqual({ Code: '50%', Label: 'half' });
    // Decoded once only: `50%2525` is the id `50%25`, which no row has.
    expect((await t.request('GET', `${base}/Tag/50%2525`, { headers: xcAuth(viewer) })).status).toBe(404);
    expect((await t.request('GET', `${base}/Tag/50%25/exists`, { headers: xcAuth(viewer) })).body).toBe(true);
    for (const path of ['Note/1%25', 'Note/1%2', 'Tag/%E0%A4%A', 'Tag/50%2/exists', 'Note/1%2/Book']) {
      const res = await t.request('GET', `${base}/${path}`, { headers: xcAuth(viewer) });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(typeof res.body.msg).toBe('string');
    }
    const malformed = await t.request('DELETE', `${base}/Note/1%2`, { headers: xcAuth(editor) });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ msg: 'The URL holds a malformed escape (%)' });
  });

  test("restricted roles never see the database's own error messages; owners do", async () => {
    const bad = { Id: 7, Slots: -1 };
    const asEditor = await t.request('POST', `${base}/Shelf`, { headers: xcAuth(editor), body: bad });
    expect(asEditor.status).toBe(400);
    expect(asEditor.body).toEqual({ msg: 'The database could not run this request' });
    const viaGraphql = await t.request('POST', `/nc/${projectId}/v1/graphql`, { headers: xcAuth(editor), body: { query: 'mutation { ShelfCreate(data: { Id: 8, Slots: -1 }) { Id } }' } });
    expect(viaGraphql.body.errors[0].message).toBe('The database could not run this request');
    const asOwner = await t.request('POST', `${base}/Shelf`, { headers: xcAuth(admin), body: bad });
    expect(asOwner.status).toBe(400);
    expect(asOwner.body.msg).not.toBe('The database could not run this request');
    expect(asOwner.body.msg).toMatch(/check|constraint/i);
  });

  test('a lookup in groupby works for a viewer under a row rule as for the owner', async () => {
    const made = await op(admin, 'virtualColumnCreate', { tn: 'book', column: { _cn: 'AuthorName', uidt: 'Lookup', lookup: { relation: 'Author', column: 'Name' } } });
    expect(made.status).toBe(200);
    const rule = { read: true, create: false, update: false, delete: false, where: '(Name,eq,Ada)' };
    expect((await op(admin, 'aclSave', { tn: 'author', role: 'viewer', rule })).status).toBe(200);
    const owner = await t.request('GET', `${base}/Book/groupby?fields=AuthorName`, { headers: xcAuth(admin) });
    expect(owner.body).toEqual([
      { AuthorName: 'Ada', count: 2 },
      { AuthorName: 'Grace', count: 1 },
    ]);
    for (const path of ['Book/groupby?fields=AuthorName', 'Book/groupby/AuthorName']) {
      const res = await t.request('GET', `${base}/${path}`, { headers: xcAuth(viewer) });
      expect(res.status).toBe(200);
      // Grace's row is outside the viewer's rule on Author: the lookup is empty for them.
      expect(res.body).toEqual([
        { AuthorName: 'Ada', count: 2 },
        { AuthorName: null, count: 1 },
      ]);
    }
    const agg = await t.request('GET', `${base}/Book/aggregate?column_name=Id&func=count&fields=AuthorName`, { headers: xcAuth(viewer) });
    expect(agg.status).toBe(200);
    expect(agg.body).toEqual([
      { AuthorName: null, count: 1 },
      { AuthorName: 'Ada', count: 2 },
    ].sort((a, b) => (engine === 'pg' ? (a.AuthorName === null ? 1 : -1) : a.AuthorName === null ? -1 : 1)));
    expect((await t.request('GET', `${base}/Book/groupby?fields=AuthorName&sort=Title`, { headers: xcAuth(viewer) })).status).toBe(400);
  });

  test("a string default holding \\' stays one default (no column added through it)", async () => {
    const payload = "x\\', ADD COLUMN pwned INT -- ";
    const res = await op(admin, 'columnAdd', { tn: 'note', column: { cn: 'motto', uidt: 'SingleLineText', default: payload } });
    expect(res.status).toBe(200);
    const meta = await op(admin, 'tableMeta', { tn: 'note' });
    expect(meta.body.columns.map((c: { cn: string }) => c.cn)).not.toContain('pwned');
    const created = await t.request('POST', `${base}/Note`, { headers: xcAuth(admin), body: { Id: 3, Title: 'third' } });
    expect(created.status).toBe(200);
    expect((await t.request('GET', `${base}/Note/3`, { headers: xcAuth(admin) })).body.Motto).toBe(payload);
    // Changing the column later replays the default as the database reports it, still as one.
    expect((await op(admin, 'columnUpdate', { tn: 'note', cn: 'motto', column: { nullable: true, dtxp: '120' } })).status).toBe(200);
    const again = await op(admin, 'tableMeta', { tn: 'note' });
    expect(again.body.columns.map((c: { cn: string }) => c.cn)).not.toContain('pwned');
  });

  test("table names '.' and '..' are refused", async () => {
    for (const tn of ['.', '..', '...']) {
      const res = await op(admin, 'tableCreate', { tn });
      expect(res.status).toBe(400);
      expect(res.body.msg).toContain("'.' or '..'");
    }
    expect((await op(admin, 'tableRename', { tn: 'tag', newTn: '..' })).status).toBe(400);
    // Nor as display names, which name tables in URLs too.
    expect((await op(admin, 'tableRename', { tn: 'tag', _tn: '..' })).status).toBe(400);
    expect((await op(admin, 'modelUpdate', { tn: 'tag', _tn: '.' })).status).toBe(400);
  });
});
