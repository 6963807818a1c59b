/**
 * The calendar toolbar's date picker: the day shown typed segment by segment in the language's
 * order (arrows change a segment) or picked in a month grid, on react-aria's DatePicker.
 */
import { parseDate, type CalendarDate } from '@internationalized/date';
import { Button, DateInput, DatePicker, DateSegment, Group, I18nProvider } from 'react-aria-components';
import { CalendarDays } from 'lucide-react';
import { CalendarPopover } from '../../components/calendar-popover';
import { localeTag, t } from '../../i18n';
import { firstDayOf } from './calendar-range';
import '../views/views-aria.css';

const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** A plain day ('YYYY-MM-DD') as react-aria's date, or null when it is not one. */
function toDate(day: string): CalendarDate | null {
  try {
    return parseDate(day);
  } catch {
    return null;
  }
}

/** The picker of the day a calendar shows; `onChange` gets 'YYYY-MM-DD'. */
export function GoToDate(props: { value: string; onChange: (day: string) => void }) {
  const tag = localeTag();
  return (
    <I18nProvider locale={tag}>
      <DatePicker
        className="cal-picker"
        aria-label={t('views.calendar.goTo')}
        value={toDate(props.value)}
        onChange={(d) => d && props.onChange(d.toString())}
        firstDayOfWeek={DAY_NAMES[firstDayOf(tag)]}
      >
        <Group className="cal-picker-group">
          <DateInput className="cal-date-field">{(segment) => <DateSegment segment={segment} className="cal-date-segment" />}</DateInput>
          <Button className="icon-plain">
            <CalendarDays size={15} aria-hidden />
          </Button>
        </Group>
        <CalendarPopover placement="bottom end" />
      </DatePicker>
    </I18nProvider>
  );
}
