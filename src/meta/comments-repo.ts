/** Comments on rows (nc_comments), kept by table SQL name and row id. */
import type { MetaStore } from './store';
import { nowIso, randomSlug } from '../lib/ids';

export interface CommentRow {
  id: string;
  tn: string;
  pk: string;
  user_id: string | null;
  user_email: string | null;
  body: string;
  created_at: string;
  /** When the body was last edited; null if never. */
  updated_at: string | null;
}

/** Comments made in the same millisecond by this process, told apart in order. */
let sequence = 0;
/** An id that sorts in the order comments were made: time, a counter, then randomness. */
function orderedId(): string {
  sequence = (sequence + 1) % 36 ** 4;
  return `cm_${Date.now().toString(36).padStart(9, '0')}${sequence.toString(36).padStart(4, '0')}${randomSlug(6)}`;
}

export function commentsRepo(meta: MetaStore) {
  return {
    /** The comments of one row, oldest first. */
    list: (projectId: string, dbAlias: string, tn: string, pk: string) =>
      meta.all<CommentRow>('SELECT id, tn, pk, user_id, user_email, body, created_at, updated_at FROM nc_comments WHERE project_id = ? AND db_alias = ? AND tn = ? AND pk = ? ORDER BY id', [projectId, dbAlias, tn, pk]),
    /** One comment of a project database by its id, or undefined. */
    get: (projectId: string, dbAlias: string, id: string) =>
      meta.get<CommentRow>('SELECT id, tn, pk, user_id, user_email, body, created_at, updated_at FROM nc_comments WHERE project_id = ? AND db_alias = ? AND id = ?', [projectId, dbAlias, id]),
    async add(projectId: string, dbAlias: string, c: Omit<CommentRow, 'id' | 'created_at' | 'updated_at'>): Promise<CommentRow> {
      const row = { ...c, id: orderedId(), created_at: nowIso(), updated_at: null };
      await meta.run('INSERT INTO nc_comments (id, project_id, db_alias, tn, pk, user_id, user_email, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
        row.id, projectId, dbAlias, row.tn, row.pk, row.user_id, row.user_email, row.body, row.created_at,
      ]);
      return row;
    },
    /** Replaces a comment's body; its creation time stays, `updated_at` becomes now. Answers the new `updated_at`. */
    async edit(projectId: string, dbAlias: string, id: string, body: string): Promise<string> {
      const at = nowIso();
      await meta.run('UPDATE nc_comments SET body = ?, updated_at = ? WHERE project_id = ? AND db_alias = ? AND id = ?', [body, at, projectId, dbAlias, id]);
      return at;
    },
    /** Removes a comment (the row's comment count follows, being counted from this table). */
    remove: (projectId: string, dbAlias: string, id: string) =>
      meta.run('DELETE FROM nc_comments WHERE project_id = ? AND db_alias = ? AND id = ?', [projectId, dbAlias, id]),
    /** Moves the comments of table `from` to its new name `to` (a table renamed through Tablo). */
    renameTable: (projectId: string, dbAlias: string, from: string, to: string) =>
      meta.run('UPDATE nc_comments SET tn = ? WHERE project_id = ? AND db_alias = ? AND tn = ?', [to, projectId, dbAlias, from]),
    /** How many comments each of `pks` has (rows without comments are left out). */
    async counts(projectId: string, dbAlias: string, tn: string, pks: string[]): Promise<Map<string, number>> {
      if (pks.length === 0) return new Map();
      const rows = await meta.all<{ pk: string; n: number }>(
        `SELECT pk, COUNT(*) AS n FROM nc_comments WHERE project_id = ? AND db_alias = ? AND tn = ? AND pk IN (${pks.map(() => '?').join(', ')}) GROUP BY pk`,
        [projectId, dbAlias, tn, ...pks],
      );
      return new Map(rows.map((r) => [r.pk, Number(r.n)]));
    },
  };
}
