/** A view's rows through the table's REST API, with the signed-in user's rights (the dashboard). */
import { recordsApi } from '../../api/records';
import { fileLink } from '../../api/attachments';
import type { TableMeta } from '../../api/dashboard';
import { joinWhere, searchWhere, type Row, type RowSource } from './row-source';
import { noteOwnWrite } from './own-writes';

/** The primary key of a row as the REST API spells it (composite keys joined by '___'). */
export const rowIdOf = (meta: TableMeta) => (row: Row) => meta.pks.map((pk) => String(row[pk])).join('___');

/** Rows of a table through its REST API (the caller's rights apply). */
export function tableRowSource(projectId: string, meta: TableMeta, opts: { readOnly?: boolean } = {}): RowSource {
  const idOf = rowIdOf(meta);
  const writable = !opts.readOnly && !meta.readOnly && meta.type === 'table';
  return {
    idOf,
    fileLink: (row, column, fileId) => fileLink(projectId, meta._tn, idOf(row), column, fileId),
    async list(q) {
      const where = joinWhere(q.where, searchWhere(meta.displayColumn, q.search));
      const list = await recordsApi.list(projectId, meta._tn, { limit: q.limit, offset: q.offset, where: where || undefined, sort: q.sort || undefined });
      return { list };
    },
    async count(where, search) {
      try {
        return (await recordsApi.count(projectId, meta._tn, joinWhere(where, searchWhere(meta.displayColumn, search)) || undefined)).count;
      } catch {
        return null;
      }
    },
    ...(writable
      ? {
          async update(row: Row, changes: Row) {
            const saved = noteOwnWrite(projectId, meta._tn, idOf(row), changes);
            const after = await recordsApi.update(projectId, meta._tn, idOf(row), changes);
            saved(after);
            return after;
          },
          create: (values: Row) => recordsApi.create(projectId, meta._tn, values),
          // The role's updatable columns, when the server lists them.
          mayChange: (column: string) => !meta.canUpdate || meta.canUpdate.includes(column),
        }
      : {}),
  };
}
