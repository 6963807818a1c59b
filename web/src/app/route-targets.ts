/**
 * Pure decisions behind some routes of spec section 2, kept apart from React so they can be unit
 * tested: which project form a /project/... address opens, where /start leads, and the three
 * right-clicks on the app bar that open /datatable.
 */

/** What a /project/... address opens on the projects page. */
export type ProjectFormTarget =
  /** New Project on a new embedded SQLite database (/project/xcdb, /project/name, /project/index.js). */
  | { kind: 'embedded' }
  /** The external database form for a new project (/project, /project/0). */
  | { kind: 'external' }
  /** The connection of an existing project (/project/{id}). */
  | { kind: 'edit'; projectId: string };

/** The segment after /project/ that are forms, not project ids. */
const EMBEDDED = new Set(['xcdb', 'name', 'index.js']);

/** The form of /project/{segment} (no segment, or '0': a new project on an external database). */
export function projectFormOf(segment: string | undefined): ProjectFormTarget {
  const s = (segment ?? '').trim();
  if (s === '' || s === '0') return { kind: 'external' };
  if (EMBEDDED.has(s)) return { kind: 'embedded' };
  return { kind: 'edit', projectId: s };
}

/** The database alias every project opens by default (the dashboard, REST and GraphQL use it). */
export const DEFAULT_DB_ALIAS = 'db';

/** Whether a project's working environment lacks its default database: the dashboard cannot open it. */
export function configMissing(envs: { workingEnv: string; envs: Record<string, { dbs: { dbAlias: string }[] }> }): boolean {
  return !(envs.envs[envs.workingEnv]?.dbs ?? []).some((d) => d.dbAlias === DEFAULT_DB_ALIAS);
}

/**
 * Where /start leads (after an environment change on a server without an admin): the sign-up that
 * makes the Super Admin when nobody has signed up yet, else the index.
 */
export function startTarget(info: { authType: string; firstUser: boolean } | null): string {
  return info?.authType === 'jwt' && info.firstUser ? '/user/authentication/signup' : '/';
}

/** How many right-clicks on the app bar open /datatable, and within how long of each other. */
export const DATATABLE_CLICKS = 3;
export const DATATABLE_WINDOW_MS = 1500;

/**
 * Counts right-clicks: `click(now)` answers true on the third within the window of the one before
 * (then starts again); a slower click starts a new count.
 */
export function rightClickCounter(clicks = DATATABLE_CLICKS, windowMs = DATATABLE_WINDOW_MS) {
  let count = 0;
  let last = -Infinity;
  return {
    click(now: number): boolean {
      count = now - last <= windowMs ? count + 1 : 1;
      last = now;
      if (count < clicks) return false;
      count = 0;
      last = -Infinity;
      return true;
    },
  };
}

/** The dashboard address that opens a table's grid (the tab the project page mirrors in its query). */
export function tableLink(projectId: string, tableName: string, dbAlias = DEFAULT_DB_ALIAS): string {
  const q = new URLSearchParams({ name: tableName, dbalias: dbAlias, type: 'table' });
  return `/nc/${encodeURIComponent(projectId)}?${q.toString()}`;
}
