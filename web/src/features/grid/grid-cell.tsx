/**
 * One grid cell: shows the value by type (currency, percent, rating, duration, select chips,
 * attachments...), edits it inline (text, long text, number, decimal, checkbox, date, date-time,
 * time, duration, select, JSON).
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ColumnMeta } from '../../api/dashboard';
import { formatDuration, formatTyped } from './cell-format';
import { AttachmentsView, ChipsView, RatingView } from './typed-cell-views';
import { MultiSelectEditor } from './multi-select-editor';
import { DateCellEditor } from './date-editor';
import { localeTag, t } from '../../i18n';
import { typedDate } from './typed-date';
import { toast } from '../../stores/toasts';

export function displayValue(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A time a time input can show (fractions to the millisecond); others ('10:30:00.123456', '100:00:00') are edited as text. */
const TIME_INPUT = /^\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?$/;

/**
 * Whether a native date, time or date-time input holds text it cannot read (a segment left empty):
 * it then answers '' as its value, which must not be saved as an empty cell.
 */
export const incompleteInput = (el: Element | null | undefined): boolean => !!(el as HTMLInputElement | null)?.validity?.badInput;

/** A date-time without zone, as the API sends it ('2009-01-01 00:00:00'): edited in a datetime-local input. */
const LOCAL_DATETIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;

/** The editor's input type and starting text for a column's value. */
export function editorFor(c: ColumnMeta, value: unknown): { type: string; text: string } {
  // A duration is edited in its format ('1:30'); the server reads that text back to seconds.
  if (c.uidt === 'Duration') return { type: 'text', text: value == null ? '' : formatDuration(value, c.meta?.format) };
  // JSON is edited as its text: a JSON string shows its quotes ("abc"), so saving it unchanged keeps it a string.
  if (c.kind === 'json') return { type: 'text', text: value == null ? '' : JSON.stringify(value) };
  const text = displayValue(value);
  if (c.kind === 'datetime') {
    const m = LOCAL_DATETIME.exec(text);
    // Values with a time zone stay plain text so the zone is not lost.
    if (m || text === '') return { type: 'datetime-local', text: m ? `${m[1]}T${m[2]}` : '' };
  }
  // Numbers are typed as text (with a numeric keyboard, see numericMode): a number input answers '' for
  // text it cannot read ('7e', '1-2'), which would have been saved as an empty cell without a word.
  if (c.kind === 'date') return { type: 'date', text };
  if (c.kind === 'time') return { type: text === '' || TIME_INPUT.test(text) ? 'time' : 'text', text };
  return { type: 'text', text };
}

/** The on-screen keyboard of a numeric column's text input. */
export const numericMode = (c: ColumnMeta): 'decimal' | 'numeric' | undefined =>
  c.kind === 'decimal' || c.kind === 'float' || c.kind === 'bigint' ? 'decimal' : c.kind === 'integer' ? 'numeric' : undefined;

/** Text typed in an editor -> the value sent to the API for that column. */
export function parseInput(c: ColumnMeta, text: string): unknown {
  if (text === '' && c.nullable) return null;
  // A rating goes as the number the grid's icons set.
  if (c.uidt === 'Rating' && /^\d+$/.test(text.trim())) return Number(text.trim());
  if (c.kind === 'datetime') {
    const m = LOCAL_DATETIME.exec(text);
    if (m) return `${m[1]} ${m[2]!.length === 5 ? `${m[2]}:00` : m[2]}`;
  }
  // A date typed as text ('2024-03-05', '12/25/2025' in English) goes as the API writes it.
  if (c.kind === 'date') return typedDate(text, localeTag());
  // JSON goes as its text, which the API reads as JSON ("123" stays a string; a typo is refused naming the column).
  return text;
}

/**
 * The editor a cell opens with, and its starting text, when `typed` (the character typed on the
 * selected cell) opened it: text editors start from that character (spreadsheet habit), a choice
 * list from the first choice it starts, a date, time or date-time editor gives way to text, which
 * takes the keystroke and then a date as the grid shows it ('2024-03-05'): the segments of the date
 * field would read those digits as a month, a day and a year in turn.
 */
export function editorStart(c: ColumnMeta, value: unknown, typed: string | undefined): { type: string; text: string } {
  const editor = editorFor(c, value);
  if (typed === undefined) return editor;
  if (c.enumValues?.length) return { ...editor, text: c.enumValues.find((v) => v.toLowerCase().startsWith(typed.toLowerCase())) ?? editor.text };
  if (editor.type === 'time' || editor.type === 'datetime-local' || editor.type === 'date') return { type: 'text', text: typed };
  return editor.type === 'text' ? { type: 'text', text: typed } : editor;
}

/**
 * Whether Enter in an editor writes: not when the text is still the one it opened with (the value
 * may hold more than the editor shows: a duration's seconds under h:mm, a date-time's milliseconds),
 * unless a keystroke opened it.
 */
export const edited = (start: string, text: string, typed: string | undefined): boolean => typed !== undefined || text !== start;

/**
 * onCancel: Esc (the grid takes the keyboard back); onBlur: focus went elsewhere (left there).
 * `typed`: the character typed on the selected cell that opened the editor; it replaces the value
 * (spreadsheet habit) in text and number editors.
 */
