/**
 * "Contains" in the where language: `%text%` with the text's own `%`, `_` and `\` made literal by a
 * backslash (every engine's LIKE reads `\` as its escape), so a search for "50%" or "a_b" finds only
 * those characters.
 */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/** The text of a `%text%` pattern as containsPattern writes it, or null when it holds a wildcard of its own. */
export function containedText(pattern: string): string | null {
  if (pattern.length < 2 || !pattern.startsWith('%') || !pattern.endsWith('%')) return null;
  const inner = pattern.slice(1, -1);
  let out = '';
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (ch === '\\' && i + 1 < inner.length) out += inner[++i];
    else if (ch === '%' || ch === '_') return null;
    else out += ch;
  }
  return out;
}
