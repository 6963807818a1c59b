/**
 * Column widths of the SQL Client's result grid, in px: each column fits the longest of its header
 * and of all the rows shown, up to MAX_WIDTH (a longer value is cut with an ellipsis and shown whole
 * on hover). Text is measured by its length, never in the DOM, so 10,000 rows take no time: each
 * value is looked at once, and a column stops being read once it reaches the maximum.
 */

const CHAR_PX = 7.5;
const PADDING_PX = 24;
export const MIN_WIDTH = 80;
export const MAX_WIDTH = 480;
/** Characters past which a column is as wide as it gets. */
const MAX_CHARS = (MAX_WIDTH - PADDING_PX) / CHAR_PX;
/** East Asian wide characters take two cells of the monospace font. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/g;

/** A cell's text as the grid shows it (SQL's NULL as the keyword). */
export const cellText = (v: unknown): string => (v === null || v === undefined ? 'NULL' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** How many monospace cells a text takes (counted only up to the maximum). */
function textChars(text: string): number {
  if (text.length >= MAX_CHARS) return text.length;
  return text.length + (text.match(WIDE)?.length ?? 0);
}

export function columnWidths(columns: { name: string; type: string }[], rows: unknown[][]): number[] {
  return columns.map((c, i) => {
    let chars = Math.max(textChars(c.name), c.type.length * 0.8);
    for (let r = 0; r < rows.length && chars < MAX_CHARS; r++) chars = Math.max(chars, textChars(cellText(rows[r]![i])));
    return Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, chars * CHAR_PX + PADDING_PX)));
  });
}
