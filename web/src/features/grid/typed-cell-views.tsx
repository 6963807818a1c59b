/** Grid cells drawn by logical type: rating icons (click to set), coloured select chips, attachment links. */
import type { ColumnMeta } from '../../api/dashboard';
import { attachmentsOf, chosen } from './cell-format';
import { t } from '../../i18n';
import { serverLink } from '../../api/app-url';

/** The icon of each rating style (a column's `meta.icon`). */
export const RATING_ICONS: Record<string, string> = { star: '★', heart: '♥', circle: '●', diamond: '◆' };

/** A rating as `max` icons, the first `value` lit; clicking one sets the rating (clicking the current one clears it). */
export function RatingView(props: { column: ColumnMeta; value: unknown; readOnly: boolean; onSet: (v: number | null) => void }) {
  const max = props.column.meta?.max ?? 5;
  const value = Number(props.value ?? 0) || 0;
  const icon = RATING_ICONS[props.column.meta?.icon ?? 'star'] ?? RATING_ICONS.star;
  return (
    <span className="cell-rating" role="group" aria-label={t('grid.rating.label', { column: props.column._cn, value, max })}>
      {Array.from({ length: max }, (_, i) => {
        const n = i + 1;
        const lit = n <= value;
        return props.readOnly ? (
          <span key={n} className={`rating-icon${lit ? ' lit' : ''}`} aria-hidden>
            {icon}
          </span>
        ) : (
          <button
            key={n}
            type="button"
            className={`rating-icon${lit ? ' lit' : ''}`}
            aria-label={t('grid.rating.rate', { value: n, max })}
            aria-pressed={lit}
            // The click goes on to the cell, which becomes the active one: the next keystroke edits this cell.
            onClick={() => props.onSet(n === value ? (props.column.nullable ? null : 0) : n)}
            onDoubleClick={(e) => e.stopPropagation()}
          >
            {icon}
          </button>
        );
      })}
    </span>
  );
}

/** The chosen choices of a select as chips in their colours. */
export function ChipsView(props: { column: ColumnMeta; value: unknown }) {
  return (
    <span className="cell-chips">
      {chosen(props.column, props.value).map((o) => (
        <span key={o.title} className="chip" style={{ background: o.color }}>
          {o.title}
        </span>
      ))}
    </span>
  );
}

/** The files of an attachment value by name, linked when they have a web address. */
export function AttachmentsView(props: { value: unknown }) {
  return (
    <span className="cell-files">
      {attachmentsOf(props.value).map((f, i) =>
        f.href ? (
          <a key={i} className="file-link" href={serverLink(f.href)} target="_blank" rel="noreferrer noopener" onClick={(e) => e.stopPropagation()}>
            {f.name}
          </a>
        ) : (
          <span key={i} className="file-link">
            {f.name}
          </span>
        ),
      )}
    </span>
  );
}
