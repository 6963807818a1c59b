/** The grid's row height: short, medium or tall (kept in the view). */
import type { RowHeight } from '../../api/views';
import type { GridStore } from './grid-store';
import { Rows3 } from 'lucide-react';
import { t } from '../../i18n';

export const HEIGHTS: RowHeight[] = ['short', 'medium', 'tall'];

/** A row height's name in the current language. */
export const heightLabel = (h: RowHeight) => (h === 'short' ? t('grid.rowHeight.short') : h === 'medium' ? t('grid.rowHeight.medium') : t('grid.rowHeight.tall'));

/** The row height picker of the grid's toolbar (a native select: keyboard and screen readers know it). */
export function RowHeightMenu(props: { store: GridStore }) {
  return (
    <label className="toolbar-select">
      <span className="muted toolbar-label">{t('grid.rowHeight.label')}</span>
      <Rows3 size={15} className="toolbar-icon muted" aria-hidden />
      <select aria-label={t('grid.rowHeight.label')} value={props.store.rowHeight.value} onChange={(e) => props.store.setRowHeight(e.target.value as RowHeight)}>
        {HEIGHTS.map((h) => (
          <option key={h} value={h}>{heightLabel(h)}</option>
        ))}
      </select>
    </label>
  );
}
