/**
 * Where a view's rows come from: the table's REST API with the user's rights (dashboard), or a
 * shared link's public routes (public pages). Kanban, calendar, gallery and the read-only grid
 * read and write through this, so one component serves both.
 */
import { recordsApi } from '../../api/records';
import type { TableMeta } from '../../api/dashboard';

export type Row = Record<string, unknown>;

/** One page of rows to read; `where` is ANDed with the view's own. */
export interface RowQuery {
  limit: number;
  offset: number;
  where?: string;
  sort?: string;
  /** Text searched in the display column (or, on a shared link, as the server decides). */
  search?: string;
}

/** Rows of one view. `update` and `create` are absent where the reader may not write. */
export interface RowSource {
  list(q: RowQuery): Promise<{ list: Row[]; total?: number }>;
  /** The number of rows matching `where` and the search (null when unknown). */
  count(where?: string, search?: string): Promise<number | null>;
  /** The primary key of a row as the REST API spells it (composite keys joined by '___'). */
  idOf(row: Row): string;
  update?: (row: Row, changes: Row) => Promise<Row>;
  create?: (values: Row) => Promise<Row>;
  /** Whether the reader may change this column (absent: every column `update` takes). */
  mayChange?: (column: string) => boolean;
}

/** True when rows of `source` can be moved by changing `column` (a kanban lane, a calendar date). */
export const canChange = (source: RowSource, column: string) => !!source.update && (!source.mayChange || source.mayChange(column));

/** `(Name,like,%text%)` over the display column, or nothing. */
export function searchWhere(displayColumn: string | null, text: string | undefined): string {
  const t = (text ?? '').trim();
  return displayColumn && t ? `(${displayColumn},like,%${t}%)` : '';
}

const joinWhere = (...parts: (string | undefined)[]) => parts.filter((p) => p && p.trim()).map((p) => (/~(and|or|not)/.test(p!) ? `(${p})` : p)).join('~and');

/** Rows of a table through its REST API (the caller's rights apply). */
export function tableRowSource(projectId: string, meta: TableMeta, opts: { readOnly?: boolean } = {}): RowSource {
  const idOf = (row: Row) => meta.pks.map((pk) => String(row[pk])).join('___');
  const writable = !opts.readOnly && !meta.readOnly && meta.type === 'table';
  return {
    idOf,
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
          update: (row: Row, changes: Row) => recordsApi.update(projectId, meta._tn, idOf(row), changes),
          create: (values: Row) => recordsApi.create(projectId, meta._tn, values),
          // The role's updatable columns, when the server lists them.
          mayChange: (column: string) => !meta.canUpdate || meta.canUpdate.includes(column),
        }
      : {}),
  };
}
