/**
 * PostgreSQL spellings of the formula functions: literals typed (a bare `$n` has no type in
 * CONCAT or arithmetic), STRPOS, ROUND over numeric, intervals and epoch differences.
 */
import { BASE_SPELLINGS, SECONDS, type FormulaSpellings } from '../formula-spellings';

export const POSTGRES_SPELLINGS: FormulaSpellings = {
  ...BASE_SPELLINGS,
  search: (a) => `STRPOS(${a(0)}, ${a(1)})`,
  round: (a, n) => (n > 1 ? `ROUND(CAST(${a(0)} AS numeric), ${a(1)})` : `ROUND(CAST(${a(0)} AS numeric))`),
  dateAdd: (a, _n, unit) => `(CAST(${a(0)} AS timestamp) + ${a(1)} * INTERVAL '1 ${unit}')`,
  datetimeDiff: (a, _n, unit) => `TRUNC(EXTRACT(EPOCH FROM (CAST(${a(0)} AS timestamp) - CAST(${a(1)} AS timestamp))) / ${SECONDS[unit]})`,
  groupConcat: (a) => `STRING_AGG(CAST(${a(0)} AS text), ', ' ORDER BY ${a(0)})`,
  text: (a) => `CAST(${a(0)} AS text)`,
  strLit: (a) => `CAST(${a(0)} AS text)`,
  numLit: (a) => `CAST(${a(0)} AS numeric)`,
  int: (a) => `CAST(${a(0)} AS integer)`,
};
