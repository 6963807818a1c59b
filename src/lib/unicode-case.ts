/**
 * Unicode case folding as the database engines do it: simple (one character to one character)
 * mapping, so 'ß' stays 'ß' in upper case. SQLite's own LOWER/UPPER fold ASCII only: SQLite
 * connections get tablo_lower / tablo_upper, which fold this way. Built-in LOWER stays as it is,
 * so expression indexes made by other tools keep their meaning.
 */
import type { Database } from 'bun:sqlite';

/** Text in lower or upper case, character by character (a character whose mapping is longer stays). */
export function simpleCase(text: string, how: 'toLowerCase' | 'toUpperCase'): string {
  const all = text[how]();
  if (all.length === text.length) return all;
  return Array.from(text, (ch) => {
    const m = ch[how]();
    return m.length === ch.length ? m : ch;
  }).join('');
}

/** Registers tablo_lower and tablo_upper on a SQLite connection. */
export function registerUnicodeCase(db: Database): void {
  const fold = (how: 'toLowerCase' | 'toUpperCase') => (v: unknown) =>
    v === null || v === undefined || v instanceof Uint8Array ? (v ?? null) : simpleCase(String(v), how);
  db.function('tablo_lower', { deterministic: true }, fold('toLowerCase') as (v: unknown) => string | null);
  db.function('tablo_upper', { deterministic: true }, fold('toUpperCase') as (v: unknown) => string | null);
}
