/**
 * Text that stays readable on a theme colour: white, unless white falls short of the 4.5:1
 * contrast WCAG asks of normal text and near-black reads better (a light custom colour, a yellow).
 */

/** The dark text used on light colours (the light theme's own text colour). */
export const DARK_TEXT = '#111827';
export const LIGHT_TEXT = '#ffffff';

/** The relative luminance of a #rgb or #rrggbb colour (WCAG 2); null for anything else. */
export function luminance(hex: string): number | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(h.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The contrast ratio of two colours (1 to 21); null when either is not a hex colour. */
export function contrastRatio(a: string, b: string): number | null {
  const [la, lb] = [luminance(a), luminance(b)];
  if (la === null || lb === null) return null;
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The text colour to write on `background`: white when it reads well enough, else the better of the two. */
export function readableOn(background: string): string {
  const light = contrastRatio(background, LIGHT_TEXT);
  const dark = contrastRatio(background, DARK_TEXT);
  if (light === null || dark === null || light >= 4.5) return LIGHT_TEXT;
  return dark > light ? DARK_TEXT : LIGHT_TEXT;
}
