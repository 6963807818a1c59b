/**
 * Calendar arithmetic on plain days ('YYYY-MM-DD', no time zone involved): the days a month, week
 * or day range shows (weeks start on Monday unless another first day is given), moving by one range, the where that reads only the
 * visible range, where each row falls, and a row's new date after a drag. Pure (unit tested).
 */
export type CalendarRange = 'month' | 'week' | 'day';

const DAY_MS = 86_400_000;
const toUtc = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
const fromUtc = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `day` plus `n` days. */
export const addDays = (day: string, n: number): string => fromUtc(toUtc(day) + n * DAY_MS);
/** Whole days from `a` to `b`. */
export const daysBetween = (a: string, b: string): number => Math.round((toUtc(b) - toUtc(a)) / DAY_MS);
/** 0 = Monday ... 6 = Sunday. */
export const weekday = (day: string): number => (new Date(toUtc(day)).getUTCDay() + 6) % 7;
/** The day's place in a week starting on `first` (0 = Sunday, 1 = Monday ... 6 = Saturday). */
export const weekdayFrom = (day: string, first: number): number => (new Date(toUtc(day)).getUTCDay() - first + 7) % 7;

/**
 * The first day of the week of a language (0 = Sunday, 1 = Monday ... 6 = Saturday) from
 * `Intl.Locale` week data where the browser has it, else Monday.
 */
export function firstDayOf(tag: string | undefined): number {
  try {
    const loc = new Intl.Locale(tag ?? 'en') as Intl.Locale & { weekInfo?: { firstDay: number }; getWeekInfo?: () => { firstDay: number } };
    const info = loc.getWeekInfo?.() ?? loc.weekInfo;
    if (info && info.firstDay >= 1 && info.firstDay <= 7) return info.firstDay % 7;
  } catch {
    // No week data: Monday.
  }
  return 1;
}

/** The short names of the weekdays in a language, from the week's first day on ('Mon', 'Tue', ...). */
export function weekdayNames(tag: string | undefined, first = 1, width: 'short' | 'narrow' | 'long' = 'short'): string[] {
  const fmt = new Intl.DateTimeFormat(tag, { weekday: width, timeZone: 'UTC' });
  // 2024-01-07 was a Sunday.
  return Array.from({ length: 7 }, (_, i) => fmt.format(new Date(Date.UTC(2024, 0, 7 + ((first + i) % 7)))));
}
/** Today in the browser's own calendar. */
export function today(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** The days shown: a month as whole weeks (from the week's first day `weekStart`, Monday by default), a week, or one day. */
export function visibleDays(range: CalendarRange, anchor: string, weekStart = 1): string[] {
  const weekday = (day: string) => weekdayFrom(day, weekStart);
  if (range === 'day') return [anchor];
  if (range === 'week') {
    const start = addDays(anchor, -weekday(anchor));
    return Array.from({ length: 7 }, (_, i) => addDays(start, i));
  }
  const first = `${anchor.slice(0, 7)}-01`;
  const next = addMonths(first, 1);
  const last = addDays(next, -1);
  const start = addDays(first, -weekday(first));
  const end = addDays(last, 6 - weekday(last));
  return Array.from({ length: daysBetween(start, end) + 1 }, (_, i) => addDays(start, i));
}

/** `day` moved by `n` months (the day of month kept where the month has it, else its last day). */
export function addMonths(day: string, n: number): string {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7)) - 1 + n;
  const year = y + Math.floor(m / 12);
  const month = ((m % 12) + 12) % 12;
  const dim = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const d = Math.min(Number(day.slice(8, 10)), dim);
  return `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The anchor one range earlier (-1) or later (+1). */
export function shiftRange(range: CalendarRange, anchor: string, dir: -1 | 1): string {
  return range === 'month' ? addMonths(anchor, dir) : addDays(anchor, range === 'week' ? 7 * dir : dir);
}

/**
 * The where that reads only rows in [first, last]: `btw` over the date column, or, with an end
 * column, the rows that start before the range ends and end (or start) inside or after its start.
 * Date-time columns are compared from 00:00:00 of the first day to 23:59:59 of the last.
 */
export function rangeWhere(dateColumn: string, endColumn: string | undefined, first: string, last: string, dateTime: boolean, endDateTime = dateTime): string {
  const lo = (dt: boolean) => (dt ? `${first} 00:00:00` : first);
  const hi = (dt: boolean) => (dt ? `${last} 23:59:59` : last);
  if (!endColumn) return `(${dateColumn},btw,${lo(dateTime)},${hi(dateTime)})`;
  return `(${dateColumn},le,${hi(dateTime)})~and((${dateColumn},ge,${lo(dateTime)})~or(${endColumn},ge,${lo(endDateTime)}))`;
}

/** The day of a date or date-time value ('2009-01-03', '2009-01-03 10:00:00', ISO with a zone), or null. */
export function dayOf(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  const s = String(value);
  if (/^\d{4}-\d{2}-\d{2}/.test(s) && !/[zZ]|[+-]\d{2}:?\d{2}$/.test(s.slice(10))) return s.slice(0, 10);
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : today(d);
}

/** The time of a date-time value ('10:30'), or ''. */
export function timeOf(value: unknown): string {
  const m = /[ T](\d{2}:\d{2})/.exec(String(value ?? ''));
  return m && m[1] !== '00:00' ? m[1]! : '';
}

/** Rows per visible day: a row with an end shows on every day from its start to its end. */
export function entriesByDay<R extends Record<string, unknown>>(rows: R[], dateColumn: string, endColumn: string | undefined, days: string[]): Map<string, R[]> {
  const out = new Map<string, R[]>(days.map((d) => [d, []]));
  if (!days.length) return out;
  const first = days[0]!;
  const last = days[days.length - 1]!;
  for (const row of rows) {
    const start = dayOf(row[dateColumn]);
    if (!start) continue;
    let end = endColumn ? (dayOf(row[endColumn]) ?? start) : start;
    if (end < start) end = start;
    for (let d = start < first ? first : start; d <= end && d <= last; d = addDays(d, 1)) out.get(d)?.push(row);
  }
  return out;
}

/** A date or date-time value moved by `days` days (the time and its spelling kept). */
export function moveValue(value: unknown, days: number): string | null {
  if (value === null || value === undefined || value === '') return null;
  const s = String(value);
  const day = dayOf(s);
  if (!day) return null;
  if (/^\d{4}-\d{2}-\d{2}/.test(s) && s.slice(0, 10) === day) return addDays(day, days) + s.slice(10);
  // A value with a zone: moved by whole days in absolute time.
  return new Date(new Date(s).getTime() + days * DAY_MS).toISOString();
}

/** The heading of a range: 'November 2026', '23 – 29 Nov 2026', 'Wednesday 25 November 2026'. */
export function rangeTitle(range: CalendarRange, anchor: string, locale?: string, weekStart = 1): string {
  const at = (day: string) => new Date(toUtc(day));
  const fmt = (day: string, o: Intl.DateTimeFormatOptions) => at(day).toLocaleDateString(locale, { timeZone: 'UTC', ...o });
  if (range === 'month') return fmt(anchor, { month: 'long', year: 'numeric' });
  if (range === 'day') return fmt(anchor, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const days = visibleDays('week', anchor, weekStart);
  return `${fmt(days[0]!, { day: 'numeric', month: 'short' })} – ${fmt(days[6]!, { day: 'numeric', month: 'short', year: 'numeric' })}`;
}
