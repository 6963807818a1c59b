/**
 * How many times the spelling of each formula function writes one of its arguments, at most over
 * the engines: a guard such as `CASE WHEN x IS NOT NULL THEN .. x .. END` repeats `x`, so SQL
 * nesting such calls doubles at each level. Read from the spellings themselves, so it cannot drift;
 * the size limit of a formula (virtual-columns.ts) counts with it.
 */
import type { DateUnit, FormulaFnName } from './ast';
import { BASE_SPELLINGS, type FormulaSpellings } from './formula-spellings';
import { MSSQL_SPELLINGS } from './mssql/formula-functions';
import { MYSQL_SPELLINGS } from './mysql/formula-functions';
import { POSTGRES_SPELLINGS } from './postgres/formula-functions';
import { SQLITE_SPELLINGS } from './sqlite/formula-functions';

const TABLES: FormulaSpellings[] = [SQLITE_SPELLINGS, POSTGRES_SPELLINGS, MYSQL_SPELLINGS, MSSQL_SPELLINGS];
const UNITS: DateUnit[] = ['second', 'minute', 'hour', 'day', 'week', 'month', 'year'];

function usesOf(name: FormulaFnName): number {
  let most = 1;
  for (const table of TABLES) {
    for (const unit of UNITS) {
      const seen = [0, 0, 0];
      table[name]((i) => {
        seen[i] = (seen[i] ?? 0) + 1;
        return 'x';
      }, 3, unit);
      most = Math.max(most, ...seen);
    }
  }
  return most;
}

/** Most uses of one argument in any engine's spelling of each formula function. */
export const FORMULA_ARG_USES = Object.fromEntries(Object.keys(BASE_SPELLINGS).map((name) => [name, usesOf(name as FormulaFnName)])) as Record<FormulaFnName, number>;
