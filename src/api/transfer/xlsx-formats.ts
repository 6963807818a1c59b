/**
 * How a column's values go into an XLSX export: as typed cells with the column's number format, so a
 * spreadsheet shows them as the grid does. A Currency column's amounts in its currency (symbol where
 * its locale puts it, its decimals), a Percent column's percentages as Excel percents (42.5 is the
 * cell 0.425 shown 42.5%), a Decimal column to its decimals, dates, date-times and times as Excel
 * dates and times. Decimal and 64-bit numbers read as text stay text when a double would change them.
 */
import type { ColumnModel } from '../../schema/model';
import { shownTypeMeta } from '../../schema/column-type-meta';
import type { XlsxColumn, XlsxValue } from './xlsx-writer';

const digits = (n: number) => (n > 0 ? `.${'0'.repeat(n)}` : '');

/**
 * Excel's format code of amounts in `currency` as `locale` writes them (`"$"#,##0.00`,
 * `#,##0.00" €"`): the symbol and its spacing where the locale puts them, `precision` decimals (by
 * default the currency's own). The separators are Excel's, which shows them in the reader's locale.
 */
export function currencyFormat(currency = 'USD', locale = 'en-US', precision?: number): string {
  const nf = new Intl.NumberFormat(locale, { style: 'currency', currency, ...(precision === undefined ? {} : { minimumFractionDigits: precision, maximumFractionDigits: precision }) });
  const number = `#,##0${digits(nf.resolvedOptions().maximumFractionDigits ?? 2)}`;
  let code = '';
  let literal = '';
  let placed = false;
  const flush = () => {
    if (literal) code += `"${literal.replace(/"/g, '')}"`;
    literal = '';
  };
  for (const p of nf.formatToParts(1234.5)) {
    if (p.type === 'integer' || p.type === 'group' || p.type === 'decimal' || p.type === 'fraction') {
      if (placed) continue;
      flush();
      code += number;
      placed = true;
    } else if (p.type !== 'minusSign' && p.type !== 'plusSign') literal += p.value;
  }
  flush();
  return code;
}

/** The number format of a column's cells, or none (General). */
export function numberFormatOf(c: ColumnModel): string | undefined {
  const meta = shownTypeMeta(c);
  if (c.uidt === 'Currency') return currencyFormat(meta?.currency, meta?.locale, meta?.precision);
  if (c.uidt === 'Percent') return `0${digits(meta?.precision ?? 2)}%`;
  if (c.uidt === 'Decimal' && meta?.precision !== undefined) return `#,##0${digits(meta.precision)}`;
  if (c.kind === 'date') return 'yyyy-mm-dd';
  if (c.kind === 'datetime') return 'yyyy-mm-dd hh:mm:ss';
  if (c.kind === 'time') return 'hh:mm:ss';
  return undefined;
}

/** The columns of an export: header and number format. */
export const xlsxColumns = (columns: ColumnModel[]): XlsxColumn[] => columns.map((c) => ({ header: c._cn, numFmt: numberFormatOf(c) }));

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})(\.\d+)?)?$/;
const TIME = /^(\d{2,3}):(\d{2})(?::(\d{2})(\.\d+)?)?$/;
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const NUMERIC = new Set(['integer', 'bigint', 'decimal', 'float']);

/** Whether the number text survives as a double (15 significant digits at most). */
const fitsDouble = (s: string) => s.replace(/^[+-]?0*|[.]|e.*$/gi, '').replace(/0+$/, '').length <= 15;

/** A number of the column (a number, or its text when a double holds it exactly), else null. */
function numberOf(c: ColumnModel, v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && NUMERIC.has(c.kind) && NUMBER_TEXT.test(v.trim()) && fitsDouble(v.trim())) return Number(v);
  return null;
}

/** A value as an XLSX cell: numbers, booleans, dates and times typed, the rest as text. */
export function xlsxCell(c: ColumnModel, v: unknown): XlsxValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v;
  const n = numberOf(c, v);
  if (n !== null) return c.uidt === 'Percent' ? Number((n / 100).toPrecision(15)) : n;
  if (typeof v === 'string' && (c.kind === 'date' || c.kind === 'datetime')) {
    const m = DATETIME.exec(v);
    if (m) return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), Math.round(Number(m[7] ?? 0) * 1000)));
  }
  if (typeof v === 'string' && c.kind === 'time') {
    const m = TIME.exec(v);
    // A time of day as Excel's fraction of a day.
    if (m) return (+m[1]! * 3600 + +m[2]! * 60 + +(m[3] ?? 0) + Number(m[4] ?? 0)) / 86_400;
  }
  // A JSON column's value as JSON (its text "a" in quotes), which the import reads back as it was.
  return typeof v === 'object' || c.kind === 'json' ? JSON.stringify(v) : String(v);
}
