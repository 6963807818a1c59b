/**
 * Where a view's rows come from: the table's REST API with the user's rights (dashboard), or a
 * shared link's public routes (public pages). Kanban, calendar, gallery and the read-only grid
 * read and write through this, so one component serves both.
 */
import { containsPattern } from '../../lib/like-pattern';

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
  /** True when every page answer carries the total (no separate count is asked). */
  pageTotals?: boolean;
  /**
   * A short-lived link to a file uploaded to a row's Attachment cell: asked for by the dashboard; a
   * shared link's rows carry theirs, and this reads them again once one expired.
   */
  fileLink?: (row: Row, column: string, fileId: string) => Promise<string>;
  /** Whether the reader may change this column (absent: every column `update` takes). */
  mayChange?: (column: string) => boolean;
}

/** True when rows of `source` can be moved by changing `column` (a kanban lane, a calendar date). */
export const canChange = (source: RowSource, column: string) => !!source.update && (!source.mayChange || source.mayChange(column));

/** `(Name,like,%text%)` over the display column, or nothing. */
export function searchWhere(displayColumn: string | null, text: string | undefined): string {
  const t = (text ?? '').trim();
  return displayColumn && t ? `(${displayColumn},like,${containsPattern(t)})` : '';
}

/** ANDs where texts, each grouped when it joins several terms. */
export const joinWhere = (...parts: (string | undefined)[]) => parts.filter((p) => p && p.trim()).map((p) => (/~(and|or|not)/.test(p!) ? `(${p})` : p)).join('~and');
