/**
 * The SQL Client's metadata: saved queries per project database (name, SQL; shared by the
 * project's owners and creators) and each user's history of runs, newest first, capped.
 */
import type { MetaStore } from './store';
import { newId, nowIso } from '../lib/ids';
import { conflict, notFound } from '../lib/errors';

let lastStamp = 0;
/**
 * The time a run started as ISO text, strictly increasing within this process, so two runs that
 * start in the same millisecond keep their order in the history.
 */
export function runStamp(): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp).toISOString();
}

/** Runs kept per user and project database; older ones are dropped as new ones come. */
export const SQL_HISTORY_MAX = 100;

export interface SavedQuery {
  id: string;
  name: string;
  sql: string;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export type RunStatus = 'ok' | 'error' | 'cancelled' | 'timeout';

export interface HistoryEntry {
  id: string;
  sql: string;
  status: RunStatus;
  statements: number;
  durationMs: number;
  ranAt: string;
}

interface QueryRow { id: string; name: string; sql: string; created_by: string | null; created_at: string; updated_at: string }
interface HistoryRow { id: string; sql: string; status: RunStatus; statements: number; duration_ms: number; ran_at: string }

const toQuery = (r: QueryRow): SavedQuery => ({ id: r.id, name: r.name, sql: r.sql, createdBy: r.created_by, createdAt: r.created_at, updatedAt: r.updated_at });

/** The repository over a metadata store. */
export function sqlClientRepo(meta: MetaStore) {
  return {
    /** Saved queries of a project database, by name. */
    async listQueries(projectId: string, dbAlias: string): Promise<SavedQuery[]> {
      const rows = await meta.all<QueryRow>('SELECT id, name, sql, created_by, created_at, updated_at FROM nc_sql_queries WHERE project_id = ? AND db_alias = ? ORDER BY name', [projectId, dbAlias]);
      return rows.map(toQuery);
    },
    /** Creates a query, or updates the one with `id`; a name already used by another answers 409. */
    async saveQuery(projectId: string, dbAlias: string, q: { id?: string; name: string; sql: string }, userId: string | null): Promise<SavedQuery> {
      const clash = await meta.get<{ id: string }>('SELECT id FROM nc_sql_queries WHERE project_id = ? AND db_alias = ? AND name = ?', [projectId, dbAlias, q.name]);
      if (clash && clash.id !== q.id) throw conflict(`A saved query named '${q.name}' already exists`);
      const now = nowIso();
      if (q.id) {
        const done = await meta.run('UPDATE nc_sql_queries SET name = ?, sql = ?, updated_at = ? WHERE id = ? AND project_id = ? AND db_alias = ?', [q.name, q.sql, now, q.id, projectId, dbAlias]);
        if (!done.changes) throw notFound(`Saved query '${q.id}' not found`);
      } else {
        q = { ...q, id: newId('sq') };
        await meta.run('INSERT INTO nc_sql_queries (id, project_id, db_alias, name, sql, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [q.id, projectId, dbAlias, q.name, q.sql, userId, now, now]);
      }
      const row = await meta.get<QueryRow>('SELECT id, name, sql, created_by, created_at, updated_at FROM nc_sql_queries WHERE id = ?', [q.id]);
      return toQuery(row!);
    },
    async deleteQuery(projectId: string, dbAlias: string, id: string): Promise<void> {
      const done = await meta.run('DELETE FROM nc_sql_queries WHERE id = ? AND project_id = ? AND db_alias = ?', [id, projectId, dbAlias]);
      if (!done.changes) throw notFound(`Saved query '${id}' not found`);
    },
    /** Records a run (at the time it started) and drops the user's runs beyond the cap. */
    async addHistory(projectId: string, dbAlias: string, userId: string, e: Omit<HistoryEntry, 'id' | 'ranAt'>, ranAt = runStamp()): Promise<void> {
      await meta.run('INSERT INTO nc_sql_history (id, project_id, db_alias, user_id, sql, status, statements, duration_ms, ran_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
        newId('sh'), projectId, dbAlias, userId, e.sql, e.status, e.statements, Math.round(e.durationMs), ranAt,
      ]);
      const old = await meta.all<{ id: string }>(
        'SELECT id FROM nc_sql_history WHERE project_id = ? AND db_alias = ? AND user_id = ? ORDER BY ran_at DESC, id DESC LIMIT 1000 OFFSET ?',
        [projectId, dbAlias, userId, SQL_HISTORY_MAX],
      );
      for (const o of old) await meta.run('DELETE FROM nc_sql_history WHERE id = ?', [o.id]);
    },
    /** The user's runs on a project database, newest first. */
    async history(projectId: string, dbAlias: string, userId: string): Promise<HistoryEntry[]> {
      const rows = await meta.all<HistoryRow>(
        'SELECT id, sql, status, statements, duration_ms, ran_at FROM nc_sql_history WHERE project_id = ? AND db_alias = ? AND user_id = ? ORDER BY ran_at DESC, id DESC LIMIT ?',
        [projectId, dbAlias, userId, SQL_HISTORY_MAX],
      );
      return rows.map((r) => ({ id: r.id, sql: r.sql, status: r.status, statements: Number(r.statements), durationMs: Number(r.duration_ms), ranAt: r.ran_at }));
    },
    async clearHistory(projectId: string, dbAlias: string, userId: string): Promise<void> {
      await meta.run('DELETE FROM nc_sql_history WHERE project_id = ? AND db_alias = ? AND user_id = ?', [projectId, dbAlias, userId]);
    },
  };
}
