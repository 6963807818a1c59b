/**
 * One column's input in the add-row and expanded-row forms, by type: the same kinds of input as
 * the grid's cell editor (checkbox, choice list, ticked choices of a multi select, number, date,
 * date-time, time, long text, JSON).
 * Values stay text while typed; `parseInput` turns them into API values on save.
 */
import type { ColumnMeta } from '../../api/dashboard';
import { editorFor, incompleteInput, numericMode } from './grid-cell';
import { t } from '../../i18n';

/** The text a form starts from for a value (a date-time in the input's own format, a duration as h:mm...). */
export function fieldText(c: ColumnMeta, value: unknown): string {
  if (c.kind === 'boolean') return value === true || value === 1 || value === '1' || value === 'true' ? 'true' : value === null || value === undefined ? '' : 'false';
  return editorFor(c, value).text;
}

/** The column of the first input of a form that holds text it cannot read (a date with a segment left empty), or null. */
export function incompleteField(form: HTMLFormElement): string | null {
  const el = [...form.querySelectorAll<HTMLInputElement>('input[data-column]')].find((i) => incompleteInput(i));
  return el?.dataset.column ?? null;
}

/** A labelled input for one column; `id` ties the label to it. */
export function FieldInput(props: { column: ColumnMeta; id: string; text: string; onChange: (text: string) => void; disabled?: boolean }) {
  const { column: c, id, text, onChange, disabled } = props;
  if (c.kind === 'boolean') {
    return <input id={id} type="checkbox" checked={text === 'true'} disabled={disabled} onChange={(e) => onChange(String(e.target.checked))} />;
  }
  if (c.enumValues?.length && c.uidt === 'MultiSelect') return <ChoiceChecks column={c} id={id} text={text} onChange={onChange} disabled={disabled} />;
  if (c.enumValues?.length) {
    return (
      <select id={id} value={text} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
        <option value="">{c.nullable ? '' : t('grid.field.choose')}</option>
        {c.enumValues.map((v) => (
          <option key={v} value={v}>{v}</option>
        ))}
      </select>
    );
  }
  if (c.uidt === 'LongText' || c.kind === 'json' || c.uidt === 'Attachment') {
    return <textarea id={id} rows={3} value={text} disabled={disabled} onChange={(e) => onChange(e.target.value)} />;
  }
  // A date-time with a time zone stays plain text (a date-time input would drop the zone).
  const zoned = c.kind === 'datetime' && text !== '' && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text);
  const type = zoned ? 'text' : editorFor(c, null).type;
  const placeholder = c.uidt === 'Duration' ? (c.meta?.format ?? 'h:mm') : undefined;
  return (
    <input
      id={id}
      data-column={c._cn}
      type={type}
      inputMode={numericMode(c)}
      step={type === 'datetime-local' || type === 'time' ? 1 : undefined}
      placeholder={placeholder}
      value={text}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** The choices of a multi select text ('a,b' or 'a, b'; a choice never holds a comma). */
export const choicesIn = (text: string): string[] => text.split(',').map((s) => s.trim()).filter(Boolean);

/**
 * A MultiSelect column's choices as checkboxes, one per choice, named by the column's display
 * name; the text is the ticked choices in the column's order, joined by commas (as the API reads it).
 */
function ChoiceChecks(props: { column: ColumnMeta; id: string; text: string; onChange: (text: string) => void; disabled?: boolean }) {
  const { column: c, id, text, onChange, disabled } = props;
  const picked = new Set(choicesIn(text));
  const toggle = (choice: string, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(choice);
    else next.delete(choice);
    onChange((c.enumValues ?? []).filter((v) => next.has(v)).join(','));
  };
  return (
    <div id={id} role="group" aria-label={c._cn} className="choice-checks">
      {(c.enumValues ?? []).map((v) => (
        <label key={v}>
          <input type="checkbox" checked={picked.has(v)} disabled={disabled} onChange={(e) => toggle(v, e.target.checked)} />
          {v}
        </label>
      ))}
    </div>
  );
}
