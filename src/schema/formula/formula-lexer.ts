/**
 * Tokens of the formula language (NocoDB / Airtable style): `{Column}` references (a `\` escapes
 * `}` or `\` inside), 'text' or "text" literals, numbers, names of functions, operators and
 * punctuation. Every token keeps its offsets, so errors can point at it and references can be
 * rewritten without touching the rest of the text.
 */
import { FormulaError } from './formula-error';

export type TokenKind = 'ref' | 'str' | 'num' | 'name' | 'op' | '(' | ')' | ',' | 'end';

export interface Token {
  kind: TokenKind;
  /** The reference name, the literal's value, the name or operator as written. */
  text: string;
  start: number;
  end: number;
}

const OPERATORS = ['<=', '>=', '!=', '<>', '==', '+', '-', '*', '/', '%', '&', '=', '<', '>'];

/** Splits formula text into tokens; throws FormulaError at the first character that fits none. */
export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const start = i;
    if (ch === '{') {
      let name = '';
      i++;
      while (i < src.length && src[i] !== '}') {
        if (src[i] === '\\' && i + 1 < src.length) i++;
        name += src[i++];
      }
      if (i >= src.length) throw new FormulaError("Missing '}' after a column name", start);
      i++;
      if (!name.trim()) throw new FormulaError('Empty column reference {}', start);
      out.push({ kind: 'ref', text: name, start, end: i });
    } else if (ch === "'" || ch === '"') {
      let value = '';
      i++;
      while (i < src.length && src[i] !== ch) {
        if (src[i] === '\\' && i + 1 < src.length) i++;
        value += src[i++];
      }
      if (i >= src.length) throw new FormulaError('Unterminated text: a closing quote is missing', start);
      i++;
      out.push({ kind: 'str', text: value, start, end: i });
    } else if (/[0-9.]/.test(ch)) {
      const m = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(src.slice(i));
      if (!m) throw new FormulaError(`Unexpected '${ch}'`, start);
      i += m[0].length;
      out.push({ kind: 'num', text: m[0], start, end: i });
    } else if (/[A-Za-z_]/.test(ch)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))!;
      i += m[0].length;
      out.push({ kind: 'name', text: m[0], start, end: i });
    } else if (ch === '(' || ch === ')' || ch === ',') {
      i++;
      out.push({ kind: ch, text: ch, start, end: i });
    } else {
      const op = OPERATORS.find((o) => src.startsWith(o, i));
      if (!op) throw new FormulaError(`Unexpected '${ch}'`, start);
      i += op.length;
      out.push({ kind: 'op', text: op, start, end: i });
    }
  }
  out.push({ kind: 'end', text: '', start: src.length, end: src.length });
  return out;
}

/** Writes a name as a `{...}` reference, escaping `}` and `\`. */
export const refText = (name: string) => `{${name.replace(/[\\}]/g, (c) => `\\${c}`)}}`;

/** The text with every reference replaced by `rename(name)` (a reference's name, unescaped); the rest is kept as written. */
export function rewriteRefs(src: string, rename: (name: string, position: number) => string): string {
  let out = '';
  let at = 0;
  for (const tok of tokenize(src)) {
    if (tok.kind !== 'ref') continue;
    out += src.slice(at, tok.start) + refText(rename(tok.text, tok.start));
    at = tok.end;
  }
  return out + src.slice(at);
}
