/**
 * SQLite spellings of the formula functions: `||` over COALESCE for concatenation, SUBSTR for
 * LEFT/RIGHT, scalar MIN/MAX, DATETIME modifiers and JULIANDAY differences, ordered GROUP_CONCAT
 * (SQLite 3.44+, bundled with Bun).
 */
import { BASE_SPELLINGS, SECONDS, type FormulaSpellings } from '../formula-spellings';

export const SQLITE_SPELLINGS: FormulaSpellings = {
  ...BASE_SPELLINGS,
  concat: (a, n) => `(${Array.from({ length: n }, (_, i) => `COALESCE(${a(i)}, '')`).join(' || ')})`,
  left: (a) => `SUBSTR(${a(0)}, 1, ${a(1)})`,
  right: (a) => `CASE WHEN ${a(1)} > 0 THEN SUBSTR(${a(0)}, -(${a(1)})) ELSE '' END`,
  least: (a, n) => `MIN(${Array.from({ length: n }, (_, i) => a(i)).join(', ')})`,
  greatest: (a, n) => `MAX(${Array.from({ length: n }, (_, i) => a(i)).join(', ')})`,
  dateAdd: (a, _n, unit) =>
    unit === 'week' ? `DATETIME(${a(0)}, CAST((CAST(${a(1)} AS INTEGER)) * 7 AS TEXT) || ' days')` : `DATETIME(${a(0)}, CAST(CAST(${a(1)} AS INTEGER) AS TEXT) || ' ${unit}s')`,
  count: (a) => `MAX(CAST(${a(0)} AS INTEGER), 0)`,
  datetimeDiff: (a, _n, unit) => `(CAST(ROUND((JULIANDAY(${a(0)}) - JULIANDAY(${a(1)})) * 86400) AS INTEGER) / ${SECONDS[unit]})`,
  groupConcat: (a) => `GROUP_CONCAT(${a(0)}, ', ' ORDER BY ${a(0)})`,
};
