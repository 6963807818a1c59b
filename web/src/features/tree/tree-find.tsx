/**
 * The find field of a tree group (Tables, Views, ...) that holds more entries than one page of the
 * tree: typing keeps the entries whose display or SQL name contains the text, ignoring case.
 */
import { t } from '../../i18n';
import './tree.css';

/** Whether a tree entry's display name or SQL name contains the typed text (case ignored). */
export function matchesFind(item: { title: string; tn?: string }, text: string): boolean {
  const q = text.trim().toLocaleLowerCase();
  return item.title.toLocaleLowerCase().includes(q) || (item.tn ?? '').toLocaleLowerCase().includes(q);
}

/** The field itself; Escape clears it. */
export function TreeFind(props: { group: string; value: string; onChange: (v: string) => void }) {
  const label = t('schema.tree.find', { group: props.group });
  return (
    <input
      className="tree-find"
      type="search"
      aria-label={label}
      placeholder={label}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && props.value) {
          e.stopPropagation();
          props.onChange('');
        }
      }}
    />
  );
}
