/**
 * Writes checked by a column's type options: a Duration given as seconds or as its format's text
 * ('1:30' is 5400 seconds in h:mm), a Rating up to its `max`, an Attachment as a list of files
 * (at most `maxFiles`, of the types in `accept`). Each answers 400 naming the column.
 */
import type { ColumnModel } from '../schema/model';
import { badRequest } from '../lib/errors';
import { LIMITS } from '../config/limits';

const invalid = (c: ColumnModel, v: unknown, what: string) => badRequest(`Column '${c._cn}': ${JSON.stringify(v)} is not ${what}`);

const SECONDS = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const CLOCK = /^([+-])?(\d+):([0-5]?\d)(?::([0-5]?\d(?:\.\d+)?))?$/;

/** A Duration value in seconds: a number, or text as seconds, h:mm or h:mm:ss(.s). */
export function durationSeconds(c: ColumnModel, v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  const s = typeof v === 'string' ? v.trim() : '';
  const m = CLOCK.exec(s);
  if (!m && !SECONDS.test(s)) throw invalid(c, v, `a duration (${c.meta?.format ?? 'h:mm'} or seconds)`);
  const total = m ? Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0) : Number(s);
  // Hundreds of digits make Infinity, which a column would keep as NULL.
  if (!Number.isFinite(total)) throw invalid(c, v, 'a duration in range');
  if (!m) return total;
  // Seconds to the tenth at most, as the longest format shows them.
  const rounded = Math.round(total * 1000) / 1000;
  return m[1] === '-' ? -rounded : rounded;
}

/** A Rating value: a whole number from 0 to the column's `max`. */
export function checkRating(c: ColumnModel, v: unknown): void {
  const max = c.meta?.max ?? LIMITS.ratingDefaultMax;
  const n = Number(v);
  if (typeof v === 'boolean' || !Number.isInteger(n) || n < 0 || n > max) throw invalid(c, v, `a rating from 0 to ${max}`);
}

/** A file of an Attachment value. */
interface AttachmentFile {
  /** The stored file's id (an upload through Tablo, served by the attachments route). */
  id?: string;
  url?: string;
  path?: string;
  title?: string;
  mimetype?: string;
  size?: number;
}

const FILE_KEYS = new Set(['id', 'url', 'path', 'title', 'mimetype', 'size']);

/** Whether a file matches an `accept` entry (`image/*`, `application/pdf`, `.pdf`). */
function accepted(f: AttachmentFile, accept: string[]): boolean {
  // A URL's query and fragment are not its name; a title or path keeps its ? and # ('Invoice #12.pdf').
  const name = (f.title ?? f.path ?? (f.url ?? '').replace(/[?#].*$/, '')).toLowerCase();
  const type = (f.mimetype ?? '').toLowerCase();
  return accept.some((a) => (a.startsWith('.') ? name.endsWith(a) : a.endsWith('/*') ? type.startsWith(a.slice(0, -1)) : type === a));
}

/** An Attachment value: a JSON array (or its text) of `{ url | path, title?, mimetype?, size? }`. */
export function attachmentFiles(c: ColumnModel, v: unknown): AttachmentFile[] {
  let list = v;
  if (typeof v === 'string') {
    try {
      list = JSON.parse(v);
    } catch {
      throw invalid(c, v, 'a list of files');
    }
  }
  if (!Array.isArray(list)) throw invalid(c, v, 'a list of files ([{ "url": ... }])');
  const max = c.meta?.maxFiles;
  if (max !== undefined && list.length > max) throw badRequest(`Column '${c._cn}' holds at most ${max} file${max === 1 ? '' : 's'}`);
  for (const f of list as unknown[]) {
    const o = f as Record<string, unknown>;
    const ok =
      !!f && typeof f === 'object' && !Array.isArray(f) && Object.keys(o).every((k) => FILE_KEYS.has(k)) &&
      (typeof o.url === 'string' || typeof o.path === 'string') &&
      ['id', 'url', 'path', 'title', 'mimetype'].every((k) => o[k] === undefined || (typeof o[k] === 'string' && (o[k] as string).length > 0)) &&
      (o.size === undefined || (typeof o.size === 'number' && Number.isInteger(o.size) && o.size >= 0));
    if (!ok) throw invalid(c, f, 'a file ({ url | path, title?, mimetype?, size? })');
    const accept = c.meta?.accept;
    if (accept?.length && !accepted(o as AttachmentFile, accept)) throw badRequest(`Column '${c._cn}' accepts only ${accept.join(', ')}: ${JSON.stringify(o.title ?? o.path ?? o.url)} is not one`);
  }
  return list as AttachmentFile[];
}
