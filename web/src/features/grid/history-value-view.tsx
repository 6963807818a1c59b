/**
 * One value of a row's history, shown as the grid shows its column (history-value.ts): a checkbox
 * ticked or not, rating icons, coloured select chips, attachment names, currency, percent, h:mm.
 */
import { Square, SquareCheck } from 'lucide-react';
import type { ColumnMeta } from '../../api/dashboard';
import { historyText, historyValueOf } from './history-value';
import { AttachmentsView, ChipsView, RatingView } from './typed-cell-views';
import { t } from '../../i18n';

/** `raw`: the text the history kept (null: empty); `column`: the column it belongs to, when the reader knows it. */
export function HistoryValue(props: { column: ColumnMeta | undefined; raw: string | null }) {
  const { column: c, raw } = props;
  if (raw === null) return <span className="history-value muted">{t('grid.activity.empty')}</span>;
  const v = historyValueOf(c, raw);
  if (c && typeof v === 'boolean') {
    const Icon = v ? SquareCheck : Square;
    return (
      <span className="history-value history-check">
        <Icon size={14} aria-hidden />
        <span className="visually-hidden">{v ? t('grid.activity.checked') : t('grid.activity.unchecked')}</span>
      </span>
    );
  }
  if (c?.uidt === 'Rating' && typeof v === 'number') return <span className="history-value"><RatingView column={c} value={v} readOnly onSet={() => {}} /></span>;
  if (c && (c.uidt === 'SingleSelect' || c.uidt === 'MultiSelect')) return <span className="history-value"><ChipsView column={c} value={v} /></span>;
  if (c?.uidt === 'Attachment') return <span className="history-value"><AttachmentsView value={v} /></span>;
  return <span className="history-value">{historyText(c, raw)}</span>;
}
