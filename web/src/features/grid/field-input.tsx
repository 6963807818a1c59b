/**
 * One column's input in the add-row and expanded-row forms and in form views, by type: the same
 * kinds of input as the grid's cell editor (checkbox, rating icons, choice list, ticked choices of a
 * multi select, number with its currency or percent sign, email, URL and phone inputs, date,
 * date-time, time, duration as h:mm, long text, JSON). A text the column will not take (a number
 * that is none, JSON that does not read) is pointed out once the field is left (field-checks.ts).
 * Values stay text while typed; `parseInput` turns them into API values on save.
 */
import { useState } from 'react';
import type { ColumnMeta } from '../../api/dashboard';
import { editorFor, incompleteInput, numericMode } from './grid-cell';
import { fieldAdornment, fieldProblem, textInputType } from './field-checks';
import { RatingField } from './rating-field';
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
