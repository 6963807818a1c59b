/**
 * PostgreSQL spellings of the formula functions: literals typed (a bare `$n` has no type in
 * CONCAT or arithmetic), STRPOS, ROUND over numeric, intervals and epoch differences.
 *
 * PostgreSQL raises where SQLite and MariaDB answer NULL, and one raising row fails the read of the
 * whole table, so every spelling here is total: whole numbers are clamped to integer before the
 * cast, integer arithmetic is done in numeric, text becomes a date only when it holds one (NULL
 * otherwise), and DATEADD gives NULL outside years 1 to 9999 instead of overflowing.
 */
import type { DateUnit } from '../ast';
import { BASE_SPELLINGS, ISO_DATE_TEXT, SECONDS, nullOutside, type FormulaSpellings } from '../formula-spellings';


/** 10,001 years in each unit: a DATEADD count beyond it leaves years 1-9999 from any date in them. */
const SPAN: Record<DateUnit, number> = {
  second: 10001 * 366 * 86400, minute: 10001 * 366 * 1440, hour: 10001 * 366 * 24, day: 10001 * 366, week: Math.ceil((10001 * 366) / 7), month: 10001 * 12, year: 10001,
};

/** Years 1-9999 (the dates SQLite and MariaDB keep), and the same range 8000 years later. */
const FIRST = "TIMESTAMP '0001-12-31 23:59:59.999999 BC'";
const PAST = "TIMESTAMP '10000-01-01 00:00:00'";
const FIRST_8000 = "TIMESTAMP '8000-12-31 23:59:59.999999'";
const PAST_8000 = "TIMESTAMP '18000-01-01 00:00:00'";

export const POSTGRES_SPELLINGS: FormulaSpellings = {
  ...BASE_SPELLINGS,
  search: (a) => `STRPOS(${a(0)}, ${a(1)})`,
  round: (a, n) => (n > 1 ? `ROUND(CAST(${a(0)} AS numeric), ${a(1)})` : `ROUND(CAST(${a(0)} AS numeric))`),
  // The date is moved 8000 years on (a 400-year multiple: leap days fall alike), where a count of
  // at most SPAN cannot leave PostgreSQL's range (4713 BC to 294276 AD), kept within years 1-9999
  // there, and moved back: NULL where SQLite and MariaDB give NULL, 'timestamp out of range' never.
  dateAdd: (a, _n, unit) => {
    const from = `${nullOutside(`CAST(${a(0)} AS timestamp)`, FIRST, PAST)} + INTERVAL '8000 years'`;
    const count = `CAST(LEAST(GREATEST(${a(1)}, -${SPAN[unit]}), ${SPAN[unit]}) AS bigint)`;
    return `(${nullOutside(`${from} + ${count} * INTERVAL '1 ${unit}'`, FIRST_8000, PAST_8000)} - INTERVAL '8000 years')`;
  },
  datetimeDiff: (a, _n, unit) => `TRUNC(EXTRACT(EPOCH FROM (CAST(${a(0)} AS timestamp) - CAST(${a(1)} AS timestamp))) / ${SECONDS[unit]})`,
  groupConcat: (a) => `STRING_AGG(CAST(${a(0)} AS text), ', ' ORDER BY ${a(0)})`,
  text: (a) => `CAST(${a(0)} AS text)`,
  strLit: (a) => `CAST(${a(0)} AS text)`,
  numLit: (a) => `CAST(${a(0)} AS numeric)`,
  // 1e20 as a length or a count of digits failed with 'integer out of range'. (GREATEST passes over
  // a NULL, hence the CASE: a NULL count stays NULL.)
  int: (a) => `CASE WHEN ${a(0)} IS NOT NULL THEN CAST(LEAST(GREATEST(${a(0)}, -2147483648), 2147483647) AS integer) END`,
  count: (a) => `CASE WHEN ${a(0)} IS NOT NULL THEN CAST(LEAST(GREATEST(${a(0)}, 0), 2147483647) AS integer) END`,
  toDate: (a) => `CAST(SUBSTRING(CAST(${a(0)} AS text) FROM '${ISO_DATE_TEXT}') AS timestamp)`,
};
