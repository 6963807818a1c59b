/**
 * Files uploaded to Attachment cells (nc_files): which project, table, column and row hold them and
 * where they are stored. Rows are 'pending' until the cell write commits, then 'attached'; the
 * sweep (src/attachments/sweep.ts) removes the ones no row holds any more.
 */
import type { MetaStore } from './store';
import { nowIso } from '../lib/ids';

export interface StoredFile {
  id: string;
  project_id: string;
  db_alias: string;
  tn: string;
  cn: string;
  pk: string;
  storage: string;
  storage_key: string;
  name: string;
  mimetype: string;
  size: number;
  state: 'pending' | 'attached';
  created_at: string;
}

export function filesRepo(meta: MetaStore) {
  return {
    async addPending(f: Omit<StoredFile, 'state' | 'created_at'>): Promise<void> {
      await meta.run(
        'INSERT INTO nc_files (id, project_id, db_alias, tn, cn, pk, storage, storage_key, name, mimetype, size, state, check_due, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)',
        [f.id, f.project_id, f.db_alias, f.tn, f.cn, f.pk, f.storage, f.storage_key, f.name, f.mimetype, f.size, 'pending', nowIso()],
      );
    },
    async markAttached(ids: string[]): Promise<void> {
      for (const id of ids) await meta.run("UPDATE nc_files SET state = 'attached' WHERE id = ?", [id]);
    },
    /** Files uploaded before their row exists (src/attachments/form-uploads.ts): attached to the row `pk` once it is made. */
    async attachTo(ids: string[], pk: string): Promise<void> {
      for (const id of ids) await meta.run("UPDATE nc_files SET state = 'attached', pk = ? WHERE id = ? AND state = 'pending'", [pk, id]);
    },
    /** Restarts a pending file's grace period (its row is being written now). */
    async touchPending(id: string): Promise<void> {
      await meta.run("UPDATE nc_files SET created_at = ? WHERE id = ? AND state = 'pending'", [nowIso(), id]);
    },
    get: (id: string) => meta.get<StoredFile>('SELECT * FROM nc_files WHERE id = ?', [id]),
    /** The attached files among `ids`, a few hundred ids per query. */
    async attachedAmong(ids: string[]): Promise<StoredFile[]> {
      const out: StoredFile[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        const part = ids.slice(i, i + 500);
        out.push(...(await meta.all<StoredFile>(`SELECT * FROM nc_files WHERE state = 'attached' AND id IN (${part.map(() => '?').join(', ')})`, part)));
      }
      return out;
    },
    /** Pending files created before `before` (their write never committed). */
    stalePending: (before: string) => meta.all<StoredFile>("SELECT * FROM nc_files WHERE state = 'pending' AND created_at < ?", [before]),
    /** Attached files to check: all of them, or those whose table saw an update or delete since. */
    attached: (onlyDue: boolean) => meta.all<StoredFile>(`SELECT * FROM nc_files WHERE state = 'attached'${onlyDue ? ' AND check_due = 1' : ''} ORDER BY project_id, db_alias, tn`),
    /** Flags the attached files of a table for the next sweep. */
    async flagTable(projectId: string, dbAlias: string, tn: string): Promise<void> {
      await meta.run("UPDATE nc_files SET check_due = 1 WHERE project_id = ? AND db_alias = ? AND tn = ? AND state = 'attached'", [projectId, dbAlias, tn]);
    },
    async checked(id: string): Promise<void> {
      await meta.run('UPDATE nc_files SET check_due = 0 WHERE id = ?', [id]);
    },
    /** How many files a storage holds (by what is stored with them: 'S3', 'Local:<folder>'). */
    async countIn(storage: string): Promise<number> {
      return Number((await meta.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM nc_files WHERE storage = ?', [storage]))?.n ?? 0);
    },
    async remove(id: string): Promise<void> {
      await meta.run('DELETE FROM nc_files WHERE id = ?', [id]);
    },
  };
}
