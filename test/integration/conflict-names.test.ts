/**
 * Conflict answers name what the user sees: a duplicate in a unique column names the column's
 * display name (UserEmail, not user_email), a missing parent names the link column's display name,
 * and a parent still referred to names the referring table's display name, on every engine.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, runScript } from '../helpers/engines';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => {
  await t.close();
});

const SCRIPT = `CREATE TABLE contact_list (id INTEGER PRIMARY KEY, user_email VARCHAR(100) NOT NULL UNIQUE);
CREATE TABLE contact_note (id INTEGER PRIMARY KEY, contact_id INTEGER, body VARCHAR(100), FOREIGN KEY (contact_id) REFERENCES contact_list (id));
INSERT INTO contact_list (id, user_email) VALUES (1, 'ada@example.com');
INSERT INTO contact_note (id, contact_id, body) VALUES (1, 1, 'first call');`;

describeEngines('conflict messages with display names', (engine) => {
  const db = `tablo_t_conflictnames_${engine}`;
  let base = '';
  const h = () => ({ 'xc-auth': token });
  beforeAll(async () => {
    const cfg = await freshDatabase(engine, db);
    await runScript(engine, db, SCRIPT);
    base = `/nc/${await projectOver(t, token, engine, `Conflicts ${engine}`, cfg)}/api/v1`;
  });
  afterAll(async () => {
    await dropDatabase(engine, db);
  });

  test('a duplicate names the unique column by its display name', async () => {
    const res = await t.request('POST', `${base}/ContactList`, { body: { Id: 2, UserEmail: 'ada@example.com' }, headers: h() });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe('A row with the same UserEmail already exists');
    // An update into the same value is refused the same way.
    await t.request('POST', `${base}/ContactList`, { body: { Id: 3, UserEmail: 'bob@example.com' }, headers: h() });
    const upd = await t.request('PUT', `${base}/ContactList/3`, { body: { UserEmail: 'ada@example.com' }, headers: h() });
    expect(upd.status).toBe(409);
    expect(upd.body.msg).toBe('A row with the same UserEmail already exists');
  });

  test('a parent still referred to names the referring table by its display name', async () => {
    const res = await t.request('DELETE', `${base}/ContactList/1`, { headers: h() });
    expect(res.status).toBe(409);
    // SQLite names neither the table nor the columns of a failed foreign key.
    if (engine === 'sqlite') expect(res.body.msg).toMatch(/foreign key|referred/);
    else expect(res.body.msg).toBe('The row is still referred to by other rows (table ContactNote)');
  });

  test('a child pointing at no row names the link column by its display name', async () => {
    const res = await t.request('POST', `${base}/ContactNote`, { body: { Id: 2, ContactId: 99, Body: 'lost' }, headers: h() });
    expect(res.status).toBe(409);
    if (engine !== 'sqlite') expect(res.body.msg).toBe('The value of ContactId does not match any row it refers to');
    expect(res.body.msg).not.toContain('contact_id');
  });
});
