/** The month calendar a date picker opens (react-aria): previous / next month, the month's name, its days. */
import { Button, Calendar, CalendarCell, CalendarGrid, Dialog, Heading, Popover } from 'react-aria-components';
import { ChevronLeft, ChevronRight } from 'lucide-react';

export function CalendarPopover(props: { placement: 'bottom start' | 'bottom end' }) {
  return (
    <Popover className="cal-picker-popover" placement={props.placement}>
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
  );
}
