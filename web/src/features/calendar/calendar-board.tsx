/**
 * The calendar: month, week or day over a date column (entries spanning to an optional end
 * column), only the visible range read; entries dragged to another day move the row's date. Used
 * by the dashboard and, read-only, by shared links.
 */
import { useEffect, useMemo, useState } from 'react';
import { ToggleButton, ToggleButtonGroup } from 'react-aria-components';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { ColumnMeta } from '../../api/dashboard';
import { useSignals } from '../../stores/signals';
import { LIMITS } from '../../lib/limits';
import { track } from '../../stores/notifications';
import { cardTitle } from '../views/record-card';
import { canChange, type Row, type RowSource } from '../views/row-source';
import { CalendarStore } from './calendar-store';
import { addDays, dayOf, entriesByDay, firstDayOf, rangeTitle, shiftRange, timeOf, today, visibleDays, weekdayNames, type CalendarRange } from './calendar-range';
import { GoToDate } from './go-to-date';
import { IconButton } from '../views/icon-button';
import { formatDate, localeTag, t } from '../../i18n';

const ENTRY_TYPE = 'application/x-tablo-entry';
/** Entries shown in a month's day before '+n more'. */
export const MONTH_DAY_ENTRIES = LIMITS.calendarDayEntries;
const RANGES: CalendarRange[] = ['month', 'week', 'day'];

/** The name of a range in the current language. */
const rangeName = (r: CalendarRange) => (r === 'month' ? t('views.calendar.month') : r === 'week' ? t('views.calendar.week') : t('views.calendar.day'));
/** The day of month as the language writes it alone ('5', '5日'). */
const dayNumber = (day: string) => formatDate(`${day}T00:00:00Z`, { day: 'numeric', timeZone: 'UTC' });

