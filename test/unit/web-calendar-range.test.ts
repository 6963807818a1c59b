/**
 * Calendar arithmetic on plain days: the days a month (whole Monday-to-Sunday weeks), week or day
 * shows, moving by one range (month ends clamp), the where that reads only the visible range (with
 * and without an end column, dates and date-times), where rows fall (spans clipped to the range),
 * and a dragged value keeping its time and spelling.
 */
import { expect, test } from 'bun:test';
import { addDays, addMonths, dayOf, daysBetween, entriesByDay, moveValue, rangeTitle, rangeWhere, shiftRange, timeOf, visibleDays, weekday } from '../../web/src/features/calendar/calendar-range';

test('a month shows whole weeks from Monday to Sunday', () => {
  const days = visibleDays('month', '2026-11-25');
  expect(days[0]).toBe('2026-10-26');
  expect(days.at(-1)).toBe('2026-12-06');
  expect(days.length).toBe(42);
  expect(days.length % 7).toBe(0);
  // February 2021 starts on a Monday and ends on a Sunday: exactly four weeks.
  expect(visibleDays('month', '2021-02-10')).toHaveLength(28);
  expect(weekday('2021-02-01')).toBe(0);
});

test('a week is Monday to Sunday around the day; a day is itself', () => {
  expect(visibleDays('week', '2026-11-25')).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29']);
  expect(visibleDays('week', '2026-11-29')[0]).toBe('2026-11-23');
  expect(visibleDays('day', '2024-02-29')).toEqual(['2024-02-29']);
});

test('moving by a range: months clamp their last day, years roll over', () => {
  expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
  expect(addMonths('2023-01-31', 1)).toBe('2023-02-28');
  expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
  expect(addMonths('2026-01-15', -1)).toBe('2025-12-15');
  expect(shiftRange('week', '2026-12-30', 1)).toBe('2027-01-06');
  expect(shiftRange('day', '2024-03-01', -1)).toBe('2024-02-29');
  expect(shiftRange('month', '2026-03-31', -1)).toBe('2026-02-28');
  expect(addDays('2026-03-28', 2)).toBe('2026-03-30'); // no daylight-saving hour in plain days
  expect(daysBetween('2026-10-20', '2026-11-02')).toBe(13);
});

test('only the visible range is read: btw, or an overlap with an end column', () => {
  expect(rangeWhere('Due', undefined, '2026-11-01', '2026-11-30', false)).toBe('(Due,btw,2026-11-01,2026-11-30)');
  expect(rangeWhere('At', undefined, '2026-11-01', '2026-11-30', true)).toBe('(At,btw,2026-11-01 00:00:00,2026-11-30 23:59:59)');
  expect(rangeWhere('Start', 'End', '2026-11-01', '2026-11-07', false)).toBe('(Start,le,2026-11-07)~and((Start,ge,2026-11-01)~or(End,ge,2026-11-01))');
  expect(rangeWhere('Start', 'End', '2026-11-01', '2026-11-07', true, false)).toBe('(Start,le,2026-11-07 23:59:59)~and((Start,ge,2026-11-01 00:00:00)~or(End,ge,2026-11-01))');
});

test('rows fall on their day; spans cover each day to their end, clipped to the range', () => {
  const days = visibleDays('week', '2026-11-25');
  const rows = [
    { id: 1, at: '2026-11-24 10:30:00' },
    { id: 2, at: '2026-11-20', end: '2026-11-24' },
    { id: 3, at: '2026-11-28', end: '2026-12-10' },
    { id: 4, at: null },
    { id: 5, at: '2026-11-26', end: '2026-11-25' },
  ];
  const by = entriesByDay(rows, 'at', 'end', days);
  expect(by.get('2026-11-23')!.map((r) => r.id)).toEqual([2]);
  expect(by.get('2026-11-24')!.map((r) => r.id)).toEqual([1, 2]);
  expect(by.get('2026-11-26')!.map((r) => r.id)).toEqual([5]);
  expect(by.get('2026-11-29')!.map((r) => r.id)).toEqual([3]);
  expect([...by.values()].flat().length).toBe(6);
});

test('days and times of values; a moved value keeps its time and spelling', () => {
  expect(dayOf('2009-01-03 00:00:00')).toBe('2009-01-03');
  expect(dayOf('2009-01-03')).toBe('2009-01-03');
  expect(dayOf('')).toBeNull();
  expect(dayOf('junk')).toBeNull();
  expect(timeOf('2009-01-03 14:05:00')).toBe('14:05');
  expect(timeOf('2009-01-03 00:00:00')).toBe('');
  expect(moveValue('2009-01-31 14:05:00', 1)).toBe('2009-02-01 14:05:00');
  expect(moveValue('2009-01-31', -31)).toBe('2008-12-31');
  expect(moveValue('2009-01-31T10:00:00.000Z', 2)).toBe('2009-02-02T10:00:00.000Z');
  expect(moveValue(null, 3)).toBeNull();
});

test('range titles', () => {
  expect(rangeTitle('month', '2026-11-25', 'en-GB')).toBe('November 2026');
  expect(rangeTitle('week', '2026-11-25', 'en-GB')).toBe('23 Nov – 29 Nov 2026');
  expect(rangeTitle('day', '2026-11-25', 'en-GB')).toBe('Wednesday, 25 November 2026');
});
