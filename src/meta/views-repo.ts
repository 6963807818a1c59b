/**
 * Saved views (nc_views) and the public links that share them (nc_shared_views). Views are kept
 * per project database and table SQL name; their query_params name columns by SQL name. Link
 * passwords are stored as argon2id hashes only.
 */
import type { MetaStore } from './store';
import { newId, nowIso } from '../lib/ids';
import type { FormField, RowHeight, ViewField, ViewType } from '../../common/views';

export { VIEW_TYPES, type ViewType, type ViewField, type FormField } from '../../common/views';

/** What a view keeps (api-contract section 6); columns by SQL name. Other keys are kept as they are. */
export interface ViewQueryParams {
  where?: string;
  sort?: string;
  fields?: ViewField[];
  rowHeight?: RowHeight;
  groupBy?: string;
  coverColumn?: string;
  dateColumn?: string;
  endDateColumn?: string;
  form?: { heading?: string; subheading?: string; submitMessage?: string; redirectUrl?: string; fields?: FormField[] };
  [key: string]: unknown;
}

/** A stored view (query_params parsed). */
export interface ViewRow {
  id: string;
  project_id: string;
  db_alias: string;
  tn: string;
  title: string;
  type: ViewType;
  order: number;
  query_params: ViewQueryParams;
  is_default: boolean;
  created_by: string | null;
}

/** A stored public link; `password_hash` is an argon2id hash or null. */
export interface SharedLinkRow {
  uuid: string;
  view_id: string;
  project_id: string;
  db_alias: string;
  password_hash: string | null;
  allow_csv_download: boolean;
  created_by: string;
}

/** The title of the view every table starts with. */
export const DEFAULT_VIEW_TITLE = 'Grid view';

type RawView = Omit<ViewRow, 'order' | 'query_params' | 'is_default'> & { view_order: number; query_params: string; is_default: number };
type RawLink = Omit<SharedLinkRow, 'allow_csv_download'> & { allow_csv_download: number };

const VIEW_COLS = 'id, project_id, db_alias, tn, title, type, view_order, query_params, is_default, created_by';
const LINK_COLS = 'uuid, view_id, project_id, db_alias, password_hash, allow_csv_download, created_by';

function toView(r: RawView): ViewRow {
  let qp: ViewQueryParams = {};
  try {
    qp = JSON.parse(r.query_params) as ViewQueryParams;
  } catch {}
  return { id: r.id, project_id: r.project_id, db_alias: r.db_alias, tn: r.tn, title: r.title, type: r.type, order: Number(r.view_order), query_params: qp, is_default: !!Number(r.is_default), created_by: r.created_by };
}

const toLink = (r: RawLink): SharedLinkRow => ({ ...r, allow_csv_download: !!Number(r.allow_csv_download) });

const repos = new WeakMap<MetaStore, ReturnType<typeof makeViewsRepo>>();

/** The views repository over a metadata store (one object per store). */
export function viewsRepo(meta: MetaStore) {
  let repo = repos.get(meta);
  if (!repo) repos.set(meta, (repo = makeViewsRepo(meta)));
  return repo;
}