export function CellEditor(props: { column: ColumnMeta; value: unknown; changedBy?: string; typed?: string; onSave: (v: unknown) => void; onCancel: () => void; onBlur: () => void }) {
  // The editor edits the value it opened with; a value someone else committed meanwhile is told, not put in.
  const [start] = useState(() => props.value);
  const changed = JSON.stringify(start ?? null) !== JSON.stringify(props.value ?? null);
  const now = displayValue(props.value);
  return (
    <>
      <CellInput {...props} value={start} />
      {changed ? (
        <ConflictNote>{props.changedBy ? t('grid.cell.changedBy', { email: props.changedBy, value: now }) : t('grid.cell.changedMeanwhile', { value: now })}</ConflictNote>
      ) : null}
    </>
  );
}

/**
 * The note under a cell being edited, kept inside the grid's visible area: moved left when the cell is
 * near the grid's right edge, and above the cell when it is near the bottom (else the grid would cut it).
 */
function ConflictNote(props: { children: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const note = ref.current;
    const grid = note?.closest('.grid');
    if (!note || !grid) return;
    note.style.left = '';
    note.classList.remove('above');
    const area = grid.getBoundingClientRect();
    const right = area.left + grid.clientLeft + grid.clientWidth;
    const bottom = area.top + grid.clientTop + grid.clientHeight;
    const box = note.getBoundingClientRect();
    const past = box.right - right + 2;
    if (past > 0) note.style.left = `${-Math.min(past, Math.max(0, box.left - area.left - 2))}px`;
    if (box.bottom > bottom) note.classList.add('above');
  }, [props.children]);
  return <span ref={ref} className="cell-conflict" role="alert">{props.children}</span>;
}

function CellInput(props: { column: ColumnMeta; value: unknown; typed?: string; onSave: (v: unknown) => void; onCancel: () => void; onBlur: () => void }) {
  const { column: c } = props;
  const editor = editorStart(c, props.value, props.typed);
  const [text, setText] = useState(editor.text);
  const ref = useRef<HTMLInputElement & HTMLSelectElement & HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = ref.current;
    el?.focus();
    // The caret goes after the text, so typing goes on from there (date and time inputs have no caret to set).
    try {
      if (el && el.tagName !== 'SELECT') el.setSelectionRange(el.value.length, el.value.length);
    } catch {}
  }, []);
  const keys = (e: React.KeyboardEvent) => {
    e.stopPropagation();
    if (e.key === 'Escape') props.onCancel();
    if (e.key === 'Enter' && !(c.uidt === 'LongText' && e.shiftKey)) {
      e.preventDefault();
      if (incompleteInput(ref.current)) return toast('error', t('grid.cell.incomplete', { column: c._cn }));
      if (!edited(editor.text, text, props.typed)) return props.onCancel();
      props.onSave(parseInput(c, text));
    }
  };
  // Dates are typed in a react-aria date field (in the current language); date-times keep the native date-time input.
  if (editor.type === 'date') {
    return <DateCellEditor column={c} kind="date" text={editor.text} typed={props.typed} onSave={(text) => (edited(editor.text, text, props.typed) ? props.onSave(parseInput(c, text)) : props.onCancel())} onCancel={props.onCancel} onBlur={props.onBlur} />;
  }
  if (c.uidt === 'MultiSelect' && c.enumValues?.length) return <MultiSelectEditor column={c} value={props.value} onSave={props.onSave} onCancel={props.onCancel} onBlur={props.onBlur} />;
  if (c.enumValues?.length) {
    return (
      <select ref={ref} className="cell-input" value={text} onChange={(e) => props.onSave(e.target.value || null)} onKeyDown={keys} onBlur={props.onBlur}>
        {c.nullable ? <option value="" /> : null}
        {c.enumValues.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    );
  }
  if (c.uidt === 'LongText' || c.kind === 'json') {
    return <textarea ref={ref} className="cell-input cell-textarea" value={text} onChange={(e) => setText(e.target.value)} onKeyDown={keys} onBlur={props.onBlur} aria-label={t('grid.cell.edit', { column: c._cn })} />;
  }
  const placeholder = c.kind === 'time' ? 'HH:MM:SS' : c.kind === 'datetime' ? 'YYYY-MM-DD HH:MM:SS' : c.kind === 'date' ? 'YYYY-MM-DD' : undefined; // i18n-ignore
  return <input ref={ref} className="cell-input" type={editor.type} placeholder={placeholder} inputMode={numericMode(c)} step={editor.type === 'datetime-local' || editor.type === 'time' ? 1 : undefined} value={text} onChange={(e) => setText(e.target.value)} onKeyDown={keys} onBlur={props.onBlur} aria-label={t('grid.cell.edit', { column: c._cn })} />;
}

/** A cell's value as shown (not editing); a checkbox toggles and a rating sets in place. */
export function CellView(props: { column: ColumnMeta; value: unknown; readOnly: boolean; onToggle: () => void; onSet: (v: unknown) => void }) {
  const c = props.column;
  if (c.kind === 'boolean') {
    return <input type="checkbox" checked={!!props.value} disabled={props.readOnly} onChange={props.onToggle} aria-label={c._cn} />;
  }
  if (c.uidt === 'Rating') return <RatingView column={c} value={props.value} readOnly={props.readOnly} onSet={props.onSet} />;
  if (c.uidt === 'SingleSelect' || c.uidt === 'MultiSelect') return <ChipsView column={c} value={props.value} />;
  if (c.uidt === 'Attachment') return <AttachmentsView value={props.value} />;
  const typed = formatTyped(c, props.value);
  return <span className={`cell-text${typed !== null ? ' cell-number' : ''}`}>{typed ?? displayValue(props.value)}</span>;
}
