/**
 * A Date column in a form (add-row, expanded row, form view): the grid's date editor, a react-aria
 * date field in the current language (its order of day, month and year), typed segment by segment,
 * with a calendar to pick the day from and × to clear it. The text is the API's 'YYYY-MM-DD' ('' when
 * empty). A field left half typed is found by `dateFieldIncomplete` (the form refuses it, naming the
 * column, as the grid does).
 */
import { useEffect, useRef, useState } from 'react';
import { Button as AriaButton, DateInput, DatePicker, DateSegment, Group, I18nProvider } from 'react-aria-components';
import { CalendarDays } from 'lucide-react';
import { CalendarPopover } from '../../components/calendar-popover';
import type { CalendarDate } from '@internationalized/date';
import type { ColumnMeta } from '../../api/dashboard';
import { dateTextOf, dateValueOf } from './date-editor';
import { ClearButton } from './field-clear';
import { localeTag, t } from '../../i18n';
import '../views/views-aria.css';

/** Whether a date field (an element holding react-aria date segments) is half typed: some segments filled, some not. */
export function dateFieldIncomplete(el: Element): boolean {
  const segments = [...el.querySelectorAll('[data-type]:not([data-type="literal"])')];
  const empty = segments.filter((s) => s.hasAttribute('data-placeholder')).length;
  return empty > 0 && empty < segments.length;
}

/** `id` goes to the field's group, which the form's label (`${id}-label`) names. */
export function DateFieldInput(props: { column: ColumnMeta; id: string; text: string; onChange: (text: string) => void; disabled?: boolean }) {
  const { column: c, id, text, onChange, disabled } = props;
  const [value, setValue] = useState<CalendarDate | null>(() => dateValueOf('date', text) as CalendarDate | null);
  /** Bumped to start the field afresh (cleared while half typed: its value was empty already). */
  const [round, setRound] = useState(0);
  /** Whether some segment holds a digit (a half-typed field has no value yet, but can be cleared). */
  const [typed, setTyped] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const segments = () => [...(box.current?.querySelectorAll('[data-type]:not([data-type="literal"])') ?? [])];
  const look = () => requestAnimationFrame(() => setTyped(segments().some((s) => !s.hasAttribute('data-placeholder'))));
  // A text set from outside (cleared, reset, the row read again) is shown; the field's own changes come back as they left.
  useEffect(() => {
    if (text !== dateTextOf(value)) setValue(dateValueOf('date', text) as CalendarDate | null);
  }, [text]);
  // Started afresh by ×: the first segment of the new field takes the focus.
  useEffect(() => {
    if (round) (segments()[0] as HTMLElement | undefined)?.focus();
  }, [round]);
  return (
    <div ref={box} className="date-pick-field" onKeyUp={look} onBlur={look}>
      <I18nProvider locale={localeTag()}>
        <DatePicker<CalendarDate>
          key={round}
          className="date-pick"
          aria-labelledby={`${id}-label`}
          value={value}
          onChange={(v) => {
            setValue(v);
            onChange(dateTextOf(v));
            look();
          }}
          granularity="day"
          shouldForceLeadingZeros
          isDisabled={disabled}
        >
          <Group id={id} data-column={c._cn} className="date-pick-group">
            <DateInput className="date-input">{(segment) => <DateSegment segment={segment} className="date-segment" />}</DateInput>
            <AriaButton className="icon-plain" aria-label={t('grid.field.calendar', { column: c._cn })}>
              <CalendarDays size={15} aria-hidden />
            </AriaButton>
          </Group>
          <CalendarPopover placement="bottom start" />
        </DatePicker>
      </I18nProvider>
      {(text !== '' || typed) && !disabled ? (
        <ClearButton
          id={id}
          column={c}
          onClear={() => {
            setValue(null);
            setTyped(false);
            setRound((r) => r + 1);
            onChange('');
          }}
        />
      ) : null}
    </div>
  );
}
