/**
 * Import column types: detected from a sample of a column's text values, shown in the preview,
 * changeable by the user, and turned into the logical type of a new column. Also the light
 * normalising of text on its way into a column (yes/no to booleans, 2024/01/31 to 2024-01-31);
 * the data core then checks and converts the value as for any write.
 */
import type { ColumnModel } from '../../schema/model';
import { nativeTypeOf, type ColumnInput } from '../../schema/column-input';
import type { Engine } from '../../sql/dialect';

export const IMPORT_TYPES = ['number', 'decimal', 'date', 'datetime', 'checkbox', 'email', 'url', 'select', 'text'] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

const INT = /^[+-]?\d{1,15}$/;
const NUM = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^\d{4}[-/]\d{2}[-/]\d{2}$/;
const DATETIME = /^\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_RE = /^(https?|ftp):\/\/[^\s]+$/i;
const TRUE_WORDS = new Set(['true', 'yes', 'y', 'x', '✓', '✔', 'checked', 'on']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '', 'unchecked', 'off']);
const CHECK_WORDS = new Set(['true', 'false', 'yes', 'no', 'y', 'n']);

/** Longest text of a SingleLineText column made by an import; longer values make a LongText one. */
const SHORT_TEXT = 255;
/** A column is a select when its sample holds at most this many distinct values... */
const SELECT_MAX_CHOICES = 12;
/** ...each shown at least this many times on average. */
const SELECT_MIN_REPEAT = 3;

/**
 * Digits a spreadsheet keeps as text, not as a number: a leading zero (a postal code, a part number:
 * 007 as a number is 7) or more digits before the point than a double holds exactly (an account or
 * card number: 12345678901234567890 as a number is 12345678901234567000).
 */
const CODE = /^[+-]?(0\d|\d{16})/;

