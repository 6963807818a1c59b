/**
 * The calendar toolbar's date picker: the day shown typed segment by segment in the language's
 * order (arrows change a segment) or picked in a month grid, on react-aria's DatePicker.
 */
import { parseDate, type CalendarDate } from '@internationalized/date';
import {
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DatePicker,
  DateSegment,
  Dialog,
  Group,
  Heading,
  I18nProvider,
  Popover,
} from 'react-aria-components';
import { CalendarDays, ChevronLeft, ChevronRight } from 'lucide-react';
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
        <Popover className="cal-picker-popover" placement="bottom end">
          <Dialog className="aria-dialog">
            <Calendar className="cal-month-picker">
              <header>
                <Button slot="previous" className="icon-plain">
                  <ChevronLeft size={16} aria-hidden />
                </Button>
                <Heading />
                <Button slot="next" className="icon-plain">
                  <ChevronRight size={16} aria-hidden />
                </Button>
              </header>
              <CalendarGrid>{(date) => <CalendarCell date={date} className="cal-month-cell" />}</CalendarGrid>
            </Calendar>
          </Dialog>
        </Popover>
      </DatePicker>
    </I18nProvider>
  );
}
