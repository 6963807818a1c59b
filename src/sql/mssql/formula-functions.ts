/**
 * SQL Server spellings of the formula functions: LEN, SUBSTRING, CHARINDEX, DATEADD and
 * DATEDIFF_BIG, STRING_AGG .. WITHIN GROUP, nvarchar casts; CONCAT needs two arguments and
 * ROUND its length.
 */
import { BASE_SPELLINGS, SECONDS, all, type FormulaSpellings } from '../formula-spellings';

/** A whole number clamped to int (NULL stays NULL). */
const INT = (x: string) => `CASE WHEN ${x} IS NOT NULL THEN CAST(LEAST(GREATEST(${x}, -2147483648), 2147483647) AS int) END`;

export const MSSQL_SPELLINGS: FormulaSpellings = {
  ...BASE_SPELLINGS,
  concat: (a, n) => (n > 1 ? `CONCAT(${all(a, n)})` : `CONCAT(${a(0)}, '')`),
  len: (a) => `LEN(${a(0)})`,
  mid: (a) => `SUBSTRING(${a(0)}, ${a(1)}, ${a(2)})`,
  search: (a) => `CHARINDEX(${a(1)}, ${a(0)})`,
  round: (a, n) => (n > 1 ? `ROUND(${a(0)}, ${a(1)})` : `ROUND(${a(0)}, 0)`),
  dateAdd: (a, _n, unit) => `DATEADD(${unit}, ${INT(a(1))}, ${a(0)})`,
  datetimeDiff: (a, _n, unit) => `(DATEDIFF_BIG(second, ${a(1)}, ${a(0)}) / ${SECONDS[unit]})`,
  groupConcat: (a) => `STRING_AGG(CAST(${a(0)} AS nvarchar(max)), ', ') WITHIN GROUP (ORDER BY ${a(0)})`,
  text: (a) => `CAST(${a(0)} AS nvarchar(max))`,
  // SQL Server, like PostgreSQL, fails a cast past int ('Arithmetic overflow') and SUBSTRING, LEFT or
  // RIGHT of a negative length; GREATEST and LEAST pass over NULL, hence the CASE.
  int: (a) => INT(a(0)),
  count: (a) => `CASE WHEN ${a(0)} IS NOT NULL THEN CAST(LEAST(GREATEST(${a(0)}, 0), 2147483647) AS int) END`,
  toDate: (a) => `TRY_CAST(${a(0)} AS datetime2)`,
};
