/**
 * Values in and out by column kind. In: a caller's value is checked and converted for binding
 * (400 naming the column when it does not fit). Out: driver values become the same JSON on every
 * engine (booleans, lossless numbers, parsed JSON, base64 binaries).
 */
import type { ColumnModel } from '../schema/model';
import type { SqlValue } from '../sql/ast';
import { badRequest } from '../lib/errors';

const INT = /^[+-]?\d+$/;
const NUM = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(:\d{2}(\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/;
/** Base64 (standard or URL-safe alphabet), padded or not; what binary columns take. */
const BASE64 = /^(?:[A-Za-z0-9+/]*|[A-Za-z0-9_-]*)={0,2}$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A caller's value as a message shows it (JSON, but Infinity and NaN by name: JSON would say null). */
const shown = (v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : JSON.stringify(v));

const bad = (c: ColumnModel, v: unknown, what: string) =>
  badRequest(`Column '${c._cn}': ${shown(v)} is not ${what}`);

/** Whether y-m-d is a day of the (proleptic Gregorian) calendar: no 2023-02-29, no 2024-04-31. */
function isCalendarDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
}

/** 'YYYY-MM-DD' that names a real day (SQLite would store 2024-02-30 as it is; the others refuse it). */
function isDate(s: string): boolean {
  const m = DATE.exec(s);
  return !!m && isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** 'HH:MM[:SS[.f]]' within a day (24:00:00 is the end of one, as PostgreSQL and MySQL take it). */
function isTimeOfDay(s: string, allowEndOfDay: boolean): boolean {
  const m = TIME.exec(s);
  if (!m) return false;
  const [h, min, sec] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (h === 24) return allowEndOfDay && min === 0 && sec === 0 && !/[1-9]/.test(m[4] ?? '');
  return h < 24 && min < 60 && sec < 60;
}

/**
 * 400 naming the column when a value has more digits before the decimal point than a fixed decimal
 * column (`decimal(8,2)`: 6) holds once rounded to its scale, where each engine answered its own
 * words without the column ('numeric field overflow', 'Out of range value for column ... at row 1')
 * or, on SQLite, kept it. For writes only: a filter may compare with any number.
 */
export function fitsDecimal(c: ColumnModel, v: number | string): void {
  if (c.kind !== 'decimal') return;
  if (!c.precision || c.scale === null || c.scale === undefined || !/^(numeric|decimal|dec)\b/i.test(c.dt)) return;
  const whole = c.precision - c.scale;
  if (Math.abs(Number(Number(v).toFixed(Math.min(c.scale, 100)))) < 10 ** whole) return;
  throw badRequest(`Column '${c._cn}': ${shown(v)} is out of range: at most ${whole} digit${whole === 1 ? '' : 's'} before the decimal point`);
}

/** A plain decimal written with a fraction: sign, whole digits, fraction digits. */
const PLAIN_DECIMAL = /^([+-]?)(\d*)\.(\d+)$/;

/**
 * A value of a fixed decimal column (`decimal(10,2)`) rounded to the column's scale, half away from
 * zero, as PostgreSQL and MariaDB store it (SQLite keeps every digit it is given, so the same write
 * read back differently by engine). Text stays exact text; a value in exponent form passes as it is.
 * For writes only.
 */
export function roundedToScale(c: ColumnModel, v: number | string): number | string {
  if (c.kind !== 'decimal' || c.scale === null || c.scale === undefined || !/^(numeric|decimal|dec)\b/i.test(c.dt)) return v;
  const scale = c.scale;
  const m = PLAIN_DECIMAL.exec(typeof v === 'number' ? String(v) : v.trim());
  if (!m || m[3]!.length <= scale) return v;
  const kept = (m[2] || '0') + m[3]!.slice(0, scale);
  const up = m[3]!.charCodeAt(scale) >= 53; // the first dropped digit is 5 or more
  const digits = up ? (BigInt(kept) + 1n).toString().padStart(kept.length, '0') : kept;
  const whole = digits.slice(0, digits.length - scale).replace(/^0+(?=\d)/, '');
  const text = scale ? `${whole}.${digits.slice(digits.length - scale)}` : whole;
  const sign = m[1] === '-' && /[1-9]/.test(digits) ? '-' : '';
  return typeof v === 'number' ? Number(sign + text) : sign + text;
}

/**
 * The range of a column of a narrow integer type, known by its type and the precision its engine
 * tells: PostgreSQL's smallint and integer in bits (16, 32); MariaDB's tinyint (read as smallint),
 * smallint, mediumint and int in digits (3, 5, 7, 10), unsigned when its full type says so; SQL
 * Server's tinyint (0 to 255), smallint and int. Undefined for others (bigint, SQLite's integers).
 */
function integerRange(c: ColumnModel): [number, number] | undefined {
  const bits =
    (c.dt === 'integer' && c.precision === 32) || (c.dt === 'int' && c.precision === 10) ? 32
    : (c.dt === 'smallint' && (c.precision === 16 || c.precision === 5)) ? 16
    : c.dt === 'mediumint' && c.precision === 7 ? 24
    : c.dt === 'smallint' && c.precision === 3 ? 8
    : undefined;
  if (c.dt === 'tinyint' && c.precision === 3) return [0, 255];
  if (bits === undefined) return undefined;
  if (/\bunsigned\b/i.test(c.dtx ?? '')) return [0, 2 ** bits - 1];
  return [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1];
}

/**
 * 400 naming the column when a whole number does not fit a narrow integer column (integerRange),
 * where PostgreSQL answered 'value "2147483648" is out of range for type integer' without the
 * column, and MariaDB 'Out of range value for column 'qty' at row 1' by its SQL name.
 * For writes only: a filter may compare with any number.
 */
export function fitsWholeNumber(c: ColumnModel, v: number | string): void {
  if (c.kind !== 'integer') return;
  const range = integerRange(c);
  if (!range) return;
  const n = Number(v);
  if (n >= range[0] && n <= range[1]) return;
  throw badRequest(`Column '${c._cn}': ${shown(v)} is out of range: from ${range[0]} to ${range[1]}`);
}

/** Converts a caller's value for a column; null passes (nullability is checked by the writer). */
export function coerceValue(c: ColumnModel, v: unknown): SqlValue {
  if (v === null || v === undefined) return null;
  switch (c.kind) {
    case 'integer':
    case 'bigint': {
      // A whole number already (keys read back from a page): as the text path would give it (-0 as 0).
      if (typeof v === 'number' && Number.isSafeInteger(v)) return v + 0;
      const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
      if (!INT.test(s)) throw bad(c, v, 'a whole number');
      const n = Number(s);
      if (Number.isSafeInteger(n)) return n;
      // Beyond 64 bits no engine holds it: SQLite would keep it as an inexact REAL.
      const big = BigInt(s);
      if (big < INT64_MIN || big > INT64_MAX) throw badRequest(`Column '${c._cn}': ${shown(v)} is out of range for a whole number`);
      return s;
    }
    case 'decimal':
    case 'float': {
      if (typeof v === 'number' && Number.isFinite(v)) return v;
      if (typeof v === 'string' && NUM.test(v.trim())) {
        // '1e400' is no number a column keeps: it would be stored as Infinity or NULL.
        if (!Number.isFinite(Number(v))) throw badRequest(`Column '${c._cn}': ${shown(v)} is out of range for a number`);
        return c.kind === 'decimal' ? v.trim() : Number(v);
      }
      throw bad(c, v, 'a number');
    }
    case 'boolean': {
      if (typeof v === 'boolean') return v;
      if (v === 1) return true;
      if (v === 0) return false;
      // As whole numbers are read: spaces around it aside ('(Paid, eq, true)'), and in any case ('TRUE').
      const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
      if (s === '1' || s === 'true') return true;
      if (s === '0' || s === 'false') return false;
      throw bad(c, v, 'true or false');
    }
    // Spaces around a date or a time aside, as around numbers and date-times.
    case 'date':
      if (typeof v === 'string' && isDate(v.trim())) return v.trim();
      throw bad(c, v, 'a date (YYYY-MM-DD)');
    case 'time':
      if (typeof v === 'string' && isTimeOfDay(v.trim(), true)) return v.trim();
      throw bad(c, v, 'a time (HH:MM:SS)');
    case 'datetime': {
      const m = typeof v === 'string' ? DATETIME.exec(v.trim()) : null;
      if (!m || !isDate(m[1]!) || !isTimeOfDay(m[2]!, false) || Number.isNaN(Date.parse(`${m[1]}T${m[2]}${m[5] ?? 'Z'}`))) throw bad(c, v, 'a date and time (YYYY-MM-DD HH:MM:SS)');
      if (m[5]) return new Date(v as string).toISOString().slice(0, 19).replace('T', ' ');
      return `${m[1]} ${m[2]!.length === 5 ? `${m[2]}:00` : m[2]}`;
    }
    case 'json': {
      if (typeof v === 'string') {
        try {
          JSON.parse(v);
          return v;
        } catch {
          throw bad(c, v, 'valid JSON');
        }
      }
      return JSON.stringify(v);
    }
    case 'binary': {
      // Buffer.from drops what is not base64 without a word: '!!!' would be stored as no bytes at all.
      const s = typeof v === 'string' ? v.replace(/\s+/g, '') : null;
      if (s === null || !BASE64.test(s) || s.replace(/=+$/, '').length % 4 === 1 || (s.includes('=') && s.length % 4 !== 0)) throw bad(c, v, 'base64 text');
      return Buffer.from(s, 'base64');
    }
    default: {
      if (typeof v === 'object') throw bad(c, v, 'text');
      const s = String(v);
      // The choices first: a MariaDB ENUM's length is its longest choice, which said nothing of them.
      if (c.enumValues?.length && c.uidt !== 'MultiSelect' && !c.enumValues.includes(s)) {
        throw badRequest(`Column '${c._cn}': ${JSON.stringify(s)} is not one of ${c.enumValues.map((e) => `'${e}'`).join(', ')}`);
      }
      if (c.length && c.length > 0 && [...s].length > c.length) throw badRequest(`Column '${c._cn}' is longer than ${c.length} characters`);
      return s;
    }
  }
}

/** How engines write numbers JSON cannot hold. */
const NOT_FINITE = new Set(['Infinity', '-Infinity', 'NaN', 'inf', '-inf', 'nan']);

/** Whether a decimal text survives the trip through a JavaScript number. */
function losslessNumber(s: string): number | null {
  const n = Number(s);
  if (!Number.isFinite(n)) return null;
  const norm = (x: string) => x.replace(/^(-?)0+(?=\d)/, '$1').replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
  return norm(String(n)) === norm(s.trim()) ? n : null;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The JSON value of a driver value, the same on every engine. */
export function outputValue(c: ColumnModel, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (c.kind) {
    case 'boolean':
      // MySQL's BIT(1) comes as bytes (<01>): it read false whatever it held.
      if (v instanceof Uint8Array) return v.some((b) => b !== 0);
      // Any number but 0 is true, as in SQL (a tinyint(1) or a SQLite column may hold 5).
      if (typeof v === 'number') return v !== 0;
      return v === true || v === '1' || v === 't' || v === 'true' || (typeof v === 'bigint' && v !== 0n);
    case 'integer':
    case 'bigint':
    case 'decimal':
    case 'float': {
      // JSON has no Infinity or NaN (a formula's 1e309, PostgreSQL's 'Infinity'): null, as JSON.stringify
      // writes it, where GraphQL's Float refused the value with an internal error.
      if (typeof v === 'number') return Number.isFinite(v) ? v : null;
      const s = String(v);
      return losslessNumber(s) ?? (NOT_FINITE.has(s) ? null : s);
    }
    case 'json':
      if (typeof v === 'string') {
        try {
          return JSON.parse(v);
        } catch {
          return v;
        }
      }
      return v;
    case 'binary':
      return v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v;
    case 'datetime':
      // Already 'YYYY-MM-DD HH:MM:SS' (as SQLite stores it): nothing to change.
      if (typeof v === 'string' && v.length === 19 && v.charCodeAt(10) === 32) return v;
      if (v instanceof Date) return v.toISOString().slice(0, 19).replace('T', ' ');
      // A date alone (SQLite keeps a Date column's values so when it becomes a DateTime): midnight,
      // as the other engines convert it; its '-31' is no time zone to strip.
      if (typeof v === 'string' && DATE_ONLY.test(v)) return `${v} 00:00:00`;
      return String(v).replace('T', ' ').replace(/(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)?$/, '');
    case 'date':
      if (v instanceof Date) return v.toISOString().slice(0, 10);
      return String(v).slice(0, 10);
    default:
      return typeof v === 'bigint' ? v.toString() : v;
  }
}
