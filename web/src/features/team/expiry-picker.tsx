/**
 * The expiry date of an API token: a react-aria DatePicker (typed segment by segment or picked in
 * its calendar, in the current language), holding an ISO date ('' when the token never expires); the
 * first day it offers is tomorrow (a token made to expire at the start of today would be refused).
 * The token expires at the start of that day where the user is (`expiryInstant`), not in UTC.
 */
import { getLocalTimeZone, parseDate, today } from '@internationalized/date';
import { Button, Calendar, CalendarCell, CalendarGrid, DateInput, DatePicker, DateSegment, Dialog, Group, Heading, I18nProvider, Popover } from 'react-aria-components';
import { localeTag } from '../../i18n';
import './team.css';

const parsed = (iso: string) => {
  try {
    return iso ? parseDate(iso) : null;
  } catch {
    return null;
  }
};

/** The instant a token picked to expire on `iso` (a date) ends: the start of that day in the user's time zone; '' stays ''. */
export const expiryInstant = (iso: string): string => (iso ? parseDate(iso).toDate(getLocalTimeZone()).toISOString() : '');

export function ExpiryPicker(props: { label: string; value: string; onChange: (iso: string) => void }) {
  return (
    <I18nProvider locale={localeTag()}>
      <DatePicker className="expiry-picker" aria-label={props.label} value={parsed(props.value)} onChange={(d) => props.onChange(d ? d.toString() : '')} granularity="day" minValue={today(getLocalTimeZone()).add({ days: 1 })}>
        <Group className="expiry-picker-group">
          <DateInput className="expiry-picker-input">{(segment) => <DateSegment segment={segment} className="expiry-picker-segment" />}</DateInput>
          <Button className="expiry-picker-button">
            <span aria-hidden>▾</span>
          </Button>
        </Group>
        <Popover className="aria-popover expiry-picker-popover" placement="bottom end">
          <Dialog className="expiry-picker-dialog">
            <Calendar className="expiry-calendar">
              <header className="expiry-calendar-head">
                <Button slot="previous" className="expiry-calendar-nav"><span aria-hidden>‹</span></Button>
                <Heading className="expiry-calendar-title" />
                <Button slot="next" className="expiry-calendar-nav"><span aria-hidden>›</span></Button>
              </header>
              <CalendarGrid className="expiry-calendar-grid">{(date) => <CalendarCell date={date} className="expiry-calendar-cell" />}</CalendarGrid>
            </Calendar>
          </Dialog>
        </Popover>
      </DatePicker>
    </I18nProvider>
  );
}
