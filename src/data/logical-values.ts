/**
 * Checks of values by logical type, on writes: an email, URL or phone number that is not one, a
 * choice outside a select's options, a rating out of range, a duration, currency or percentage
 * that is no number, a bad list of attachments answer 400 naming the column. The value kind
 * (text, number...) is checked first by coerceValue.
 */
import type { ColumnModel } from '../schema/model';
import type { SqlValue } from '../sql/ast';
import { badRequest } from '../lib/errors';
import { LIMITS } from '../config/limits';
import { coerceValue, fitsDecimal, fitsWholeNumber, roundedToScale } from './values';
import { attachmentFiles, checkRating, durationSeconds } from './type-option-values';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const PERCENT_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*%\s*$/;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const BARE_URL = /^[\w-]+(\.[\w-]+)+(:\d+)?([/?#]\S*)?$/;
const URL_PROTOCOLS = new Set(['http:', 'https:', 'ftp:', 'mailto:']);
const PHONE = /^\+?[0-9 ()\-.]+$/;

const invalid = (c: ColumnModel, v: unknown, what: string) => badRequest(`Column '${c._cn}': ${JSON.stringify(v)} is not ${what}`);

function isUrl(s: string): boolean {
  if (BARE_URL.test(s)) return true;
  try {
    return URL_PROTOCOLS.has(new URL(s).protocol);
  } catch {
    return false;
  }
}

/** A MultiSelect value as stored: the choices joined by commas (an array or comma text comes in). */
function multiSelect(c: ColumnModel, v: unknown): string {
  const items = (Array.isArray(v) ? v.map(String) : String(v).split(',')).map((s) => s.trim()).filter(Boolean);
  const bad = c.enumValues?.length ? items.find((i) => !c.enumValues!.includes(i)) : undefined;
  if (bad !== undefined) throw badRequest(`Column '${c._cn}': ${JSON.stringify(bad)} is not one of ${c.enumValues!.map((e) => `'${e}'`).join(', ')}`);
  return items.join(',');
}

/** coerceValue, then the checks of the column's logical type: what every write binds. */
export function writeValue(c: ColumnModel, v: unknown): SqlValue {
  if (v === null || v === undefined) return null;
  if (c.uidt === 'MultiSelect' && c.kind === 'string') return coerceValue(c, multiSelect(c, v));
  if (c.uidt === 'Duration') return coerceValue(c, durationSeconds(c, v));
  if (c.uidt === 'Attachment') return coerceValue(c, attachmentFiles(c, v));
  // A percentage may be written as shown ('12.5%'): the column holds the number.
  if (c.uidt === 'Percent' && typeof v === 'string' && PERCENT_TEXT.test(v)) v = v.trim().slice(0, -1).trim();
  let out = coerceValue(c, v);
  if (typeof out === 'number' || typeof out === 'string') {
    fitsDecimal(c, out);
    fitsWholeNumber(c, out);
    out = roundedToScale(c, out);
  }
  const s = typeof out === 'string' ? out.trim() : '';
  switch (c.uidt) {
    case 'Email':
      if (!EMAIL.test(s)) throw invalid(c, v, 'a valid email address');
      break;
    case 'URL':
      if (!isUrl(s)) throw invalid(c, v, 'a valid URL');
      break;
    case 'PhoneNumber':
      if (!PHONE.test(s) || (s.match(/\d/g) ?? []).length < LIMITS.phoneMinDigits) throw invalid(c, v, 'a valid phone number');
      break;
    case 'Rating':
      checkRating(c, out);
      break;
    case 'Currency':
    case 'Percent':
      if (typeof out !== 'number' && !NUMBER.test(String(out).trim())) throw invalid(c, v, 'a number');
      break;
  }
  return out;
}
