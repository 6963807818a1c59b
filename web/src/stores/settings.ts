/**
 * Settings kept per user in localStorage: the language, dark mode, the preset theme (Default, Orange,
 * Strawberry, Grapes) or a custom theme of seven colours, applied as CSS variables; and how data screens
 * behave: whether filters apply as they change (autoApplyFilter) and whether the tree lists many-to-many
 * link tables (includeM2M).
 */
import { readableOn } from '../lib/contrast';
import { effect, signal } from './signals';
import { user } from './session';
import { isLocale, locale } from '../i18n/locales';

export const THEME_KEYS = ['primary', 'secondary', 'accent', 'info', 'success', 'warning', 'error'] as const;
export type Theme = Record<(typeof THEME_KEYS)[number], string>;

export const PRESETS: Record<string, Theme> = {
  Default: { primary: '#2563eb', secondary: '#64748b', accent: '#7c3aed', info: '#0284c7', success: '#16a34a', warning: '#d97706', error: '#dc2626' },
  Orange: { primary: '#ea580c', secondary: '#78716c', accent: '#f59e0b', info: '#0891b2', success: '#15803d', warning: '#ca8a04', error: '#b91c1c' },
  Strawberry: { primary: '#e11d48', secondary: '#6b7280', accent: '#db2777', info: '#0284c7', success: '#059669', warning: '#d97706', error: '#be123c' },
  Grapes: { primary: '#7c3aed', secondary: '#64748b', accent: '#c026d3', info: '#4f46e5', success: '#16a34a', warning: '#d97706', error: '#dc2626' },
};

export const darkTheme = signal(false);
export const themeName = signal<string>('Default');
export const customTheme = signal<Theme>({ ...PRESETS.Default! });
/** Filters, sorts and searches apply as they change (debounced); off, on Apply or Enter only. */
export const autoApplyFilter = signal(true);
/** The tree lists many-to-many link tables among the tables (off: counted beside the group only). */
export const includeM2M = signal(false);

interface Kept {
  darkTheme?: boolean;
  themeName?: string;
  customTheme?: Theme;
  language?: string;
  autoApplyFilter?: boolean;
  includeM2M?: boolean;
}

const keyFor = () => `tablo.settings.${user.value?.email ?? 'anonymous'}`;
let loadedFor: string | null = null;

/** Loads the signed-in user's settings (called when the user changes). */
export function loadSettings(): void {
  const raw = localStorage.getItem(keyFor());
  const s = raw ? (JSON.parse(raw) as Kept) : {};
  // A user who never chose keeps the language in use (e.g. the one picked on the sign-in page).
  if (isLocale(s.language)) locale.value = s.language;
  darkTheme.value = !!s.darkTheme;
  themeName.value = s.themeName ?? 'Default'; // i18n-ignore (a theme's name is its key)
  customTheme.value = { ...PRESETS.Default!, ...(s.customTheme ?? {}) };
  autoApplyFilter.value = s.autoApplyFilter !== false;
  includeM2M.value = s.includeM2M === true;
  loadedFor = keyFor();
}

effect(() => {
  const key = keyFor();
  if (loadedFor !== key) loadSettings();
});

effect(() => {
  const theme = themeName.value === 'Custom' ? customTheme.value : (PRESETS[themeName.value] ?? PRESETS.Default!);
  const root = document.documentElement;
  root.dataset.theme = darkTheme.value ? 'dark' : 'light';
  root.lang = locale.value.replace('_', '-');
  for (const k of THEME_KEYS) {
    root.style.setProperty(`--${k}`, theme[k]);
    // Text on a filled colour (the top bar, buttons, toasts) stays readable whatever colour is picked.
    root.style.setProperty(`--on-${k}`, readableOn(theme[k]));
  }
  root.style.setProperty('--primary-hover', theme.primary);
  if (loadedFor === keyFor()) {
    const kept: Kept = { darkTheme: darkTheme.value, themeName: themeName.value, customTheme: customTheme.value, language: locale.value, autoApplyFilter: autoApplyFilter.value, includeM2M: includeM2M.value };
    localStorage.setItem(keyFor(), JSON.stringify(kept));
  }
});

/** Cycles through the named palettes. */
export function nextTheme(): void {
  const names = Object.keys(PRESETS);
  themeName.value = names[(names.indexOf(themeName.value) + 1) % names.length]!;
}
