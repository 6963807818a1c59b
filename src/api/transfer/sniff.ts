/**
 * What an uploaded file is, from its first bytes: an XLSX workbook (a ZIP holding
 * `xl/workbook.xml`), JSON (UTF-8 text starting with `[` or `{`: an array of objects or JSON
 * Lines) or UTF-8 text (with or without a byte order mark; UTF-16 was made UTF-8 on upload, utf16.ts) split by a delimiter found here. Anything else (binary content, another text encoding, another kind of ZIP) answers 400.
 */
import { openSync, readSync, closeSync } from 'node:fs';
import { badRequest } from '../../lib/errors';

export interface FileKind {
  format: 'csv' | 'xlsx' | 'json';
  /** CSV: the field delimiter found (`,` `;` tab or `|`). */
  delimiter?: string;
  /** CSV: whether the file starts with a UTF-8 byte order mark. */
  bom?: boolean;
  /** JSON: the keys of its objects, in order of first appearance (the header), read at upload. */
  keys?: string[];
}

/** The delimiters tried, in order of preference when two fit equally. */
export const DELIMITERS = [',', ';', '\t', '|'] as const;

const HEAD_BYTES = 64 * 1024;

function head(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const buf = new Uint8Array(HEAD_BYTES);
    const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** Bytes of a UTF-8 text cut at a character boundary (the head may end inside one). */
function wholeChars(b: Uint8Array): Uint8Array {
  let end = b.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const x = b[end - back]!;
    if ((x & 0xc0) === 0x80) continue; // continuation byte
    if (x >= 0xc0) end -= back; // a lead byte whose character may be cut
    break;
  }
  return b.subarray(0, end);
}

/** Splits a line outside quotes and counts its fields per delimiter. */
function countFields(line: string, d: string): number {
  let n = 1;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === d) n++;
  }
  return n;
}

/** Logical lines of a text (a newline inside quotes does not end one), at most `max`. */
function lines(text: string, max: number): string[] {
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length && out.length < max; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) {
      if (i > start) out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return out;
}

/** The delimiter that splits the first lines into the same number (more than one) of fields. */
export function detectDelimiter(text: string): string {
  const all = lines(text, 50);
  // The last line of the head may be cut short: leave it out when there are others.
  const sample = all.length > 2 ? all.slice(0, -1) : all;
  let best: { d: string; score: number } | undefined;
  for (const d of DELIMITERS) {
    const counts = sample.map((l) => countFields(l, d));
    const first = counts[0] ?? 1;
    if (first < 2) continue;
    const same = counts.filter((c) => c === first).length / counts.length;
    const score = same * 1000 + first;
    if (!best || score > best.score) best = { d, score };
  }
  return best?.d ?? ',';
}

/**
 * Whether a text starts as JSON objects: `[` then `{` (or `]`), or `{` then `"` (or `}`). A CSV
 * whose first header is bracketed (`[Id],[Name]`, as SQL Server writes them) stays a CSV.
 */
export function looksLikeJson(text: string): boolean {
  const m = /^\s*([[{])\s*(\S)?/.exec(text);
  if (!m) return false;
  return m[1] === '[' ? m[2] === '{' || m[2] === ']' : m[2] === '"' || m[2] === '}';
}

/** Answers the kind of the file at `path`, or 400 naming why it cannot be imported. */
export function sniffFile(path: string, size: number): FileKind {
  if (size === 0) throw badRequest('The file is empty');
  const b = head(path);
  if (b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) return { format: 'xlsx' };
  if (b.includes(0)) throw badRequest('The file is not a CSV, XLSX or JSON file: it holds binary content');
  const bom = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(wholeChars(b.subarray(bom ? 3 : 0)));
  } catch {
    throw badRequest('The file is not UTF-8 text: save the file as UTF-8 (with or without BOM) and upload it again');
  }
  if (!text.trim()) throw badRequest('The file holds no rows');
  if (looksLikeJson(text)) return { format: 'json', bom };
  return { format: 'csv', delimiter: detectDelimiter(text), bom };
}