const validDate = (s: string) => !Number.isNaN(Date.parse(s.slice(0, 10).replace(/\//g, '-')));

/**
 * A number written with a decimal comma, as a spreadsheet in French, Spanish or Portuguese saves it
 * in a CSV of semicolons (`1,5`, `-1.234,56`): read only in such files, where a comma cannot part values.
 */
const DECIMAL_COMMA = /^[+-]?(\d{1,3}(\.\d{3})+|\d+)(,\d+)?$/;
/** Whether numbers in a CSV with this delimiter are read with a decimal comma. */
export const decimalCommaFor = (delimiter: string | undefined) => delimiter === ';';
/** A number with a decimal comma (and points between thousands) in the writing the database reads. */
const commaToPoint = (v: string) => v.replace(/\./g, '').replace(',', '.');
/** The values of a sample as numbers read them: with a decimal comma, `1,5` is `1.5`. */
const asNumbers = (values: string[], decimalComma: boolean) => (decimalComma ? values.map((v) => (DECIMAL_COMMA.test(v.trim()) && /[,.]/.test(v) ? commaToPoint(v.trim()) : v)) : values);

/** The type of a column from its sample values (empty ones ignored); `decimalComma`: `1,5` is a number. */
export function detectType(values: string[], decimalComma = false): ImportType {
  const vals = values.map((v) => v.trim()).filter((v) => v !== '');
  if (vals.length === 0) return 'text';
  const all = (f: (v: string) => boolean) => vals.every(f);
  const numeric = !vals.some((v) => CODE.test(v));
  const nums = asNumbers(vals, decimalComma);
  if (numeric && nums.every((v) => INT.test(v))) return 'number';
  if (numeric && nums.every((v) => NUM.test(v))) return 'decimal';
  if (all((v) => CHECK_WORDS.has(v.toLowerCase()))) return 'checkbox';
  if (all((v) => DATE.test(v) && validDate(v))) return 'date';
  if (all((v) => (DATETIME.test(v) || DATE.test(v)) && validDate(v))) return 'datetime';
  if (all((v) => EMAIL.test(v))) return 'email';
  if (all((v) => URL_RE.test(v))) return 'url';
  const distinct = new Set(vals);
  if (distinct.size <= SELECT_MAX_CHOICES && vals.length >= distinct.size * SELECT_MIN_REPEAT && [...distinct].every((v) => v.length <= 64 && !v.includes(','))) return 'select';
  return 'text';
}

/** The distinct values of a sample, as select choices (commas are not allowed in a choice). */
export const choicesOf = (values: string[]) => [...new Set(values.map((v) => v.trim()).filter((v) => v !== '' && !v.includes(',')))].slice(0, 1000);

/** A new column for an import type (`long`: the sample holds text longer than a line). */
export function columnInputOf(type: ImportType, cn: string, _cn: string, choices: string[], long: boolean): ColumnInput {
  const base = { cn, _cn, nullable: true };
  switch (type) {
    case 'number':
      return { ...base, uidt: 'Number' };
    case 'decimal':
      return { ...base, uidt: 'Decimal' };
    case 'date':
      return { ...base, uidt: 'Date' };
    case 'datetime':
      return { ...base, uidt: 'DateTime' };
    case 'checkbox':
      return { ...base, uidt: 'Checkbox' };
    case 'email':
      return { ...base, uidt: 'Email' };
    case 'url':
      return { ...base, uidt: 'URL' };
    case 'select':
      return choices.length ? { ...base, uidt: 'SingleSelect', options: choices } : { ...base, uidt: 'SingleLineText' };
    case 'text':
      return { ...base, uidt: long ? 'LongText' : 'SingleLineText' };
  }
}

/**
 * The bytes MariaDB and MySQL count for a row of a new table (at most 65,535, or the CREATE TABLE is
 * refused): a `varchar(n)` takes 4n + 2 in utf8mb4, any other column at most 12 (a text is a pointer).
 */
const MYSQL_ROW_BYTES = 65_535;
const mysqlColumnBytes = (c: ColumnInput) => {
  const size = /^varchar\((\d+)\)$/i.exec(nativeTypeOf('mysql', c.uidt === 'ID' ? 'Number' : c.uidt, c.dtxp))?.[1];
  return size ? Number(size) * 4 + 2 : 12;
};

/**
 * The columns of a new table, fitted to the engine's row size: on MariaDB and MySQL a wide sheet
 * (more than about 60 text columns) would not fit in varchar(255) columns, so its single-line
 * text columns become long text (from the last one back) until the row fits.
 */
export function fitRowSize(engine: Engine, inputs: ColumnInput[]): ColumnInput[] {
  if (engine !== 'mysql') return inputs;
  const fitted = [...inputs];
  let bytes = fitted.reduce((sum, c) => sum + mysqlColumnBytes(c), Math.ceil(fitted.length / 8));
  for (let i = fitted.length - 1; i >= 0 && bytes > MYSQL_ROW_BYTES; i--) {
    if (fitted[i]!.uidt !== 'SingleLineText') continue;
    bytes -= mysqlColumnBytes(fitted[i]!);
    fitted[i] = { ...fitted[i]!, uidt: 'LongText' };
    bytes += mysqlColumnBytes(fitted[i]!);
  }
  return fitted;
}

/** Whether a sample holds text too long for a single-line column. */
export const hasLongText = (values: string[]) => values.some((v) => v.length > SHORT_TEXT || v.includes('\n'));

/** The import type an existing column takes (what the preview shows for a mapped column). */
export function importTypeOf(c: ColumnModel): ImportType {
  switch (c.uidt) {
    case 'Email':
      return 'email';
    case 'URL':
      return 'url';
    case 'SingleSelect':
      return 'select';
  }
  switch (c.kind) {
    case 'integer':
    case 'bigint':
      return 'number';
    case 'decimal':
    case 'float':
      return 'decimal';
    case 'boolean':
      return 'checkbox';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime';
    default:
      return 'text';
  }
}

/**
 * Text of a file on its way into column `c`: empty stays empty (no value), booleans from
 * yes/no words, dates with slashes to dashes, surrounding blanks trimmed off non-text values, and
 * with `decimalComma` (a CSV of semicolons) numbers written `1.234,5` as 1234.5.
 */
export function cellValue(c: ColumnModel, text: string, decimalComma = false): unknown {
  if (text === '') return '';
  // A choice, an e-mail address or a URL with blanks around it (' red', as the preview's detection
  // reads it): the value without them.
  if (c.uidt === 'SingleSelect' || c.uidt === 'Email' || c.uidt === 'URL') return text.trim();
  // An amount as a spreadsheet shows it ('$5.00', '-€7.25'): without its currency sign (a thousands separator is still refused).
  if (c.uidt === 'Currency') return asNumbers([text.replace(/\p{Sc}/gu, '').trim()], decimalComma)[0];
  switch (c.kind) {
    case 'boolean': {
      const w = text.trim().toLowerCase();
      if (TRUE_WORDS.has(w) || w === '1') return true;
      if (FALSE_WORDS.has(w) || w === '0') return false;
      return text;
    }
    case 'integer':
    case 'bigint':
    case 'decimal':
    case 'float':
      return asNumbers([text.trim()], decimalComma)[0];
    case 'date': {
      const t = text.trim();
      if (DATE.test(t)) return t.replace(/\//g, '-');
      if (DATETIME.test(t) && / 00:00(:00)?$/.test(t)) return t.slice(0, 10).replace(/\//g, '-');
      return t;
    }
    case 'datetime': {
      const t = text.trim();
      if (DATE.test(t)) return `${t.replace(/\//g, '-')} 00:00:00`;
      return DATETIME.test(t) ? t.slice(0, 10).replace(/\//g, '-') + t.slice(10) : t;
    }
    default:
      return text;
  }
}
