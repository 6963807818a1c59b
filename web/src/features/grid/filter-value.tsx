/**
 * The value of a filter row, as its column takes it: a select column's choices to pick (compared
 * as stored, so a choice typed in another case never silently finds nothing), a date picker for a
 * date column or a date-time's order (the where language wants YYYY-MM-DD, which a person would not type);
 * otherwise text. A value the control cannot show (a where typed by hand) keeps a text input.
 */
import type { ColumnMeta } from '../../api/dashboard';
import { choicesOf } from './choice-field';
import { t } from '../../i18n';

/** Operators whose value is one of a select column's choices (a multi select's 'is equal' compares the whole list, typed). */
const CHOICE_OPS = { SingleSelect: new Set(['eq', 'neq', 'like', 'nlike']), MultiSelect: new Set(['like', 'nlike']) } as Record<string, Set<string>>;
/**
 * Operators whose value is a day picked: any comparison of a date column; a date-time column's order
 * only (a day alone is its midnight, so 'is equal' to a day would miss the day's other times).
 */
const DATE_OPS = { date: new Set(['eq', 'neq', 'gt', 'ge', 'lt', 'le']), datetime: new Set(['gt', 'ge', 'lt', 'le']) } as Record<string, Set<string>>;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The kind of control a filter's value gets. */
export function filterValueKind(column: ColumnMeta | undefined, op: string, value: string): 'choice' | 'date' | 'text' {
  if (!column) return 'text';
  if (CHOICE_OPS[column.uidt]?.has(op)) {
    const titles = choicesOf(column).map((c) => c.title);
    if (titles.length && (value === '' || titles.includes(value))) return 'choice';
  }
  if (DATE_OPS[column.kind]?.has(op) && (value === '' || DAY.test(value))) return 'date';
  return 'text';
}

/** The control of one filter row's value; Enter in it applies (`onEnter`). */
export function FilterValueInput(props: { column: ColumnMeta | undefined; op: string; value: string; label: string; onChange: (value: string) => void; onEnter: () => void }) {
  const kind = filterValueKind(props.column, props.op, props.value);
  if (kind === 'choice') {
    return (
      <select aria-label={props.label} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{t('grid.field.choose')}</option>
        {choicesOf(props.column!).map((c) => <option key={c.title} value={c.title}>{c.title}</option>)}
      </select>
    );
  }
  return (
    <input
      aria-label={props.label}
      type={kind === 'date' ? 'date' : 'text'}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      onKeyDown={(e) => e.key === 'Enter' && props.onEnter()}
    />
  );
}

/** A filter's value kept when its column or operator changes, unless the new column's control cannot show it. */
export function valueFor(column: ColumnMeta | undefined, op: string, value: string): string {
  return filterValueKind(column, op, '') !== 'text' && filterValueKind(column, op, value) === 'text' ? '' : value;
}