/** The calendar of one view over a row source; the range and the day shown belong to the caller. */
export function CalendarBoard(props: {
  source: RowSource;
  dateColumn: ColumnMeta;
  endColumn?: ColumnMeta;
  displayColumn: string | null;
  fields: string[];
  where: string;
  sort: string;
  search: string;
  range: CalendarRange;
  anchor: string;
  onRange: (r: CalendarRange) => void;
  onAnchor: (day: string) => void;
  onOpen?: (row: Row, store: CalendarStore) => void;
}) {
  useSignals();
  const { dateColumn, endColumn, range, anchor } = props;
  const isDateTime = (c?: ColumnMeta) => !!c && (c.uidt === 'DateTime' || c.kind === 'datetime');
  const store = useMemo(
    () => new CalendarStore(props.source, dateColumn._cn, endColumn?._cn, { dateTime: isDateTime(dateColumn), endDateTime: isDateTime(endColumn) }, { where: props.where, sort: props.sort, search: props.search }),
    [props.source, dateColumn._cn, endColumn?._cn, props.where, props.sort, props.search],
  );
  const tag = localeTag();
  const weekStart = firstDayOf(tag);
  const days = visibleDays(range, anchor, weekStart);
  const first = days[0]!;
  const last = days[days.length - 1]!;
  useEffect(() => void store.load(first, last), [store, first, last]);
  const byDay = entriesByDay(store.rows.value, dateColumn._cn, endColumn?._cn, days);
  const [dropDay, setDropDay] = useState<string | null>(null);
  const writable = canChange(props.source, dateColumn._cn) && (!endColumn || canChange(props.source, endColumn._cn));
  const month = anchor.slice(0, 7);

  const entry = (row: Row, day: string) => {
    const title = cardTitle(row, props.displayColumn, props.fields);
    const start = dayOf(row[dateColumn._cn]);
    const time = isDateTime(dateColumn) && start === day ? timeOf(row[dateColumn._cn]) : '';
    return (
      <button
        key={`${props.source.idOf(row)}@${day}`}
        className={`cal-entry${start !== day ? ' continued' : ''}`}
        draggable={writable}
        onDragStart={(e) => e.dataTransfer.setData(ENTRY_TYPE, JSON.stringify({ id: props.source.idOf(row), day: start }))}
        onClick={() => props.onOpen?.(row, store)}
        // Alt+← / Alt+→ move the entry a day, Alt+↑ / Alt+↓ a week (the keyboard's drag).
        onKeyDown={(e) => {
          const by = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[e.key];
          if (!writable || !e.altKey || !by || !start) return;
          e.preventDefault();
          void track(t('views.calendar.moveTo', { day: addDays(start, by) }), store.move(row, start, addDays(start, by))).catch(() => {});
        }}
        title={title}
        aria-label={t('views.calendar.entryOn', { title, day })}
      >
        {time ? <span className="cal-time">{time}</span> : null}
        <span className="cal-entry-title">{title}</span>
      </button>
    );
  };
  const dayCell = (day: string, limit: number | null) => {
    const list = byDay.get(day) ?? [];
    const shown = limit === null ? list : list.slice(0, limit);
    return (
      <div
        key={day}
        role="gridcell"
        aria-label={day}
        data-day={day}
        className={`cal-day${day.slice(0, 7) !== month && range === 'month' ? ' other-month' : ''}${day === today() ? ' today' : ''}${dropDay === day ? ' drop' : ''}`}
        onDragOver={(e) => {
          if (e.dataTransfer.types.includes(ENTRY_TYPE)) (e.preventDefault(), setDropDay(day));
        }}
        onDragLeave={() => setDropDay((d) => (d === day ? null : d))}
        onDrop={(e) => {
          setDropDay(null);
          const data = e.dataTransfer.getData(ENTRY_TYPE);
          if (!data) return;
          e.preventDefault();
          const { id, day: from } = JSON.parse(data) as { id: string; day: string };
          const row = store.rows.value.find((r) => props.source.idOf(r) === id);
          if (row && from && from !== day) void track(t('views.calendar.moveTo', { day }), store.move(row, from, day)).catch(() => {});
        }}
      >
        <button className="cal-date" aria-label={t('views.calendar.openDay', { day })} onClick={() => (props.onAnchor(day), props.onRange('day'))}>
          {range === 'day' ? rangeTitle('day', day, tag) : dayNumber(day)}
        </button>
        <div className="cal-entries">
          {shown.map((r) => entry(r, day))}
          {limit !== null && list.length > limit ? (
            <button className="cal-more" onClick={() => (props.onAnchor(day), props.onRange('day'))}>{t('views.calendar.more', { count: list.length - limit })}</button>
          ) : null}
        </div>
      </div>
    );
  };
  return (
    <div className="calendar">
      <div className="cal-head">
        <button className="btn btn-secondary" onClick={() => props.onAnchor(today())}>{t('views.calendar.today')}</button>
        <IconButton label={range === 'month' ? t('views.calendar.previousMonth') : range === 'week' ? t('views.calendar.previousWeek') : t('views.calendar.previousDay')} onPress={() => props.onAnchor(shiftRange(range, anchor, -1))}>
          <ChevronLeft size={18} />
        </IconButton>
        <IconButton label={range === 'month' ? t('views.calendar.nextMonth') : range === 'week' ? t('views.calendar.nextWeek') : t('views.calendar.nextDay')} onPress={() => props.onAnchor(shiftRange(range, anchor, 1))}>
          <ChevronRight size={18} />
        </IconButton>
        <h3 className="cal-title" data-testid="calendar-title">{rangeTitle(range, anchor, tag, weekStart)}</h3>
        <GoToDate value={anchor} onChange={props.onAnchor} />
        <ToggleButtonGroup
          className="segmented"
          aria-label={t('views.calendar.range')}
          selectionMode="single"
          disallowEmptySelection
          selectedKeys={[range]}
          onSelectionChange={(keys) => {
            const r = [...keys][0] as CalendarRange | undefined;
            if (r && r !== range) props.onRange(r);
          }}
        >
          {RANGES.map((r) => (
            <ToggleButton key={r} id={r} className={range === r ? 'on' : ''}>
              {rangeName(r)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <span className="muted cal-status" data-testid="calendar-status">
          {store.loading.value ? t('views.calendar.loading') : store.truncated.value ? t('views.calendar.inViewTruncated', { count: store.rows.value.length }) : t('views.calendar.inView', { count: store.rows.value.length })}
        </span>
      </div>
      {store.error.value ? <div className="form-message form-message-error">{store.error.value}</div> : null}
      {range === 'day' ? (
        <div className="cal-grid cal-day-view" role="grid" aria-label={t('views.calendar.day')}>
          <div className="cal-row" role="row">{dayCell(anchor, null)}</div>
        </div>
      ) : (
        <div className={`cal-grid cal-${range}`} role="grid" aria-label={rangeName(range)}>
          <div className="cal-row" role="row">
            {weekdayNames(tag, weekStart).map((w) => <div key={w} className="cal-weekday" role="columnheader">{w}</div>)}
          </div>
          {Array.from({ length: Math.ceil(days.length / 7) }, (_, week) => (
            <div key={days[week * 7]} className="cal-row" role="row">
              {days.slice(week * 7, week * 7 + 7).map((d) => dayCell(d, range === 'month' ? MONTH_DAY_ENTRIES : null))}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

