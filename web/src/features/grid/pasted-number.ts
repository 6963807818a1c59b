/**
 * A number pasted from a spreadsheet, as the API takes it ('1234.5'): written the way the interface's
 * language writes numbers ('1,234.5' in English, '1 234,5' in French, '1.234,5' in Spanish), or
 * plainly ('1234.5'). Separators must sit where they belong: '1,5' is no English number, and is
 * refused rather than read as 15.
 */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The group and decimal separators of a language ('en' -> ',' and '.'). */
function separators(locale: string): { group: string; decimal: string } {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  return { group: parts.find((p) => p.type === 'group')?.value ?? ',', decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.' };
}

/** Digits grouped by threes ('1,234,567'), the group separator given. */
const grouped = (int: string, group: string) => {
  const parts = int.replace(/^[+-]/, '').split(group);
  return parts.length > 1 && /^\d{1,3}$/.test(parts[0]!) && parts.slice(1).every((p) => /^\d{3}$/.test(p));
};

/** The language's way: group separators by threes, its decimal separator. */
function localNumber(s: string, group: string, decimal: string): string | null {
  const [int, frac, extra] = s.split(decimal);
  if (extra !== undefined || int === undefined) return null;
  const plainInt = int.includes(group) ? (grouped(int, group) ? int.split(group).join('') : null) : int;
  if (plainInt === null) return null;
  const out = frac === undefined ? plainInt : `${plainInt}.${frac}`;
  return NUMBER.test(out) ? out : null;
}

/** The number a pasted text holds, as plain text ('1234.5'), or null when it holds none. */
export function pastedNumber(text: string, locale: string): string | null {
  // Spaces (also the no-break ones French groups digits with) never belong to a number.
  const s = text.trim().replace(/[\s\u00a0\u202f]/g, '');
  if (s === '') return null;
  const { group, decimal } = separators(locale);
  const g = /\s|\u00a0|\u202f/.test(group) ? '' : group;
  return (g ? localNumber(s, g, decimal) : localNumber(s, '\u0000', decimal)) ?? (NUMBER.test(s) ? s : null);
}