function makeViewsRepo(meta: MetaStore) {
  return {
    /** Views of one table, in their order. */
    async list(projectId: string, dbAlias: string, tn: string): Promise<ViewRow[]> {
      const rows = await meta.all<RawView>(`SELECT ${VIEW_COLS} FROM nc_views WHERE project_id = ? AND db_alias = ? AND tn = ? ORDER BY view_order, created_at, id`, [projectId, dbAlias, tn]);
      return rows.map(toView);
    },
    /** One view of a project database by id. */
    async get(projectId: string, dbAlias: string, id: string): Promise<ViewRow | undefined> {
      const r = await meta.get<RawView>(`SELECT ${VIEW_COLS} FROM nc_views WHERE project_id = ? AND db_alias = ? AND id = ?`, [projectId, dbAlias, id]);
      return r && toView(r);
    },
    /** One view by id, whatever its project (shared links). */
    async byId(id: string): Promise<ViewRow | undefined> {
      const r = await meta.get<RawView>(`SELECT ${VIEW_COLS} FROM nc_views WHERE id = ?`, [id]);
      return r && toView(r);
    },
    /** Stores a new view; answers it. A title taken on the table fails with the store's unique error. */
    async create(v: { projectId: string; dbAlias: string; tn: string; title: string; type: ViewType; order: number; queryParams: ViewQueryParams; isDefault?: boolean; createdBy: string | null }): Promise<ViewRow> {
      const id = newId('vw');
      const now = nowIso();
      await meta.run(
        `INSERT INTO nc_views (id, project_id, db_alias, tn, title, type, view_order, query_params, is_default, created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [id, v.projectId, v.dbAlias, v.tn, v.title, v.type, v.order, JSON.stringify(v.queryParams), v.isDefault ? 1 : 0, v.createdBy, now, now],
      );
      return (await this.get(v.projectId, v.dbAlias, id))!;
    },
    /** The default grid view of a table, made when the table has none (safe when two calls race). */
    async ensureDefault(projectId: string, dbAlias: string, tn: string, createdBy: string | null): Promise<void> {
      const now = nowIso();
      await meta.run(
        `INSERT INTO nc_views (id, project_id, db_alias, tn, title, type, view_order, query_params, is_default, created_by, created_at, updated_at)
         SELECT ?, ?, ?, ?, ?, 'grid', 0, '{}', 1, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM nc_views WHERE project_id = ? AND db_alias = ? AND tn = ? AND is_default = 1)
         ON CONFLICT DO NOTHING`,
        [newId('vw'), projectId, dbAlias, tn, DEFAULT_VIEW_TITLE, createdBy, now, now, projectId, dbAlias, tn],
      );
    },
    async update(id: string, v: { title?: string; order?: number; queryParams?: ViewQueryParams }): Promise<void> {
      const sets: string[] = [];
      const params: unknown[] = [];
      const set = (column: string, value: unknown) => {
        sets.push(`${column} = ?`);
        params.push(value);
      };
      if (v.title !== undefined) set('title', v.title);
      if (v.order !== undefined) set('view_order', v.order);
      if (v.queryParams !== undefined) set('query_params', JSON.stringify(v.queryParams));
      await meta.run(`UPDATE nc_views SET ${[...sets, 'updated_at = ?'].join(', ')} WHERE id = ?`, [...params, nowIso(), id]);
    },
    /** Deletes a view and its shared links. */
    delete: (id: string) =>
      meta.transaction(async (tx) => {
        await tx.run('DELETE FROM nc_shared_views WHERE view_id = ?', [id]);
        await tx.run('DELETE FROM nc_views WHERE id = ?', [id]);
      }),
    /** Follows a table renamed through Tablo. */
    renameTable: (projectId: string, dbAlias: string, from: string, to: string) =>
      meta.run('UPDATE nc_views SET tn = ? WHERE project_id = ? AND db_alias = ? AND tn = ?', [to, projectId, dbAlias, from]),
    /** Forgets the views (and links) of a dropped table. */
    dropTable: (projectId: string, dbAlias: string, tn: string) =>
      meta.transaction(async (tx) => {
        await tx.run('DELETE FROM nc_shared_views WHERE view_id IN (SELECT id FROM nc_views WHERE project_id = ? AND db_alias = ? AND tn = ?)', [projectId, dbAlias, tn]);
        await tx.run('DELETE FROM nc_views WHERE project_id = ? AND db_alias = ? AND tn = ?', [projectId, dbAlias, tn]);
      }),

    /** Stores a new public link to a view. */
    async createLink(l: { viewId: string; projectId: string; dbAlias: string; passwordHash: string | null; allowCsvDownload: boolean; createdBy: string }): Promise<string> {
      const uuid = crypto.randomUUID();
      const now = nowIso();
      await meta.run(
        `INSERT INTO nc_shared_views (uuid, view_id, project_id, db_alias, password_hash, allow_csv_download, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [uuid, l.viewId, l.projectId, l.dbAlias, l.passwordHash, l.allowCsvDownload ? 1 : 0, l.createdBy, now, now],
      );
      return uuid;
    },
    async link(uuid: string): Promise<SharedLinkRow | undefined> {
      const r = await meta.get<RawLink>(`SELECT ${LINK_COLS} FROM nc_shared_views WHERE uuid = ?`, [uuid]);
      return r && toLink(r);
    },
    /** Links of a project database (of one table when `tn` is given), with their views' title and type. */
    async links(projectId: string, dbAlias: string, tn?: string): Promise<(SharedLinkRow & { title: string; type: ViewType; tn: string })[]> {
      const rows = await meta.all<RawLink & { title: string; type: ViewType; tn: string }>(
        `SELECT s.uuid, s.view_id, s.project_id, s.db_alias, s.password_hash, s.allow_csv_download, s.created_by, v.title, v.type, v.tn
         FROM nc_shared_views s JOIN nc_views v ON v.id = s.view_id
         WHERE s.project_id = ? AND s.db_alias = ?${tn === undefined ? '' : ' AND v.tn = ?'} ORDER BY v.view_order, s.created_at, s.uuid`,
        tn === undefined ? [projectId, dbAlias] : [projectId, dbAlias, tn],
      );
      return rows.map((r) => ({ ...toLink(r), title: r.title, type: r.type, tn: r.tn }));
    },
    setLinkPassword: (uuid: string, passwordHash: string | null) => meta.run('UPDATE nc_shared_views SET password_hash = ?, updated_at = ? WHERE uuid = ?', [passwordHash, nowIso(), uuid]),
    setLinkCsv: (uuid: string, allow: boolean) => meta.run('UPDATE nc_shared_views SET allow_csv_download = ?, updated_at = ? WHERE uuid = ?', [allow ? 1 : 0, nowIso(), uuid]),
    deleteLink: (uuid: string) => meta.run('DELETE FROM nc_shared_views WHERE uuid = ?', [uuid]),
  };
}
