/**
 * User metadata of tables (display name, hidden columns, column aliases, order), kept by SQL
 * name so a schema sync can re-apply it to objects that still exist.
 */
import type { MetaStore } from './store';
import { nowIso } from '../lib/ids';
import type { ColumnTypeMeta, UiType } from '../sql/model';

/** User metadata of one column. */
export interface ColumnUserMeta {
  _cn?: string;
  hidden?: boolean;
  order?: number;
  uidt?: UiType;
  options?: string[];
  /** Options of the logical type (currency, rating maximum, choice colours...). */
  meta?: ColumnTypeMeta;
}

export interface TableUserMeta {
  _tn?: string;
  hidden?: boolean;
  /**
   * Per SQL column name: display name, hidden flag, display order, and the logical type (with the
   * choices of a select) when the native type cannot tell it (Email, Currency, SingleSelect...).
   */
  columns?: Record<string, ColumnUserMeta>;
  /** Virtual columns, in display order, kept by SQL names (see StoredVirtual). */
  virtuals?: StoredVirtual[];
}

/**
 * A relation as stored: its type, the other table and what tells it apart from relations of the
 * same type to the same table (the child's foreign-key columns, or the junction table for mm).
 */
export interface StoredRelation {
  type: 'hm' | 'bt' | 'mm';
  rtn: string;
  via: string[];
}

/**
 * A virtual column as stored: formulas in canonical text (`{c:sql_name}`, `{v:Virtual alias}`),
 * rollups and lookups by relation and SQL column name, so display renames need no rewrite.
 */
export interface StoredVirtual {
  _cn: string;
  uidt: 'Formula' | 'Rollup' | 'Lookup';
  formula?: { expr: string; error?: string };
  rollup?: { rel: StoredRelation; cn: string; fn: 'count' | 'min' | 'max' | 'avg' | 'sum' | 'countDistinct' };
  lookup?: { rel: StoredRelation; cn: string };
  /** Why the column no longer works (a referenced column or relation was dropped). */
  error?: string;
}

export function modelsRepo(meta: MetaStore) {
  return {
    async all(projectId: string, dbAlias: string): Promise<Map<string, TableUserMeta>> {
      const rows = await meta.all<{ tn: string; meta: string }>(
        'SELECT tn, meta FROM nc_models WHERE project_id = ? AND db_alias = ?',
        [projectId, dbAlias],
      );
      return new Map(rows.map((r) => [r.tn, JSON.parse(r.meta) as TableUserMeta]));
    },
    set: (projectId: string, dbAlias: string, tn: string, m: TableUserMeta) =>
      meta.run(
        `INSERT INTO nc_models (project_id, db_alias, tn, meta, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (project_id, db_alias, tn) DO UPDATE SET meta = excluded.meta, updated_at = excluded.updated_at`,
        [projectId, dbAlias, tn, JSON.stringify(m), nowIso()],
      ),
    remove: (projectId: string, dbAlias: string, tn: string) =>
      meta.run('DELETE FROM nc_models WHERE project_id = ? AND db_alias = ? AND tn = ?', [projectId, dbAlias, tn]),
  };
}
