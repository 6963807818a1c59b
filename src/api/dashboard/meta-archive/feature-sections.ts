/**
 * Archive sections of the features that keep metadata of their own: saved views, shared links
 * (their settings: a password is never exported, so a link that had one is not recreated), webhooks
 * (their signing secret is never exported: a url hook gets a new one) and, for the project, cron
 * jobs. Header values that look like credentials are left out of hooks and jobs alike.
 */
import { z } from 'zod';
import type { MetaStore } from '../../../meta/store';
import type { SchemaModel } from '../../../sql/model';
import { newId, nowIso, randomToken } from '../../../lib/ids';
import { seal } from '../../../lib/secret-box';
import { VIEW_TYPES } from '../../../meta/views-repo';
import { normalizeQueryParams } from '../../views/query-params';
import { isAppError } from '../../../lib/errors';
import type { MetaSection } from './sections';

/** Header names whose values are credentials: never exported. */
const SECRET_HEADER = /authorization|token|secret|api[-_]?key|cookie|password/i;

/** A copy of an action/notification without credential header values (their names are kept, empty). */
function withoutSecrets<T>(value: T): T {
  const v = value as Record<string, unknown>;
  if (!v || typeof v !== 'object' || !v.headers || typeof v.headers !== 'object') return value;
  const headers = Object.fromEntries(Object.entries(v.headers as Record<string, string>).map(([k, x]) => [k, SECRET_HEADER.test(k) ? '' : x]));
  return { ...v, headers } as T;
}

const ViewRow = z.object({
  id: z.string().min(1).max(100),
  tn: z.string().min(1).max(255),
  title: z.string().min(1).max(255),
  type: z.enum(VIEW_TYPES),
  view_order: z.number(),
  query_params: z.record(z.string(), z.unknown()),
  is_default: z.number().int(),
});
type ViewRow = z.infer<typeof ViewRow>;

/** Saved views; their query_params are checked again against this database's tables. */
export const viewsSection: MetaSection<ViewRow> = {
  name: 'views',
  rows: z.array(ViewRow),
  read: (meta, projectId, dbAlias) =>
    meta
      .all<Omit<ViewRow, 'query_params'> & { query_params: string }>('SELECT id, tn, title, type, view_order, query_params, is_default FROM nc_views WHERE project_id = ? AND db_alias = ? ORDER BY tn, view_order', [projectId, dbAlias])
      .then((rows) => rows.map((r) => ({ ...r, view_order: Number(r.view_order), is_default: Number(r.is_default), query_params: JSON.parse(r.query_params) }))),
  check(rows, model, skip) {
    return rows.filter((r) => {
      const t = model.tables.find((x) => x.tn === r.tn);
      if (!t) return skip(`view '${r.title}' of '${r.tn}': the table is not in this database`), false;
      try {
        r.query_params = normalizeQueryParams(t, r.type, r.query_params);
        return true;
      } catch (e) {
        skip(`view '${r.title}' of '${r.tn}': ${isAppError(e) ? e.message : 'its settings do not fit this table'}`);
        return false;
      }
    });
  },
  clear: async (tx, projectId, dbAlias) => {
    await tx.run('DELETE FROM nc_shared_views WHERE project_id = ? AND db_alias = ?', [projectId, dbAlias]);
    await tx.run('DELETE FROM nc_views WHERE project_id = ? AND db_alias = ?', [projectId, dbAlias]);
  },
  async write(tx, projectId, dbAlias, rows) {
    for (const r of rows) {
      // The same id is kept when free (links of the archive point at it); a copy onto another project gets new ones.
      const taken = await tx.get('SELECT 1 AS x FROM nc_views WHERE id = ?', [r.id]);
      const id = taken ? newId('vw') : r.id;
      idMap.set(r.id, id);
      await tx.run(
        'INSERT INTO nc_views (id, project_id, db_alias, tn, title, type, view_order, query_params, is_default, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)',
        [id, projectId, dbAlias, r.tn, r.title, r.type, r.view_order, JSON.stringify(r.query_params), r.is_default, nowIso(), nowIso()],
      );
    }
  },
};

/** Ids of views written by the last import, archive id -> new id (shared links follow them). */
const idMap = new Map<string, string>();

const LinkRow = z.object({ uuid: z.string().min(1).max(100), view_id: z.string().min(1), allow_csv_download: z.number().int(), has_password: z.boolean(), created_by: z.string().nullable() });
type LinkRow = z.infer<typeof LinkRow>;

