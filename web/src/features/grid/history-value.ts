/**
 * A value of a row's history as the grid shows its column: the server keeps each value as text
 * ('1' for a ticked checkbox, '3600' for an hour's Duration, '1234.5' for a Currency, a date as
 * the database gave it); `historyValueOf` reads it back into the value the grid holds for that
 * column, and `historyText` writes it as the grid's cells do (currency with its sign, h:mm...).
 * Pure (unit tested).
 */
import type { ColumnMeta } from '../../api/dashboard';
import { formatTyped } from './cell-format';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const ISO = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A date-time the database driver wrote as a date object ('Fri Jan 01 2021 13:45:07 GMT+0000 (...)'), in UTC ISO form, or null. */
function fromDateString(raw: string): string | null {
  if (!/GMT[+-]\d{4}/.test(raw)) return null;
  const d = new Date(raw);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The value of a history text for column `c` (unknown columns keep the text). */
export function historyValueOf(c: ColumnMeta | undefined, raw: string): unknown {
  if (!c) return raw;
  if (c.kind === 'boolean') {
    const s = raw.trim().toLowerCase();
    if (s === '1' || s === 'true' || s === 't') return true;
    if (s === '0' || s === 'false' || s === 'f') return false;
    return raw;
  }
  if (c.kind === 'json') {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  if (c.kind === 'date' || c.kind === 'datetime') {
    const driven = fromDateString(raw);
    const m = ISO.exec(driven ?? raw);
    // A text with its own time zone stays as it is (the zone is part of the value).
    if (!m || (!driven && m[4] && c.kind === 'datetime')) return raw;
    // A date at midnight UTC (a driver's date object) is the date; a date-time is written as the API writes it.
    if (c.kind === 'date') return m[1];
    return `${m[1]} ${m[2]}${m[3] && !/^\.0+$/.test(m[3]) ? m[3] : ''}`;
  }
  if ((c.kind === 'integer' || c.kind === 'decimal' || c.kind === 'float') && NUMBER.test(raw.trim())) return Number(raw);
  return raw;
}

/** The text of a history value as the grid's cell writes it (typed numbers formatted; others as they read). */
export function historyText(c: ColumnMeta | undefined, raw: string): string {
  const v = historyValueOf(c, raw);
  const typed = c ? formatTyped(c, v) : null;
  if (typed !== null) return typed;
  return v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v);
}
