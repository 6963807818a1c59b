/**
 * Webhooks (nc_hooks): one row per hook of a table, its notification as JSON and the signing
 * secret of url hooks sealed with the connection key. The active hooks of a table are cached for
 * a second: writes ask for them on every committed write, and another instance sharing the store
 * sees a change within that second.
 */
import type { MetaStore } from './store';
import { newId, nowIso } from '../lib/ids';
import { cacheFor, type TtlCache } from '../lib/ttl-cache';

/** A hook as stored. */
export interface HookRecord {
  id: string;
  project_id: string;
  db_alias: string;
  tn: string;
  title: string;
  event: string;
  where_cond: string | null;
  active: number;
  /** JSON of the notification. */
  notification: string;
  /** Sealed signing secret (url hooks). */
  secret: string | null;
  created_at: string;
  updated_at: string;
}

export type HookInput = Pick<HookRecord, 'project_id' | 'db_alias' | 'tn' | 'title' | 'event' | 'where_cond' | 'active' | 'notification' | 'secret'>;

const TABLE_CACHE_MS = 1000;
const caches = new WeakMap<MetaStore, TtlCache<string, HookRecord[]>>();
const key = (projectId: string, dbAlias: string, tn: string) => `${projectId}\u0000${dbAlias}\u0000${tn}`;

/** The hooks repository over a metadata store. */
export function hooksRepo(meta: MetaStore) {
  const cache = cacheFor(caches, meta.root ?? meta, TABLE_CACHE_MS);
  return {
    async create(input: HookInput): Promise<HookRecord> {
      const now = nowIso();
      const row: HookRecord = { id: newId('hk'), ...input, created_at: now, updated_at: now };
      await meta.run(
        `INSERT INTO nc_hooks (id, project_id, db_alias, tn, title, event, where_cond, active, notification, secret, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.id, row.project_id, row.db_alias, row.tn, row.title, row.event, row.where_cond, row.active, row.notification, row.secret, now, now],
      );
      cache.delete(key(row.project_id, row.db_alias, row.tn));
      return row;
    },
    byId: (id: string) => meta.get<HookRecord>('SELECT * FROM nc_hooks WHERE id = ?', [id]),
    /** Hooks of a project (database and table when given), oldest first. */
    list: (projectId: string, dbAlias?: string, tn?: string) =>
      meta.all<HookRecord>(
        `SELECT * FROM nc_hooks WHERE project_id = ?${dbAlias ? ' AND db_alias = ?' : ''}${tn ? ' AND tn = ?' : ''} ORDER BY created_at, id`,
        [projectId, ...(dbAlias ? [dbAlias] : []), ...(tn ? [tn] : [])],
      ),
    /** The active hooks of a table, cached for a second. */
    async activeFor(projectId: string, dbAlias: string, tn: string): Promise<HookRecord[]> {
      const k = key(projectId, dbAlias, tn);
      const hit = cache.get(k);
      if (hit) return hit;
      const rows = await meta.all<HookRecord>('SELECT * FROM nc_hooks WHERE project_id = ? AND db_alias = ? AND tn = ? AND active = 1 ORDER BY created_at, id', [projectId, dbAlias, tn]);
      cache.set(k, rows);
      return rows;
    },
    async update(h: HookRecord): Promise<void> {
      await meta.run('UPDATE nc_hooks SET title = ?, event = ?, where_cond = ?, active = ?, notification = ?, secret = ?, updated_at = ? WHERE id = ?', [
        h.title, h.event, h.where_cond, h.active, h.notification, h.secret, nowIso(), h.id,
      ]);
      cache.delete(key(h.project_id, h.db_alias, h.tn));
    },
    async remove(h: HookRecord): Promise<void> {
      await meta.run('DELETE FROM nc_hooks WHERE id = ?', [h.id]);
      cache.delete(key(h.project_id, h.db_alias, h.tn));
    },
  };
}
