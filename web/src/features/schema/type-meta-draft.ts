/**
 * The options of a logical type as the column form edits them (currency code, decimal places,
 * rating maximum and icon, duration format, choices with colours, attachment limits, a date-time
 * set to the time of each change), and how
 * they become `ColumnInput.meta`.
 */
import type { ColumnMeta, SelectChoice } from '../../api/dashboard';
import { LIMITS } from '../../lib/limits';
import { t } from '../../i18n';

/** The form's text of each option (empty: not set). */
export interface TypeMetaDraft {
  currency: string;
  locale: string;
  /** Decimal places shown (Percent, Decimal, Currency). */
  places: string;
  max: string;
  icon: string;
  format: string;
  maxFiles: string;
  accept: string;
  /** DateTime: set to the time of each change of the row. */
  touch: boolean;
}

/** Colours a new choice gets in turn (the server's palette). */
export const CHOICE_COLORS = ['#cfdffe', '#d0f1fd', '#c2f5e9', '#ffdaf6', '#ffdce5', '#fee2d5', '#ffeab6', '#d1f7c4', '#ede2fe', '#eeeeee'];

/** The durations a Duration column shows. */
export const DURATION_FORMATS = ['h:mm', 'h:mm:ss', 'h:mm:ss.s'] as const;

/** Icons of a Rating column, with what they look like (in the current language). */
export const ratingIcons = (): [string, string][] => [
  ['star', t('schema.form.iconStar')],
  ['heart', t('schema.form.iconHeart')],
  ['circle', t('schema.form.iconCircle')],
  ['diamond', t('schema.form.iconDiamond')],
];

/** Currency codes the browser knows, the usual ones first. */
export function currencyCodes(): string[] {
  const common = ['USD', 'EUR', 'GBP', 'JPY', 'CNY', 'INR', 'CAD', 'AUD', 'CHF', 'BRL'];
  let all: string[] = [];
  try {
    all = (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('currency');
  } catch {
    all = [];
  }
  return [...common, ...all.filter((c) => !common.includes(c))];
}

/** The options of a new column. */
export function newTypeMeta(): TypeMetaDraft {
  return { currency: 'USD', locale: '', places: '', max: '5', icon: 'star', format: 'h:mm', maxFiles: '', accept: '', touch: false };
}

/** The options of an existing column. */
export function typeMetaDraftOf(c: ColumnMeta): TypeMetaDraft {
  const m = c.meta ?? {};
  const d = newTypeMeta();
  return {
    currency: m.currency ?? d.currency, locale: m.locale ?? '', places: m.precision !== undefined ? String(m.precision) : '', max: m.max !== undefined ? String(m.max) : d.max,
    icon: m.icon ?? d.icon, format: m.format ?? d.format, maxFiles: m.maxFiles !== undefined ? String(m.maxFiles) : '', accept: (m.accept ?? []).join(', '),
    touch: m.touch === true,
  };
}

/** The choices of an existing select column, with their colours. */
export function choicesOf(c: ColumnMeta): SelectChoice[] {
  const colors = c.meta?.options ?? [];
  return (c.enumValues ?? []).map((title, i) => ({ title, color: colors.find((o) => o.title === title)?.color ?? CHOICE_COLORS[i % CHOICE_COLORS.length]! }));
}

/** The choices with a title, trimmed, without repeats. */
export function cleanChoices(list: SelectChoice[]): SelectChoice[] {
  const seen = new Set<string>();
  return list.map((o) => ({ ...o, title: o.title.trim() })).filter((o) => o.title && !seen.has(o.title) && seen.add(o.title));
}

const whole = (s: string) => (/^\d+$/.test(s.trim()) ? Number(s.trim()) : NaN);

/** Why the options cannot be saved, or null. */
export function typeMetaProblem(uidt: string, m: TypeMetaDraft): string | null {
  if (['Currency', 'Percent', 'Decimal'].includes(uidt) && m.places.trim()) {
    const n = whole(m.places);
    if (!(n >= 0 && n <= 8)) return t('schema.problem.places');
  }
  if (uidt === 'Currency' && !/^[A-Za-z]{3}$/.test(m.currency.trim())) return t('schema.problem.currency');
  if (uidt === 'Rating') {
    const n = whole(m.max);
    if (!(n >= 1 && n <= LIMITS.ratingMax)) return t('schema.problem.ratingMax', { max: LIMITS.ratingMax });
  }
  if (uidt === 'Attachment' && m.maxFiles.trim() && !(whole(m.maxFiles) >= 1)) return t('schema.problem.maxFiles');
  return null;
}

/** `ColumnInput.meta` of the options the type takes (undefined for types without options). */
export function typeMetaInput(uidt: string, m: TypeMetaDraft, choices: SelectChoice[]): Record<string, unknown> | undefined {
  const places = m.places.trim() ? { precision: whole(m.places) } : {};
  switch (uidt) {
    case 'Currency':
      return { currency: m.currency.trim().toUpperCase(), ...(m.locale.trim() ? { locale: m.locale.trim() } : {}), ...places };
    case 'Percent':
    case 'Decimal':
      return places;
    case 'Rating':
      return { max: whole(m.max), icon: m.icon };
    case 'Duration':
      return { format: m.format };
    case 'DateTime':
      // Always said, so that switching it off reaches the server (which keeps options not given).
      return { touch: m.touch };
    case 'SingleSelect':
    case 'MultiSelect':
      return { options: cleanChoices(choices) };
    case 'Attachment': {
      const accept = m.accept.split(',').map((s) => s.trim()).filter(Boolean);
      return { ...(m.maxFiles.trim() ? { maxFiles: whole(m.maxFiles) } : {}), ...(accept.length ? { accept } : {}) };
    }
    default:
      return undefined;
  }
}
