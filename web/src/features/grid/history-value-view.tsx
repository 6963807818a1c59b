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

/** The history text of one value of a whole row (an insert's): objects as JSON, nothing as empty. */
const rowValueText = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : String(v));

/**
 * The values a row was created with (an insert's entry: the whole row as JSON), each as the grid shows
 * its column, in the grid's column order; nothing when the entry holds no row.
 */
export function CreatedValues(props: { columns: ColumnMeta[]; raw: string | null }) {
  let row: Record<string, unknown> | null = null;
  try {
    const parsed = props.raw ? (JSON.parse(props.raw) as unknown) : null;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) row = parsed as Record<string, unknown>;
  } catch {}
  if (!row) return null;
  const known = props.columns.filter((c) => c._cn in row);
  const others = Object.keys(row).filter((k) => !known.some((c) => c._cn === k));
  const entries: [string, ColumnMeta | undefined][] = [...known.map((c) => [c._cn, c] as [string, ColumnMeta]), ...others.map((k) => [k, undefined] as [string, undefined])];
  if (!entries.length) return null;
  return (
    <dl className="history-created" aria-label={t('grid.activity.createdValues')}>
      {entries.map(([name, c]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd><HistoryValue column={c} raw={rowValueText(row[name])} /></dd>
        </div>
      ))}
    </dl>
  );
}
