/**
 * What the caller's role may set when adding a row (tableMeta's `canCreateColumns`): the add-row form
 * and form views offer only those columns, say which ones they leave out, and refuse up front when a
 * column a new row cannot do without is among them (the server would refuse the row). Pure (unit tested).
 */
import type { ColumnMeta, TableMeta } from '../../api/dashboard';
import { localeTag, t } from '../../i18n';

export interface CreateRights {
  /** The columns the role may set on a new row. */
  settable: ColumnMeta[];
  /** Columns that could be filled in but the role may not set (the database fills them). */
  left: ColumnMeta[];
  /** Of those, the ones a new row needs (not null, no default): no row can be added here. */
  blocking: ColumnMeta[];
}

/** Whether a new row cannot do without a value of the column (not null, no default, not generated). */
export const needsValue = (c: ColumnMeta) => !c.nullable && !c.ai && (c.default === null || c.default === undefined);

/** The caller's create rights over `cols` (an older server without `canCreateColumns`: every column). */
export function createRights(meta: Pick<TableMeta, 'canCreateColumns'>, cols: ColumnMeta[]): CreateRights {
  const allowed = meta.canCreateColumns ? new Set(meta.canCreateColumns) : null;
  const settable = cols.filter((c) => !allowed || allowed.has(c._cn));
  const left = cols.filter((c) => !settable.includes(c) && !c.ai);
  return { settable, left, blocking: left.filter(needsValue) };
}

const listOf = (cols: ColumnMeta[]) => new Intl.ListFormat(localeTag(), { type: 'conjunction' }).format(cols.map((c) => c._cn));

/** The note a form shows about the columns it leaves out, or null when it leaves none. */
export function createRightsNote(r: CreateRights): string | null {
  if (r.blocking.length) return t('views.form.needsUnsettable', { columns: listOf(r.blocking), count: r.blocking.length });
  if (r.left.length) return t('views.form.notSettable', { columns: listOf(r.left), count: r.left.length });
  return null;
}
