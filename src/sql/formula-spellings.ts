/**
 * How each engine spells the formula functions (FormulaFnName), as data: one entry per function,
 * written as a template over its arguments. `a(i)` compiles argument i at the place it is called,
 * so arguments may appear in any order or more than once and bound parameters stay in step with
 * their placeholders. The base holds the common SQL spellings; each engine folder overrides the
 * ones that differ in its `formula-functions.ts`.
 */
import type { DateUnit, FormulaFnName } from './ast';

/** One spelling: `a(i)` is argument i compiled, `n` the argument count, `unit` a date unit. */
export type Spelling = (a: (i: number) => string, n: number, unit: DateUnit) => string;

export type FormulaSpellings = Record<FormulaFnName, Spelling>;

/** Every argument compiled, joined by `sep`. */
export const all = (a: (i: number) => string, n: number, sep = ', ') => Array.from({ length: n }, (_, i) => a(i)).join(sep);

/** Seconds per unit, for differences computed from a number of seconds. */
export const SECONDS: Record<DateUnit, number> = { second: 1, minute: 60, hour: 3600, day: 86400, week: 604800, month: 2592000, year: 31536000 };

/**
 * An ISO date or date-time every engine reads as one: year 0001-9999, a day the month has
 * (29 February in leap years only), time 00:00-23:59:59.999999, an optional zone (ignored by the cast).
 * Only capture-free groups: PostgreSQL's SUBSTRING(x FROM re) then answers the whole text, or NULL
 * when it does not match; the same text is a JavaScript RegExp.
 */
export const ISO_DATE_TEXT = (() => {
  const year = '(?!0000)\\d{4}';
  const leap = '(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)';
  const monthDay = '(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))';
  const time = '(?:[ T](?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d+)?)?(?:Z|[+-](?:0\\d|1[0-4])(?::?[0-5]\\d)?)?)?';
  return `^(?:${year}-${monthDay}|${leap}-02-29)${time}$`;
})();

/** Spellings shared by most engines (standard SQL, PostgreSQL-like). */
export const BASE_SPELLINGS: FormulaSpellings = {
  concat: (a, n) => `CONCAT(${all(a, n)})`,
  len: (a) => `LENGTH(${a(0)})`,
  left: (a) => `LEFT(${a(0)}, ${a(1)})`,
  right: (a) => `RIGHT(${a(0)}, ${a(1)})`,
  mid: (a) => `SUBSTR(${a(0)}, ${a(1)}, ${a(2)})`,
  search: (a) => `INSTR(${a(0)}, ${a(1)})`,
  least: (a, n) => `LEAST(${all(a, n)})`,
  greatest: (a, n) => `GREATEST(${all(a, n)})`,
  round: (a, n) => `ROUND(${all(a, n)})`,
  dateAdd: (a, _n, unit) => `(${a(0)} + ${a(1)} * INTERVAL '1 ${unit}')`,
  datetimeDiff: (a, _n, unit) => `((${a(0)} - ${a(1)}) / ${SECONDS[unit]})`,
  groupConcat: (a) => `STRING_AGG(${a(0)}, ', ' ORDER BY ${a(0)})`,
  text: (a) => `CAST(${a(0)} AS TEXT)`,
  int: (a) => `CAST(${a(0)} AS INTEGER)`,
  strLit: (a) => a(0),
  numLit: (a) => a(0),
  nullIfZero: (a) => `NULLIF(${a(0)}, 0)`,
  count: (a) => `GREATEST(CAST(${a(0)} AS INTEGER), 0)`,
  toDate: (a) => a(0),
};

/**
 * `x` limited to [lo, hi] and NULL outside it, with `x` written once (a guard that repeated its
 * argument would double the SQL at each level of nesting). `lo` and `hi` themselves are outside
 * the range kept: they are the nearest values just past its ends.
 */
export const nullOutside = (x: string, lo: string, hi: string) => `NULLIF(NULLIF(LEAST(GREATEST(${x}, ${lo}), ${hi}), ${lo}), ${hi})`;
