/**
 * A Rating column in a form: the column's icons (as in the grid) as a group of radio buttons, one
 * per value ("Rate 3 of 5"), moved through with the arrow keys, and a button that clears the rating.
 * The text is the chosen number ('' when none; '0' once cleared where the column takes no NULL, as
 * the grid's star click clears it).
 */
import { X } from 'lucide-react';
import type { ColumnMeta } from '../../api/dashboard';
import { RATING_ICONS } from './typed-cell-views';
import { t } from '../../i18n';

export function RatingField(props: { column: ColumnMeta; id: string; text: string; onChange: (text: string) => void; disabled?: boolean }) {
  const { column: c, id, text, onChange, disabled } = props;
  const max = c.meta?.max ?? 5;
  const value = Number(text) || 0;
  const icon = RATING_ICONS[c.meta?.icon ?? 'star'] ?? RATING_ICONS.star;
  const cleared = c.nullable ? '' : '0';
  return (
    <div className="rating-field">
      <div id={id} role="radiogroup" aria-label={c._cn} aria-disabled={disabled || undefined} className="cell-rating">
        {Array.from({ length: max }, (_, i) => {
          const n = i + 1;
          return (
            <label key={n} className={`rating-icon${n <= value ? ' lit' : ''}`}>
              <input type="radio" className="visually-hidden" name={id} value={n} checked={n === value} disabled={disabled} aria-label={t('grid.rating.rate', { value: n, max })} onChange={() => onChange(String(n))} />
              <span aria-hidden>{icon}</span>
            </label>
          );
        })}
      </div>
      {text !== '' && text !== cleared && !disabled ? (
        <button type="button" className="icon-btn" aria-label={t('grid.field.clearRating', { column: c._cn })} onClick={() => (onChange(cleared), document.getElementById(id)?.querySelector('input')?.focus())}>
          <X size={13} aria-hidden />
        </button>
      ) : null}
    </div>
  );
}
