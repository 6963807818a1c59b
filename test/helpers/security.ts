/**
 * Set-up shared by the security suites: a small project database per engine (authors, books with a
 * belongs-to, notes with a secret column), members joined through the invite link, API tokens.
 */
import { expect } from 'bun:test';
import type { TestApp } from './app';
import { dashboardOp, projectOver } from './dashboard';
import { freshDatabase, runScript, type TestEngine } from './engines';

const auth = (token: string) => ({ 'xc-auth': token });

/** Authors, books (belongs-to authors) and notes with a `secret` column. */
export const LIBRARY_SQL = `
CREATE TABLE author (id INTEGER PRIMARY KEY, name VARCHAR(100));
CREATE TABLE book (id INTEGER PRIMARY KEY, title VARCHAR(100), author_id INTEGER REFERENCES author (id));
CREATE TABLE note (id INTEGER PRIMARY KEY, title VARCHAR(100), secret VARCHAR(100));
INSERT INTO author (id, name) VALUES (1, 'Ada'), (2, 'Grace');
INSERT INTO book (id, title, author_id) VALUES (1, 'One', 1), (2, 'Two', 1), (3, 'Three', 2);
INSERT INTO note (id, title, secret) VALUES (1, 'first', 'alpha'), (2, 'second', 'beta');
`;

/** A fresh database `name` holding LIBRARY_SQL (and `extraSql`) and a project over it (answers the project id). */
export async function libraryProject(t: TestApp, owner: string, engine: TestEngine, name: string, title: string, extraSql = ''): Promise<string> {
  const cfg = await freshDatabase(engine, name);
  await runScript(engine, name, LIBRARY_SQL + extraSql);
  return projectOver(t, owner, engine, title, cfg);
}

/** Invites `email` to a project with `roles` and signs them up through the link: their session token. */
export async function joinProject(t: TestApp, owner: string, projectId: string, email: string, roles: string): Promise<string> {
  const invite = await t.request('POST', '/admin', { headers: auth(owner), body: { email, roles, project_id: projectId } });
  expect(invite.status).toBe(200);
  if (!invite.body.invite_url) {
    const signin = await t.request('POST', '/auth/signin', { body: { email, password: 'password123' } });
    return signin.body.token;
  }
  const token = String(invite.body.invite_url).split('/signup/')[1]!;
  const signup = await t.request('POST', '/auth/signup', { body: { email, password: 'password123', token } });
  expect(signup.status).toBe(200);
  return signup.body.token;
}

/** Creates an API token in a project as `creator` (a session token): the token text. */
export async function apiToken(t: TestApp, creator: string, projectId: string, role: string): Promise<string> {
  const res = await dashboardOp(t, creator, 'xcApiTokenCreate', { project_id: projectId, args: { description: `${role} token`, role } });
  expect(res.status).toBe(200);
  return res.body.token;
}

/** The Super Admin lets a user create projects (Users page). */
export async function allowProjects(t: TestApp, superAdmin: string, email: string, allowed = true): Promise<void> {
  const users = await t.request('GET', `/admin/users?search=${encodeURIComponent(email)}`, { headers: auth(superAdmin) });
  const user = users.body.list.find((u: { email: string }) => u.email === email.toLowerCase());
  const res = await t.request('PUT', `/admin/users/${user.id}`, { headers: auth(superAdmin), body: { mayCreateProjects: allowed } });
  expect(res.status).toBe(200);
}
