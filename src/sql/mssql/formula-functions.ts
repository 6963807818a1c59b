/**
 * SQL Server spellings of the formula functions: LEN, SUBSTRING, CHARINDEX, DATEADD and
 * DATEDIFF_BIG, STRING_AGG .. WITHIN GROUP, nvarchar casts; CONCAT needs two arguments and
 * ROUND its length.
 */
import { BASE_SPELLINGS, SECONDS, all, type FormulaSpellings } from '../formula-spellings';

export const MSSQL_SPELLINGS: FormulaSpellings = {
  ...BASE_SPELLINGS,
  concat: (a, n) => (n > 1 ? `CONCAT(${all(a, n)})` : `CONCAT(${a(0)}, '')`),
  len: (a) => `LEN(${a(0)})`,
  mid: (a) => `SUBSTRING(${a(0)}, ${a(1)}, ${a(2)})`,
  search: (a) => `CHARINDEX(${a(1)}, ${a(0)})`,
  round: (a, n) => (n > 1 ? `ROUND(${a(0)}, ${a(1)})` : `ROUND(${a(0)}, 0)`),
  dateAdd: (a, _n, unit) => `DATEADD(${unit}, ${a(1)}, ${a(0)})`,
  datetimeDiff: (a, _n, unit) => `(DATEDIFF_BIG(second, ${a(1)}, ${a(0)}) / ${SECONDS[unit]})`,
  groupConcat: (a) => `STRING_AGG(CAST(${a(0)} AS nvarchar(max)), ', ') WITHIN GROUP (ORDER BY ${a(0)})`,
  text: (a) => `CAST(${a(0)} AS nvarchar(max))`,
  int: (a) => `CAST(${a(0)} AS int)`,
};
