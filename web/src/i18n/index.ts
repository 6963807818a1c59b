/**
 * Translation and locale-aware formatting, through FormatJS (react-intl): `t(key, values)` for
 * text (ICU messages: plurals, selects, numbers), `tx` for text with React elements inside, and
 * formatters for dates, numbers, currencies and relative times that follow the chosen language.
 * Missing keys fall back to English. The app re-renders from the top when the language changes
 * (main.tsx keys the router on it), so `t` may be called anywhere at render time; code that runs
 * outside rendering (toasts, menus built on demand) calls it when the text is needed.
 */
import type { ReactNode } from 'react';
import { createIntl, createIntlCache, type IntlShape } from 'react-intl';
import { CATALOGUES, type MessageKey } from './catalogues';
import { locale, tagOf, type LocaleCode } from './locales';
import { relativeTime } from '../lib/relative-time';

export { locale, LOCALES, type LocaleCode } from './locales';
export type { MessageKey } from './catalogues';

const cache = createIntlCache();
const made = new Map<LocaleCode, IntlShape>();

/** The react-intl object of a language (made once). */
export function intlFor(code: LocaleCode): IntlShape {
  let intl = made.get(code);
  if (!intl) {
    intl = createIntl(
      {
        locale: tagOf(code),
        defaultLocale: 'en',
        messages: { ...CATALOGUES.en, ...CATALOGUES[code] },
        // A key missing from a catalogue shows its English text (the test keeps catalogues whole).
        onError: () => {},
      },
      cache,
    );
    made.set(code, intl);
  }
  return intl;
}

/** The react-intl object of the current language. */
export const intl = (): IntlShape => intlFor(locale.value);

type Values = Record<string, string | number | boolean | Date | null | undefined>;

/** The text of a message in the current language. */
export function t(key: MessageKey, values?: Values): string {
  return intl().formatMessage({ id: key }, values as Record<string, string | number>) as string;
}

/** A message with React elements among its values (e.g. `{name}` as <strong>, or `<b>…</b>` tags). */
export function tx(key: MessageKey, values: Record<string, ReactNode | ((chunks: ReactNode[]) => ReactNode)>): ReactNode {
  return intl().formatMessage({ id: key }, values as never) as ReactNode;
}

/** Whether the English catalogue has a key (for codes sent by the server). */
export const hasMessage = (key: string): key is MessageKey => key in CATALOGUES.en;

/** A date (and time) in the current language. */
export const formatDate = (value: Date | string | number, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string =>
  intl().formatDate(value instanceof Date ? value : new Date(value), options);

export const formatDateTime = (value: Date | string | number, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string =>
  intl().formatDate(value instanceof Date ? value : new Date(value), options);

export const formatTime = (value: Date | string | number, options: Intl.DateTimeFormatOptions = { timeStyle: 'short' }): string =>
  intl().formatTime(value instanceof Date ? value : new Date(value), options);

/** A number (or currency, percent with options) in the current language. */
export const formatNumber = (value: number, options?: Intl.NumberFormatOptions): string => intl().formatNumber(value, options as Parameters<IntlShape['formatNumber']>[1]);

/** "2 minutes ago" in the current language. */
export const formatRelative = (iso: string, now = Date.now()): string => relativeTime(iso, now, tagOf(locale.value));

/** The BCP 47 tag of the current language (for components that take a locale). */
export const localeTag = (): string => tagOf(locale.value);
