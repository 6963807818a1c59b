/** What each kind of view needs from the table: lane, date and cover columns. Pure. */
import type { ColumnMeta } from '../../api/dashboard';
import type { ViewType } from '../../api/views';
import { t } from '../../i18n';

/** Columns a kanban can take its lanes from. */
export const laneColumns = (cols: ColumnMeta[]) => cols.filter((c) => c.uidt === 'SingleSelect' && !c.hidden);
/** Columns a calendar can lay entries out by. */
export const dateColumns = (cols: ColumnMeta[]) => cols.filter((c) => (c.uidt === 'Date' || c.uidt === 'DateTime' || c.kind === 'date' || c.kind === 'datetime') && !c.hidden);
/** Columns a gallery can take its cover image from. */
export const coverColumns = (cols: ColumnMeta[]) => cols.filter((c) => c.uidt === 'Attachment' && !c.hidden);

/** Why a kind cannot be made on this table, or null. */
export function kindProblem(type: ViewType, cols: ColumnMeta[], isTable: boolean, hasKey = true): string | null {
  if (type === 'kanban' && !laneColumns(cols).length) return t('views.kind.kanbanNeedsLanes');
  if (type === 'calendar' && !dateColumns(cols).length) return t('views.kind.calendarNeedsDate');
  if (type === 'form' && !isTable) return t('views.kind.formNeedsTable');
  if (type === 'form' && !hasKey) return t('views.kind.formNeedsKey');
  return null;
}

/** The choices of a select column, in their order. */
export function choicesOf(c: ColumnMeta | undefined): { title: string; color: string }[] {
  if (!c) return [];
  if (c.meta?.options?.length) return c.meta.options;
  return (c.enumValues ?? []).map((title) => ({ title, color: '#e2e8f0' }));
}
