/**
 * What a form field tells its user about the text typed, before any call: the currency sign or the
 * percent sign it shows beside a number, the input type and keyboard of an email, URL or phone
 * number, and the problem of a text the column will not take (a number that is none, JSON that
 * does not read, an email address without its @). Pure (unit tested); the server checks again.
 */
import type { ColumnMeta } from '../../api/dashboard';
import { t } from '../../i18n';

/** The sign of a currency in a locale: 'EUR' -> '€', 'USD' -> '$' (en-US); the code itself when Intl knows none. */
export function currencySign(code = 'USD', locale?: string): string {
  try {
    const part = new Intl.NumberFormat(locale, { style: 'currency', currency: code }).formatToParts(0).find((p) => p.type === 'currency');
    return part?.value ?? code;
  } catch {
    return code;
  }
}

/** The sign shown before (currency) or after (percent) a field's number, or null. */
export function fieldAdornment(c: ColumnMeta): { before?: string; after?: string } | null {
  if (c.uidt === 'Currency') return { before: currencySign(c.meta?.currency, c.meta?.locale) };
  if (c.uidt === 'Percent') return { after: '%' };
  return null;
}

/** The input type of a text column whose values have a form of their own (the browser's keyboard and autofill follow it). */
export const textInputType = (c: ColumnMeta): string | null => (c.uidt === 'Email' ? 'email' : c.uidt === 'URL' ? 'url' : c.uidt === 'PhoneNumber' ? 'tel' : null);

const NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()\-.]+$/;
const NUMERIC_KINDS = new Set(['integer', 'bigint', 'decimal', 'float']);

/** Why the column will not take `text` (in the current language), or null when it may (empty text included). */
export function fieldProblem(c: ColumnMeta, text: string): string | null {
  const s = text.trim();
  if (s === '') return null;
  if (c.kind === 'json') {
    try {
      JSON.parse(s);
      return null;
    } catch {
      return t('grid.field.badJson');
    }
  }
  if (c.uidt === 'Email') return EMAIL.test(s) ? null : t('grid.field.badEmail');
  if (c.uidt === 'PhoneNumber') return PHONE.test(s) ? null : t('grid.field.badPhone');
  // A duration is typed as h:mm; a percentage may end in %.
  if (c.uidt === 'Duration') return null;
  const number = c.uidt === 'Percent' ? s.replace(/%$/, '') : s;
  if (NUMERIC_KINDS.has(c.kind) && !NUMBER.test(number)) return t('grid.field.badNumber');
  if (c.kind === 'integer' && c.uidt !== 'Percent' && !/^\s*[+-]?\d+\s*$/.test(number)) return t('grid.field.wholeNumber');
  return null;
}
