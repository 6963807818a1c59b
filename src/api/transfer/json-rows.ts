/**
 * Rows of a JSON file: an array of objects (`[{...}, {...}]`) or one object per line (JSON Lines),
 * read as a stream: each top-level object is cut out of the text as it arrives and parsed alone, so
 * a large file is never held whole. The header is every key met in the file, in order of first
 * appearance (found by one reading at upload: `jsonKeys`); a value is the cell's text: strings as
 * they are, numbers (every digit kept) and booleans as written, null or a missing key empty, arrays and objects as JSON.
 */
import { createReadStream } from 'node:fs';
import { badRequest, isAppError } from '../../lib/errors';
import type { RowStream } from './row-sources';

/** Most distinct keys kept as headers (the header check then names the limit). */
const MAX_KEYS = 10_000;

/** Top-level objects of the file at `path`, each with the bytes read when it was cut out. */
async function* objects(path: string, read: (n: number) => void, stop: () => boolean): AsyncIterable<Record<string, unknown>> {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  let started = false; // past the opening '[' (or the first '{' of JSON Lines)
  let inArray = false;
  let ended = false;
  let item = 0;
  let depth = 0;
  let quoted = false;
  let escaped = false;
  let parts: string[] = [];
  let bytes = 0;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (stop()) return;
      bytes += chunk.length;
      let text = decoder.decode(chunk, { stream: true });
      if (!started && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      let from = -1; // where the object being cut out starts in this chunk
      if (depth > 0) from = 0;
      for (let i = 0; i < text.length; i++) {
        const ch = text[i]!;
        if (depth > 0) {
          if (quoted) {
            if (escaped) escaped = false;
            else if (ch === '\\') escaped = true;
            else if (ch === '"') quoted = false;
            continue;
          }
          if (ch === '"') quoted = true;
          else if (ch === '{' || ch === '[') depth++;
          else if (ch === '}' || ch === ']') {
            depth--;
            if (depth === 0) {
              parts.push(text.slice(from, i + 1));
              item++;
              const value = parse(parts.join(''), item);
              parts = [];
              from = -1;
              read(bytes);
              yield value;
            }
          }
          continue;
        }
        if (ch === ' ' || ch === '\n' || ch === '\r' || ch === '\t' || (ch === ',' && inArray && item > 0)) continue;
        if (ended) throw badRequest('The JSON file holds more after its closing ]');
        if (!started && ch === '[') {
          started = inArray = true;
          continue;
        }
        if (inArray && ch === ']') {
          ended = true;
          continue;
        }
        if (ch === '{') {
          started = true;
          depth = 1;
          from = i;
          continue;
        }
        throw badRequest(`Item ${item + 1} of the JSON file is not an object: import an array of objects, one per row`);
      }
      if (depth > 0 && from >= 0) parts.push(text.slice(from));
    }
    decoder.decode();
  } catch (e) {
    if (isAppError(e)) throw e;
    throw badRequest(`The JSON file could not be read: ${(e as Error).message}`);
  } finally {
    stream.destroy();
  }
  if (depth > 0 || (inArray && !ended)) throw badRequest('The JSON file ends in the middle of an object or before its closing ]');
}

/** ES2025's raw JSON text values (JSON.rawJSON), not yet in TypeScript's lib. */
const RawJson = JSON as unknown as { rawJSON(text: string): object; isRawJSON(v: unknown): v is { rawJSON: string } };

/**
 * Numbers keep the digits written in the file: JSON.parse alone makes each a double, so an id
 * 9007199254740993 became 9007199254740992 and a decimal lost its last digits, silently.
 */
const exactNumbers = (_key: string, v: unknown, context?: { source?: string }) => (typeof v === 'number' && context?.source ? RawJson.rawJSON(context.source) : v);

function parse(text: string, item: number): Record<string, unknown> {
  try {
    return JSON.parse(text, exactNumbers as (key: string, value: unknown) => unknown) as Record<string, unknown>;
  } catch (e) {
    throw badRequest(`Item ${item} of the JSON file is not valid JSON: ${(e as Error).message}`);
  }
}

/** A JSON value as a cell's text. */
export function jsonCellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (RawJson.isRawJSON(v)) return v.rawJSON;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** Every key of the file's objects, in order of first appearance (one reading of the whole file). */
export async function jsonKeys(path: string): Promise<string[]> {
  const keys = new Set<string>();
  for await (const o of objects(path, () => {}, () => false)) {
    for (const k of Object.keys(o)) if (keys.size < MAX_KEYS + 1) keys.add(k);
  }
  return [...keys];
}

/** The rows of a JSON file under `keys` (the header row first, then one row per object). */
export function jsonRows(path: string, keys: string[]): RowStream {
  let bytes = 0;
  let closed = false;
  async function* rows(): AsyncIterable<string[]> {
    yield keys;
    for await (const o of objects(path, (n) => (bytes = n), () => closed)) yield keys.map((k) => jsonCellText(o[k]));
  }
  return { rows: rows(), bytesRead: () => bytes, close: () => void (closed = true) };
}
