/**
 * Projects, their environments' databases (connection configs sealed at rest) and members.
 */
import type { MetaStore } from './store';
import { nowIso } from '../lib/ids';
import { ALL, invalidation, topicCache } from './invalidation';
/** How long project rows and member roles read for a request may be reused. */
const CACHE_MS = 1000;

export interface ProjectRow {
  id: string;
  title: string;
  status: 'started' | 'stopped';
  project_type: 'rest' | 'graphql';
  working_env: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProjectDbRow {
  project_id: string;
  env: string;
  db_alias: string;
  client: string;
  connection_enc: string;
  is_xcdb: number;
  inflection_table: string;
  inflection_column: string;
}

const repos = new WeakMap<MetaStore, ReturnType<typeof makeProjectsRepo>>();

/** The projects repository over a metadata store (one object per store, made on first use). */
export function projectsRepo(meta: MetaStore) {
  let repo = repos.get(meta);
  if (!repo) repos.set(meta, (repo = makeProjectsRepo(meta)));
  return repo;
}

function makeProjectsRepo(meta: MetaStore) {
  const projects = topicCache<ProjectRow | undefined>(meta, 'project', CACHE_MS);
  const roles = topicCache<string[]>(meta, 'roles', CACHE_MS);
  const bus = invalidation(meta);
  /** Drops a project's cached row here and in other instances. */
  const touch = (id: string) => bus.publish('project', id, meta);
  /** Runs a change, then drops the project's cached row. */
  const changing = async (id: string, change: Promise<{ changes: number }>) => {
    const done = await change;
    await touch(id);
    return done;
  };
  return {
    get: (id: string) => meta.get<ProjectRow>('SELECT * FROM nc_projects WHERE id = ?', [id]),
    /** The cached row of getCached, if held (no await on the hot path). */
    peekCached: (id: string): ProjectRow | undefined => projects.get(id),
    /** The cached result of memberRoles, if held. */
    peekRoles: (projectId: string, userId: string): string[] | undefined => roles.get(`${projectId}\u0000${userId}`),
    /** get for the hot path (every API request); changes made here drop the entry. */
    async getCached(id: string): Promise<ProjectRow | undefined> {
      const hit = projects.get(id);
      if (hit) return hit;
      const row = await meta.get<ProjectRow>('SELECT * FROM nc_projects WHERE id = ?', [id]);
      if (row) projects.set(id, row);
      return row;
    },
    /** Projects the user is a member of, newest first. */
    listForUser: (userId: string) =>
      meta.all<ProjectRow & { roles: string }>(
        `SELECT p.*, pu.roles FROM nc_projects p JOIN nc_project_users pu ON pu.project_id = p.id
         WHERE pu.user_id = ? ORDER BY p.created_at DESC`,
        [userId],
      ),
    listAll: () => meta.all<ProjectRow>('SELECT * FROM nc_projects ORDER BY created_at DESC'),
    /** Whether another project (not `exceptId`) has this title, case ignored. */
    titleTaken: async (title: string, exceptId = '') =>
      !!(await meta.get('SELECT 1 AS x FROM nc_projects WHERE lower(title) = lower(?) AND id <> ?', [title, exceptId])),
    async create(p: Omit<ProjectRow, 'created_at' | 'updated_at'>, db: Omit<ProjectDbRow, 'project_id'>) {
      const now = nowIso();
      await meta.transaction(async (tx) => {
        await tx.run(
          'INSERT INTO nc_projects (id, title, status, project_type, working_env, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          [p.id, p.title, p.status, p.project_type, p.working_env, p.created_by, now, now],
        );
        await tx.run(
          'INSERT INTO nc_project_dbs (project_id, env, db_alias, client, connection_enc, is_xcdb, inflection_table, inflection_column, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
          [p.id, db.env, db.db_alias, db.client, db.connection_enc, db.is_xcdb, db.inflection_table, db.inflection_column, now],
        );
        if (p.created_by) {
          await tx.run('INSERT INTO nc_project_users (project_id, user_id, roles, created_at) VALUES (?, ?, ?, ?)', [
            p.id,
            p.created_by,
            'owner',
            now,
          ]);
        }
      });
    },
    setStatus: (id: string, status: ProjectRow['status']) => changing(id, meta.run('UPDATE nc_projects SET status = ?, updated_at = ? WHERE id = ?', [status, nowIso(), id])),
    rename: (id: string, title: string) => changing(id, meta.run('UPDATE nc_projects SET title = ?, updated_at = ? WHERE id = ?', [title, nowIso(), id])),
    setWorkingEnv: (id: string, env: string) => changing(id, meta.run('UPDATE nc_projects SET working_env = ?, updated_at = ? WHERE id = ?', [env, nowIso(), id])),
    async delete(id: string) {
      const done = await changing(id, meta.run('DELETE FROM nc_projects WHERE id = ?', [id]));
      await bus.publish('roles', ALL, meta);
      return done;
    },
    dbs: (id: string) =>
      meta.all<ProjectDbRow>('SELECT * FROM nc_project_dbs WHERE project_id = ? ORDER BY env, db_alias', [id]),
    addDb: (row: ProjectDbRow) =>
      meta.run(
        'INSERT INTO nc_project_dbs (project_id, env, db_alias, client, connection_enc, is_xcdb, inflection_table, inflection_column, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [row.project_id, row.env, row.db_alias, row.client, row.connection_enc, row.is_xcdb, row.inflection_table, row.inflection_column, nowIso()],
      ),
    /** Replaces the connection (and inflection) of one database of an environment. */
    updateDb: (row: Pick<ProjectDbRow, 'project_id' | 'env' | 'db_alias' | 'client' | 'connection_enc' | 'inflection_table' | 'inflection_column'>) =>
      meta.run(
        'UPDATE nc_project_dbs SET client = ?, connection_enc = ?, inflection_table = ?, inflection_column = ? WHERE project_id = ? AND env = ? AND db_alias = ?',
        [row.client, row.connection_enc, row.inflection_table, row.inflection_column, row.project_id, row.env, row.db_alias],
      ),
    removeDb: (id: string, env: string, alias: string) =>
      meta.run('DELETE FROM nc_project_dbs WHERE project_id = ? AND env = ? AND db_alias = ?', [id, env, alias]),
    async memberRoles(projectId: string, userId: string): Promise<string[]> {
      const key = `${projectId}\u0000${userId}`;
      const hit = roles.get(key);
      if (hit) return hit;
      const row = await meta.get<{ roles: string }>('SELECT roles FROM nc_project_users WHERE project_id = ? AND user_id = ?', [projectId, userId]);
      const list = row?.roles.split(',').filter(Boolean) ?? [];
      roles.set(key, list);
      return list;
    },
    /** Drops cached member roles here and in other instances (after a membership change). */
    forgetRoles: () => bus.publish('roles', ALL, meta),
  };
}

export type ProjectsRepo = ReturnType<typeof projectsRepo>;
