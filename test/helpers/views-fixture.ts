/**
 * Set-up shared by the saved-view and shared-view suites: an app, a Super Admin owner, members
 * with the editor, viewer and commenter roles, a project over Chinook and a `task` table with a
 * SingleSelect, an Attachment and a Date column (made through the dashboard, so their logical
 * types are kept in metadata), and a SQL view `brazil_customers`.
 */
import { makeTestApp, type TestApp } from './app';
import { signupSuperAdmin } from './auth';
import { dashboardOp, projectOver } from './dashboard';
import { runScript, type TestEngine } from './engines';
import { loadChinook } from './chinook';

/** A SQL view over Chinook (`BrazilCustomers`: CustomerId, FirstName, City of the five Brazilian customers). */
const SQL_VIEW = {
  sqlite: "CREATE VIEW IF NOT EXISTS brazil_customers AS SELECT CustomerId, FirstName, City FROM Customer WHERE Country = 'Brazil'",
  mysql: "CREATE OR REPLACE VIEW brazil_customers AS SELECT CustomerId, FirstName, City FROM Customer WHERE Country = 'Brazil'",
  pg: "CREATE OR REPLACE VIEW brazil_customers AS SELECT customer_id, first_name, city FROM customer WHERE country = 'Brazil'",
};

/**
 * How long the set-up may take: a first load of Chinook into PostgreSQL or MariaDB and four
 * sign-ups (argon2) take several seconds on a busy machine. The Chinook database is kept after the
 * suite (the suites change no Chinook row), so later runs reuse it (test/helpers/chinook.ts).
 */
export const FIXTURE_TIMEOUT_MS = 120_000;

export interface ViewsFixture {
  t: TestApp;
  projectId: string;
  base: string;
  /** Session tokens by role: owner, editor, viewer, commenter. */
  tokens: Record<string, string>;
  /** A dashboard operation of the project as `who`. */
  op(who: string, api: string, args?: unknown): ReturnType<typeof dashboardOp>;
  /** A GET of the project's REST API as `who`. */
  get(who: string, path: string): ReturnType<TestApp['request']>;
}

/** `overrides`: settings of the app (a small attachment size limit, say). */
export async function viewsFixture(engine: TestEngine, dbName: string, title: string, overrides: Parameters<typeof makeTestApp>[0] = {}): Promise<ViewsFixture> {
  const t = await makeTestApp(overrides);
  const owner = (await signupSuperAdmin(t, 'owner@example.com')).token;
  const cfg = await loadChinook(engine, dbName);
  if (engine !== 'sqlite') await runScript(engine, dbName, 'DROP TABLE IF EXISTS task');
  await runScript(engine, dbName, SQL_VIEW[engine as keyof typeof SQL_VIEW]);
  const projectId = await projectOver(t, owner, engine, title, cfg);
  const tokens: Record<string, string> = { owner };
  const join = async (email: string, roles: string) => {
    const invite = await t.request('POST', '/admin', { headers: { 'xc-auth': owner }, body: { email, roles, project_id: projectId } });
    const token = String(invite.body.invite_url).split('/signup/')[1]!;
    return (await t.request('POST', '/auth/signup', { body: { email, password: 'password123', token } })).body.token as string;
  };
  tokens.editor = await join('editor@example.com', 'editor');
  tokens.viewer = await join('viewer@example.com', 'viewer');
  tokens.commenter = await join('commenter@example.com', 'commenter');
  const made = await dashboardOp(t, owner, 'tableCreate', {
    project_id: projectId,
    plus: true,
    args: {
      tn: 'task',
      columns: [
        { cn: 'id', uidt: 'ID', pk: true, ai: true },
        { cn: 'title', uidt: 'SingleLineText' },
        { cn: 'status', uidt: 'SingleSelect', options: ['todo', 'doing', 'done'] },
        { cn: 'photo', uidt: 'Attachment' },
        { cn: 'due', uidt: 'Date' },
      ],
    },
  });
  if (made.status !== 200) throw new Error(`task table: ${made.text}`);
  const base = `/nc/${projectId}/api/v1`;
  return {
    t,
    projectId,
    base,
    tokens,
    op: (who, api, args) => dashboardOp(t, tokens[who]!, api, { project_id: projectId, args }),
    get: (who, path) => t.request('GET', `${base}/${path}`, { headers: { 'xc-auth': tokens[who]! } }),
  };
}