/** Shared links of the views, without passwords. */
export const sharedViewsSection: MetaSection<LinkRow> = {
  name: 'sharedViews',
  rows: z.array(LinkRow),
  read: (meta, projectId, dbAlias) =>
    meta
      .all<{ uuid: string; view_id: string; allow_csv_download: number; password_hash: string | null; created_by: string | null }>(
        'SELECT uuid, view_id, allow_csv_download, password_hash, created_by FROM nc_shared_views WHERE project_id = ? AND db_alias = ? ORDER BY created_at',
        [projectId, dbAlias],
      )
      .then((rows) => rows.map((r) => ({ uuid: r.uuid, view_id: r.view_id, allow_csv_download: Number(r.allow_csv_download), has_password: !!r.password_hash, created_by: r.created_by }))),
  check(rows, _model, skip) {
    return rows.filter((r) => {
      if (r.has_password) skip(`shared link ${r.uuid}: it had a password, which an export never holds; share the view again`);
      return !r.has_password;
    });
  },
  clear: async () => {},
  async write(tx, projectId, dbAlias, rows) {
    for (const r of rows) {
      const viewId = idMap.get(r.view_id);
      if (!viewId || !r.created_by) continue;
      const creator = await tx.get('SELECT 1 AS x FROM nc_users WHERE id = ?', [r.created_by]);
      if (!creator) continue;
      const taken = await tx.get('SELECT 1 AS x FROM nc_shared_views WHERE uuid = ?', [r.uuid]);
      await tx.run(
        'INSERT INTO nc_shared_views (uuid, view_id, project_id, db_alias, password_hash, allow_csv_download, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?)',
        [taken ? crypto.randomUUID() : r.uuid, viewId, projectId, dbAlias, r.allow_csv_download, r.created_by, nowIso(), nowIso()],
      );
    }
  },
};

const HookRow = z.object({
  title: z.string().min(1).max(255),
  tn: z.string().min(1).max(255),
  event: z.enum(['after.insert', 'after.update', 'after.delete']),
  where_cond: z.string().max(4000).nullable(),
  active: z.number().int(),
  notification: z.object({ type: z.string() }).loose(),
});
type HookRow = z.infer<typeof HookRow>;

/** Webhooks (a url hook's signing secret is made anew on import). */
export function hooksSection(connectionKey: () => string): MetaSection<HookRow> {
  return {
    name: 'hooks',
    rows: z.array(HookRow),
    read: (meta, projectId, dbAlias) =>
      meta
        .all<{ title: string; tn: string; event: string; where_cond: string | null; active: number; notification: string }>(
          'SELECT title, tn, event, where_cond, active, notification FROM nc_hooks WHERE project_id = ? AND db_alias = ? ORDER BY created_at',
          [projectId, dbAlias],
        )
        .then((rows) => rows.map((r) => ({ ...r, event: r.event as HookRow['event'], active: Number(r.active), notification: withoutSecrets(JSON.parse(r.notification)) }))),
    check(rows, model: SchemaModel, skip) {
      return rows.filter((r) => model.tables.some((t) => t.tn === r.tn) || (skip(`webhook '${r.title}' of '${r.tn}': the table is not in this database`), false));
    },
    clear: async (tx, projectId, dbAlias) => {
      await tx.run('DELETE FROM nc_hooks WHERE project_id = ? AND db_alias = ?', [projectId, dbAlias]);
    },
    async write(tx, projectId, dbAlias, rows) {
      for (const r of rows) {
        const secret = r.notification.type === 'url' ? seal(connectionKey(), randomToken(32)) : null;
        await tx.run(
          'INSERT INTO nc_hooks (id, project_id, db_alias, tn, title, event, where_cond, active, notification, secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
          [newId('hk'), projectId, dbAlias, r.tn, r.title, r.event, r.where_cond, r.active, JSON.stringify(r.notification), secret, nowIso(), nowIso()],
        );
      }
    },
  };
}

const CronRow = z.object({
  title: z.string().min(1).max(255),
  pattern: z.string().min(1).max(200),
  timezone: z.string().min(1).max(100),
  active: z.number().int(),
  action: z.object({ type: z.enum(['url', 'sql']) }).loose(),
});
type CronRow = z.infer<typeof CronRow>;

/** Cron jobs of the project (a project-wide section: `project/crons.json`). */
export const cronsSection: MetaSection<CronRow> = {
  name: 'crons',
  rows: z.array(CronRow),
  read: (meta: MetaStore, projectId: string) =>
    meta
      .all<{ title: string; pattern: string; timezone: string; active: number; action: string }>('SELECT title, pattern, timezone, active, action FROM nc_crons WHERE project_id = ? ORDER BY created_at', [projectId])
      .then((rows) => rows.map((r) => ({ ...r, active: Number(r.active), action: withoutSecrets(JSON.parse(r.action)) }))),
  check: (rows) => rows,
  clear: async (tx, projectId) => {
    await tx.run('DELETE FROM nc_crons WHERE project_id = ?', [projectId]);
  },
  async write(tx, projectId, _dbAlias, rows) {
    for (const r of rows) {
      await tx.run('INSERT INTO nc_crons (id, project_id, title, pattern, timezone, active, action, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)', [
        newId('cr'), projectId, r.title, r.pattern, r.timezone, r.active, JSON.stringify(r.action), nowIso(), nowIso(),
      ]);
    }
  },
};
