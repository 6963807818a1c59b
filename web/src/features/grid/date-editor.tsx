/**
 * The editor of a date or date-time cell: a react-aria date field in the current language (its
 * order of day, month and year, 24-hour times to the second), typed segment by segment with the
 * keyboard. Enter saves, Esc cancels, leaving it drops the change. Values travel as the API writes
 * them ('2021-01-01', '2021-01-01 13:45:07').
 */
import { useEffect, useRef, useState } from 'react';
import { DateField, DateInput, DateSegment, I18nProvider } from 'react-aria-components';
import { parseDate, parseDateTime, type CalendarDate, type CalendarDateTime } from '@internationalized/date';
import type { ColumnMeta } from '../../api/dashboard';
import { localeTag, t } from '../../i18n';

type Value = CalendarDate | CalendarDateTime;

/** The field's value of an editor text ('2021-01-01' or '2021-01-01T13:45:07'), null when empty or unreadable. */
export function dateValueOf(kind: 'date' | 'datetime', text: string): Value | null {
  if (!text) return null;
  try {
    return kind === 'date' ? parseDate(text.slice(0, 10)) : parseDateTime(text);
  } catch {
    return null;
  }
}

/** The editor text of a field value ('2021-01-01', '2021-01-01T13:45:07'), as the native inputs gave it. */
export const dateTextOf = (v: Value | null): string => (v ? v.toString().replace(/\.0+$/, '') : '');

/** `typed`: the character typed on the cell that opened the editor; it goes into the first segment, as if typed there. */
export function DateCellEditor(props: { column: ColumnMeta; kind: 'date' | 'datetime'; text: string; typed?: string; onSave: (text: string) => void; onCancel: () => void; onBlur: () => void }) {
  const [value, setValue] = useState<Value | null>(() => dateValueOf(props.kind, props.text));
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The first segment (or the hour of a date-time that has a date already) takes the keyboard.
    const segments = box.current?.querySelectorAll<HTMLElement>('[data-type]:not([data-type="literal"])');
    const hour = props.kind === 'datetime' && value ? box.current?.querySelector<HTMLElement>('[data-type="hour"]') : null;
    const first = hour ?? segments?.[0];
    first?.focus();
    // The segments read what is typed from 'beforeinput' events: the opening keystroke is handed on, not lost.
    if (first && props.typed) first.dispatchEvent(new InputEvent('beforeinput', { inputType: 'insertText', data: props.typed, bubbles: true, cancelable: true }));
  }, []);
  return (
    <div
      ref={box}
      className="cell-editor date-editor"
      // Enter and Esc are taken before the segments see them (a segment keeps its Enter to itself).
      onKeyDownCapture={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          props.onCancel();
        } else if (e.key === 'Enter') {
          e.preventDefault();
          e.stopPropagation();
          props.onSave(dateTextOf(value));
        }
      }}
      onKeyDown={(e) => e.stopPropagation()}
      onBlur={(e) => {
        if (!box.current?.contains(e.relatedTarget as Node | null)) props.onBlur();
      }}
    >
      <I18nProvider locale={localeTag()}>
        <DateField<Value>
          aria-label={t('grid.cell.edit', { column: props.column._cn })}
          value={value}
          onChange={setValue}
          granularity={props.kind === 'date' ? 'day' : 'second'}
          hourCycle={24}
          shouldForceLeadingZeros
          className="date-field"
        >
          <DateInput className="date-input">{(segment) => <DateSegment segment={segment} className="date-segment" />}</DateInput>
        </DateField>
      </I18nProvider>
    </div>
  );
}
