/**
 * The CSV formula guard of the server's exports (src/api/transfer/export.ts), for files the web app
 * writes itself: text that Excel or LibreOffice would run as a formula (starting with = + - @ tab or
 * CR) gets an apostrophe in front, as OWASP advises on CSV injection. The web app imports nothing
 * of the server, so the rule is kept here too; a number stays as it is.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * Type names the databases report for number columns (PostgreSQL's format_type, mysql2's type
 * names, SQLite's declared types), whose big values travel as text: `-5.00` of a numeric stays.
 */
const NUMERIC_TYPE = /^(?:(?:tiny|small|medium|big)?int(?:eger|24|[248])?|tiny|short|long(?:long)?|year|(?:new)?decimal|numeric|real|float[48]?|double(?: precision)?)\b/i;

/** Whether a column of this raw type holds numbers; an unknown type ('') counts, since number text cannot run as a formula. */
export const isNumericType = (type: string | undefined): boolean => !type || NUMERIC_TYPE.test(type.trim());

/** `text` as a spreadsheet may open it: formula-like text behind an apostrophe, number text of a number column as it is. */
export function formulaSafe(text: string, numeric: boolean): string {
  if (!FORMULA_START.test(text) || (numeric && NUMBER_TEXT.test(text))) return text;
  return `'${text}`;
}
