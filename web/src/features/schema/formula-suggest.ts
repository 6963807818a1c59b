/**
 * Suggestions of the formula editor, pure: what the word before the cursor is (a function name,
 * or a column after an open brace) and what inserting a suggestion does to the text.
 */
import type { FormulaFunction } from '../../api/schema';
import { t } from '../../i18n';

/** A function or column the formula editor offers to insert. */
export interface Suggestion {
  kind: 'function' | 'column';
  label: string;
  detail: string;
  /** Text that replaces the word being typed. */
  insert: string;
}

/** The word being typed at `cursor`: inside braces (a column) or an identifier (a function). */
export function wordAt(text: string, cursor: number): { start: number; word: string; inBraces: boolean } {
  const before = text.slice(0, cursor);
  const open = before.lastIndexOf('{');
  if (open >= 0 && before.indexOf('}', open) < 0) return { start: open, word: before.slice(open + 1), inBraces: true };
  const m = /[A-Za-z_][A-Za-z0-9_]*$/.exec(before);
  return { start: m ? cursor - m[0].length : cursor, word: m ? m[0] : '', inBraces: false };
}

/** The suggestions for the word at the cursor: columns inside braces, else functions then columns. */
export function suggest(text: string, cursor: number, fns: FormulaFunction[], columns: string[], max: number): Suggestion[] {
  const { word, inBraces } = wordAt(text, cursor);
  const w = word.toLowerCase();
  const cols = columns
    .filter((c) => c.toLowerCase().includes(w))
    .map((c): Suggestion => ({ kind: 'column', label: c, detail: t('schema.formula.column'), insert: `{${c}}` }));
  if (inBraces) return cols.slice(0, max);
  if (!w) return [];
  const fnList = fns
    .filter((f) => f.name.toLowerCase().startsWith(w))
    .map((f): Suggestion => ({ kind: 'function', label: f.name, detail: `${f.syntax} — ${f.description}`, insert: `${f.name}(` }));
  return [...fnList, ...cols].slice(0, max);
}

/** The text after inserting a suggestion at the cursor, and where the cursor goes. */
export function applySuggestion(text: string, cursor: number, s: Suggestion): { text: string; cursor: number } {
  const { start } = wordAt(text, cursor);
  let end = cursor;
  // Inside braces, the rest of an already-closed reference is replaced too.
  if (s.kind === 'column') {
    const close = text.indexOf('}', cursor);
    const nextOpen = text.indexOf('{', cursor);
    if (close >= 0 && (nextOpen < 0 || close < nextOpen) && text.lastIndexOf('{', cursor) === start) end = close + 1;
  }
  const next = text.slice(0, start) + s.insert + text.slice(end);
  return { text: next, cursor: start + s.insert.length };
}
