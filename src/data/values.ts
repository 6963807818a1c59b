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
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(:\d{2}(\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/;

const bad = (c: ColumnModel, v: unknown, what: string) =>
  badRequest(`Column '${c._cn}': ${JSON.stringify(v)} is not ${what}`);

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
      return Number.isSafeInteger(n) ? n : s;
    }
    case 'decimal':
    case 'float': {
      if (typeof v === 'number' && Number.isFinite(v)) return v;
      if (typeof v === 'string' && NUM.test(v.trim())) return c.kind === 'decimal' ? v.trim() : Number(v);
      throw bad(c, v, 'a number');
    }
    case 'boolean': {
      if (typeof v === 'boolean') return v;
      if (v === 1 || v === '1' || v === 'true') return true;
      if (v === 0 || v === '0' || v === 'false') return false;
      throw bad(c, v, 'true or false');
    }
    case 'date':
      if (typeof v === 'string' && DATE.test(v) && !Number.isNaN(Date.parse(v))) return v;
      throw bad(c, v, 'a date (YYYY-MM-DD)');
    case 'time':
      if (typeof v === 'string' && TIME.test(v)) return v;
      throw bad(c, v, 'a time (HH:MM:SS)');
    case 'datetime': {
      const m = typeof v === 'string' ? DATETIME.exec(v.trim()) : null;
      if (!m || Number.isNaN(Date.parse(`${m[1]}T${m[2]}${m[5] ?? 'Z'}`))) throw bad(c, v, 'a date and time (YYYY-MM-DD HH:MM:SS)');
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
    case 'binary':
      if (typeof v === 'string') return Buffer.from(v, 'base64');
      throw bad(c, v, 'base64 text');
    default: {
      if (typeof v === 'object') throw bad(c, v, 'text');
      const s = String(v);
      if (c.length && c.length > 0 && [...s].length > c.length) throw badRequest(`Column '${c._cn}' is longer than ${c.length} characters`);
      if (c.enumValues?.length && c.uidt !== 'MultiSelect' && !c.enumValues.includes(s)) {
        throw badRequest(`Column '${c._cn}': ${JSON.stringify(s)} is not one of ${c.enumValues.map((e) => `'${e}'`).join(', ')}`);
      }
      return s;
    }
  }
}

/** Whether a decimal text survives the trip through a JavaScript number. */
function losslessNumber(s: string): number | null {
  const n = Number(s);
  if (!Number.isFinite(n)) return null;
  const norm = (x: string) => x.replace(/^(-?)0+(?=\d)/, '$1').replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
  return norm(String(n)) === norm(s.trim()) ? n : null;
}

/** The JSON value of a driver value, the same on every engine. */
export function outputValue(c: ColumnModel, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (c.kind) {
    case 'boolean':
      return v === true || v === 1 || v === '1' || v === 't' || v === 'true' || (typeof v === 'bigint' && v !== 0n);
    case 'integer':
    case 'bigint':
    case 'decimal':
    case 'float': {
      if (typeof v === 'number') return v;
      const s = String(v);
      return losslessNumber(s) ?? s;
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
      return String(v).replace('T', ' ').replace(/(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)?$/, '');
    case 'date':
      if (v instanceof Date) return v.toISOString().slice(0, 10);
      return String(v).slice(0, 10);
    default:
      return typeof v === 'bigint' ? v.toString() : v;
  }
}
