/**
 * MySQL/MariaDB spellings of the formula functions: CONCAT_WS (CONCAT answers NULL for any NULL
 * part), CHAR_LENGTH (LENGTH counts bytes), LOCATE, DATE_ADD and TIMESTAMPDIFF, GROUP_CONCAT.
 */
import type { DateUnit } from '../ast';
import { BASE_SPELLINGS, all, type FormulaSpellings } from '../formula-spellings';

const UNIT = (u: DateUnit) => u.toUpperCase();

export const MYSQL_SPELLINGS: FormulaSpellings = {
  ...BASE_SPELLINGS,
  concat: (a, n) => `CONCAT_WS('', ${all(a, n)})`,
  len: (a) => `CHAR_LENGTH(${a(0)})`,
  search: (a) => `LOCATE(${a(1)}, ${a(0)})`,
  dateAdd: (a, _n, unit) => `DATE_ADD(${a(0)}, INTERVAL CAST(${a(1)} AS SIGNED) ${UNIT(unit)})`,
  count: (a) => `GREATEST(CAST(${a(0)} AS SIGNED), 0)`,
  datetimeDiff: (a, _n, unit) => `TIMESTAMPDIFF(${UNIT(unit)}, ${a(1)}, ${a(0)})`,
  groupConcat: (a) => `GROUP_CONCAT(${a(0)} ORDER BY ${a(0)} SEPARATOR ', ')`,
  text: (a) => `CAST(${a(0)} AS CHAR)`,
  int: (a) => `CAST(${a(0)} AS SIGNED)`,
};
