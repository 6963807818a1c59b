/**
 * The languages of the interface: the catalogue code, the BCP 47 tag `Intl` and react-intl take,
 * and the language's own name (shown in the language menus). English is the fallback.
 */
import { signal } from '../stores/signals';

export const LOCALES = [
  { code: 'en', tag: 'en', name: 'English' },
  { code: 'zh_CN', tag: 'zh-CN', name: '简体中文' },
  { code: 'fr', tag: 'fr', name: 'Français' },
  { code: 'es', tag: 'es', name: 'Español' },
  { code: 'pt', tag: 'pt', name: 'Português' },
] as const;

export type LocaleCode = (typeof LOCALES)[number]['code'];

export const isLocale = (v: unknown): v is LocaleCode => LOCALES.some((l) => l.code === v);

/** The BCP 47 tag of a catalogue code ('zh_CN' -> 'zh-CN'). */
export const tagOf = (code: LocaleCode): string => LOCALES.find((l) => l.code === code)!.tag;

/** The closest catalogue to the browser's languages (English when none fits). */
export function browserLocale(languages: readonly unknown[] = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language])): LocaleCode {
  for (const lang of languages) {
    if (typeof lang !== 'string') continue;
    const l = lang.toLowerCase();
    if (l.startsWith('zh')) return 'zh_CN';
    const base = l.split('-')[0];
    const hit = LOCALES.find((x) => x.code === base);
    if (hit) return hit.code;
  }
  return 'en';
}

/** The language of the interface now (kept per user by stores/settings). */
export const locale = signal<LocaleCode>(browserLocale());
