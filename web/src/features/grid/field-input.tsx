/**
 * One column's input in the add-row and expanded-row forms and in form views, by type: the same
 * kinds of input as the grid's cell editor (checkbox, rating icons, the choices of a single or multi
 * select as coloured chips in a react-aria select, number with its currency or percent sign, email,
 * URL and phone inputs, a date in the grid's date field with a calendar, date-time and time in the
 * browser's inputs as in the grid, duration as h:mm, long text, JSON); a choice, date, date-time or
 * time clears with ×. A text the column will not take (a number
 * that is none, JSON that does not read) is pointed out once the field is left (field-checks.ts).
 * Values stay text while typed; `parseInput` turns them into API values on save.
 */
import { useState } from 'react';
import type { ColumnMeta } from '../../api/dashboard';
import { editorFor, incompleteInput, numericMode } from './grid-cell';
import { fieldAdornment, fieldProblem, textInputType } from './field-checks';
import { RatingField } from './rating-field';
import { ChoiceField, choicesIn } from './choice-field';
import { DateFieldInput, dateFieldIncomplete } from './date-field-input';
import { ClearButton } from './field-clear';

/** The text a form starts from for a value (a date-time in the input's own format, a duration as h:mm...). */
export function fieldText(c: ColumnMeta, value: unknown): string {
  if (c.kind === 'boolean') return value === true || value === 1 || value === '1' || value === 'true' ? 'true' : value === null || value === undefined ? '' : 'false';
  if (c.uidt === 'MultiSelect' && Array.isArray(value)) return value.map(String).join(',');
  return editorFor(c, value).text;
}

/**
 * The column of the first field of a form that holds text it cannot read (a date, date-time or time
 * with a segment left empty: it reads as empty, which must not be saved as an empty value), or null.
 */
export function incompleteField(form: HTMLFormElement): string | null {
  const el = [...form.querySelectorAll<HTMLElement>('[data-column]')].find((i) => (i instanceof HTMLInputElement ? incompleteInput(i) : dateFieldIncomplete(i)));
  return el?.dataset.column ?? null;
}

/** Whether a mouse button or a finger is down: a press that took the focus from a field is not over yet. */
let pressing = false;
if (typeof document !== 'undefined') {
  document.addEventListener('pointerdown', () => (pressing = true), true);
  for (const end of ['pointerup', 'pointercancel']) document.addEventListener(end, () => (pressing = false), true);
}

/**
 * Runs `fn` once the press under way has ended and its click is delivered, or now. A problem shown
 * under a field that was left by pressing Save would move the button away under the pointer, and
 * the click would be lost.
 */
function afterPress(fn: () => void) {
  if (!pressing) return fn();
  const done = () => (document.removeEventListener('pointerup', done, true), document.removeEventListener('pointercancel', done, true), setTimeout(fn));
  document.addEventListener('pointerup', done, true);
  document.addEventListener('pointercancel', done, true);
}

/** A labelled input for one column; `id` ties the label to it. */
export function FieldInput(props: { column: ColumnMeta; id: string; text: string; onChange: (text: string) => void; disabled?: boolean }) {
  const { column: c, id, text, onChange, disabled } = props;
  /** Left once: from then on, a text the column will not take is pointed out as it is typed. */
  const [left, setLeft] = useState(false);
  if (c.kind === 'boolean') {
    return <input id={id} type="checkbox" checked={text === 'true'} disabled={disabled} onChange={(e) => onChange(String(e.target.checked))} />;
  }
  if (c.uidt === 'Rating') return <RatingField column={c} id={id} text={text} onChange={onChange} disabled={disabled} />;
  if (c.enumValues?.length) return <ChoiceField column={c} id={id} text={text} onChange={onChange} disabled={disabled} />;
  // A date as the grid edits it; a value with more than a day (a zone, a time) stays text.
  if (c.kind === 'date' && (text === '' || /^\d{4}-\d{2}-\d{2}$/.test(text))) return <DateFieldInput column={c} id={id} text={text} onChange={onChange} disabled={disabled} />;
  const problem = left && !disabled ? fieldProblem(c, text) : null;
  const problemId = `${id}-problem`;
  const sign = fieldAdornment(c);
  // The currency or percent sign is read with the field, as is the problem of its text.
  const describedBy = [sign ? `${id}-sign` : '', problem ? problemId : ''].filter(Boolean).join(' ') || undefined;
  const checks = { 'aria-invalid': problem ? true : undefined, 'aria-describedby': describedBy, onBlur: () => afterPress(() => setLeft(true)) } as const;
  const note = problem ? <div id={problemId} className="field-error">{problem}</div> : null;
  if (c.uidt === 'LongText' || c.kind === 'json' || c.uidt === 'Attachment') {
    return (
      <>
        <textarea
          id={id}
          rows={3}
          className={c.kind === 'json' || c.uidt === 'Attachment' ? 'json-input' : undefined}
          spellCheck={c.kind === 'json' || c.uidt === 'Attachment' ? false : undefined}
          // An attachment's links are typed as a JSON list of entries.
          placeholder={c.uidt === 'Attachment' ? '[{"url": "https://…"}]' /* i18n-ignore */ : undefined}
          value={text}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
          {...checks}
        />
        {note}
      </>
    );
  }
  // A date-time with a time zone stays plain text (a date-time input would drop the zone).
  const zoned = c.kind === 'datetime' && text !== '' && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text);
  const type = zoned ? 'text' : (textInputType(c) ?? editorFor(c, null).type);
  const placeholder = c.uidt === 'Duration' ? (c.meta?.format ?? 'h:mm') : undefined;
  const input = (
    <input
      id={id}
      data-column={c._cn}
      type={type}
      inputMode={numericMode(c)}
      autoComplete={type === 'email' || type === 'url' || type === 'tel' ? 'off' : undefined}
      step={type === 'datetime-local' || type === 'time' ? 1 : undefined}
      placeholder={placeholder}
      value={text}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
      {...checks}
    />
  );
  // A date-time or time (the browser's inputs, as in the grid) clears with ×: its segments emptied one by one would read as half typed.
  if ((c.kind === 'datetime' || c.kind === 'time') && !zoned) {
    return (
      <>
        <div className="field-clearable">
          {input}
          {text !== '' && !disabled ? <ClearButton id={id} column={c} onClear={() => onChange('')} /> : null}
        </div>
        {note}
      </>
    );
  }
  return (
    <>
      {sign ? (
        <div className={`field-adorned${disabled ? ' disabled' : ''}`}>
          {sign.before ? <span id={`${id}-sign`} className="field-sign">{sign.before}</span> : null}
          {input}
          {sign.after ? <span id={`${id}-sign`} className="field-sign">{sign.after}</span> : null}
        </div>
      ) : (
        input
      )}
      {note}
    </>
  );
}

/** The choices of a multi select text ('a,b' or 'a, b'; a choice never holds a comma). */
export { choicesIn };
