/**
 * A SingleSelect or MultiSelect column in a form (add-row, expanded row, form view): its choices as
 * the grid shows them, chips in their colours (the column's `meta.options`), in a react-aria Select.
 * The button shows the chosen chips; Enter, Space or the arrow keys open the list, type-ahead finds a
 * choice, Enter or a click picks it (a multi select ticks several, Esc closes), × clears the field.
 * The text is the choice ('' when none) or, for a multi select, the ticked choices in the column's
 * order joined by commas (as the API reads it).
 */
import { Button as AriaButton, ListBox, ListBoxItem, Popover, Select, SelectValue, type Key } from 'react-aria-components';
import { ChevronDown } from 'lucide-react';
import type { ColumnMeta, SelectChoice } from '../../api/dashboard';
import { ClearButton } from './field-clear';
import { t } from '../../i18n';

/** The choices of a column with their colours; a value no longer among them (`text`) is kept, uncoloured. */
export function choicesOf(c: ColumnMeta, text = ''): SelectChoice[] {
  const colours = new Map((c.meta?.options ?? []).map((o) => [o.title, o.color]));
  const titles = c.enumValues ?? c.meta?.options?.map((o) => o.title) ?? [];
  const extra = (c.uidt === 'MultiSelect' ? choicesIn(text) : text ? [text] : []).filter((v) => !titles.includes(v));
  return [...titles, ...extra].map((title) => ({ title, color: colours.get(title) ?? '#eeeeee' }));
}

/** The choices of a multi select text ('a,b' or 'a, b'; a choice never holds a comma). */
export const choicesIn = (text: string): string[] => text.split(',').map((s) => s.trim()).filter(Boolean);

function Chip(props: { choice: SelectChoice }) {
  return (
    <span className="chip" style={{ background: props.choice.color }}>
      {props.choice.title}
    </span>
  );
}

/** The field of a select column; `id` goes to its button, which the form's label (`${id}-label`) names. */
export function ChoiceField(props: { column: ColumnMeta; id: string; text: string; onChange: (text: string) => void; disabled?: boolean }) {
  const { column: c, id, text, onChange, disabled } = props;
  const multi = c.uidt === 'MultiSelect';
  const choices = choicesOf(c, text);
  const picked = multi ? choicesIn(text) : text ? [text] : [];
  const shown = choices.filter((o) => picked.includes(o.title));
  const pick = (keys: Key | readonly Key[] | null) => {
    const list = keys === null ? [] : Array.isArray(keys) ? keys.map(String) : [String(keys)];
    onChange(multi ? choices.map((o) => o.title).filter((v) => list.includes(v)).join(',') : (list[0] ?? ''));
  };
  const trigger = (
    <AriaButton className="choice-pick">
      <SelectValue className="choice-value">
        {() => (shown.length ? shown.map((o) => <Chip key={o.title} choice={o} />) : <span className="muted">{t('grid.field.choose')}</span>)}
      </SelectValue>
      <ChevronDown size={14} aria-hidden />
    </AriaButton>
  );
  const list = (
    <Popover className="aria-popover choice-popover" placement="bottom start">
      <ListBox className="menu-list aria-menu choice-list">
        {choices.map((o) => (
          <ListBoxItem key={o.title} id={o.title} textValue={o.title} className="menu-item choice-option">
            {({ isSelected }) => (
              <>
                {multi ? <span className={`multi-select-tick${isSelected ? ' on' : ''}`} aria-hidden>{isSelected ? '✓' : ''}</span> : null}
                <Chip choice={o} />
              </>
            )}
          </ListBoxItem>
        ))}
      </ListBox>
    </Popover>
  );
  const labelledBy = `${id}-label`;
  return (
    <div className="choice-field">
      {multi ? (
        <Select id={id} aria-labelledby={labelledBy} className="choice-select" selectionMode="multiple" value={picked} onChange={pick} isDisabled={disabled}>
          {trigger}
          {list}
        </Select>
      ) : (
        <Select id={id} aria-labelledby={labelledBy} className="choice-select" value={text || null} onChange={pick} isDisabled={disabled}>
          {trigger}
          {list}
        </Select>
      )}
      {picked.length && !disabled ? (
        <ClearButton id={id} column={c} onClear={() => onChange('')} />
      ) : null}
    </div>
  );
}
