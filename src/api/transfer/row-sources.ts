/**
 * Rows of an uploaded file as a stream of text cells: CSV through papaparse (quoted fields,
 * newlines inside quotes, a BOM dropped), XLSX through exceljs's streaming reader (one sheet,
 * cells made text: numbers as written, dates as YYYY-MM-DD or YYYY-MM-DD HH:MM:SS, rich text
 * joined, formulas by their result). Bytes read are counted for progress.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import Papa from 'papaparse';
import ExcelJS from 'exceljs';
import { Unzip, UnzipInflate } from 'fflate';
import { badRequest } from '../../lib/errors';
import type { FileKind } from './sniff';

/** The rows of a file, with how far the reading went. */
export interface RowStream {
  rows: AsyncIterable<string[]>;
  bytesRead(): number;
  close(): void;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An XLSX cell value as text. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return '';
    const day = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
    const time = `${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}:${pad(v.getUTCSeconds())}`;
    return time === '00:00:00' ? day : `${day} ${time}`;
  }
  if (typeof v === 'object') {
    const o = v as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: unknown; formula?: unknown; sharedFormula?: unknown };
    if (Array.isArray(o.richText)) return o.richText.map((r) => r.text).join('');
    if ('result' in o || o.formula !== undefined || o.sharedFormula !== undefined) return cellText(o.result);
    if (o.error !== undefined) return '';
    if (o.text !== undefined) return cellText(o.text);
  }
  return String(v);
}

function counted(path: string): { stream: Readable; bytes: () => number } {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  let bytes = 0;
  stream.on('data', (c) => (bytes += (c as Buffer).length));
  return { stream, bytes: () => bytes };
}

/**
 * CSV rows through papaparse's streaming parser: the rows of each chunk it parses are queued, and
 * the file stream is paused while the reader is behind (papaparse itself reads on), so only a
 * few chunks are held at a time.
 */
function csvRows(path: string, kind: FileKind): RowStream {
  const { stream, bytes } = counted(path);
  stream.setEncoding('utf8');
  let queue: string[][] = [];
  let done = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const signal = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  let first = true;
  let handle: Papa.Parser | undefined;
  Papa.parse(stream as unknown as File, {
    delimiter: kind.delimiter ?? ',',
    skipEmptyLines: true,
    chunk: (results: Papa.ParseResult<string[]>, p: Papa.Parser) => {
      handle = p;
      const rows = results.data;
      if (first && rows.length) {
        first = false;
        const h = rows[0]!;
        if (h.length && h[0]!.charCodeAt(0) === 0xfeff) h[0] = h[0]!.slice(1);
      }
      queue = queue.length ? queue.concat(rows) : rows;
      if (queue.length >= QUEUE_ROWS) stream.pause();
      signal();
    },
    complete: () => {
      done = true;
      signal();
    },
    error: (e: Error) => {
      failure = e;
      done = true;
      signal();
    },
  });
  stream.on('error', (e) => {
    failure = e;
    done = true;
    signal();
  });
  async function* rows(): AsyncIterable<string[]> {
    for (;;) {
      if (queue.length) {
        const batch = queue;
        queue = [];
        for (const r of batch) yield r;
        continue;
      }
      if (failure) throw badRequest(`The CSV file could not be read: ${failure.message}`);
      if (done) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (stream.isPaused()) stream.resume();
      });
    }
  }
  return { rows: rows(), bytesRead: bytes, close: () => (handle?.abort(), stream.destroy()) };
}

/** Parsed CSV rows held ahead of the reader before the file stream waits. */
const QUEUE_ROWS = 5000;

function xlsxRows(path: string, sheet: string | undefined): RowStream {
  const { stream, bytes } = counted(path);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(stream, { worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', entries: 'emit' });
  async function* rows(): AsyncIterable<string[]> {
    let found = false;
    try {
      for await (const ws of reader) {
        const w = ws as unknown as AsyncIterable<{ values: unknown[] }> & { name?: string };
        const wanted = !found && (sheet === undefined || w.name === sheet);
        for await (const row of w) {
          if (!wanted) continue;
          const values = Array.isArray(row.values) ? row.values : [];
          const out: string[] = [];
          for (let i = 1; i < values.length; i++) out.push(cellText(values[i]));
          yield out;
        }
        if (wanted) found = true;
      }
    } catch (e) {
      throw badRequest(`The XLSX file could not be read: ${(e as Error).message}`);
    }
    if (!found) throw badRequest(sheet === undefined ? 'The workbook has no sheet' : `The workbook has no sheet '${sheet}'`);
  }
  return { rows: rows(), bytesRead: bytes, close: () => stream.destroy() };
}

/** Opens the rows of a file (for an XLSX file, of `sheet`, by default the first). */
export function openRows(path: string, kind: FileKind, sheet?: string): RowStream {
  return kind.format === 'csv' ? csvRows(path, kind) : xlsxRows(path, sheet);
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : (XML_ENTITIES[e] ?? m),
  );

/** The sheet names of an XLSX file in workbook order (reads the ZIP up to `xl/workbook.xml`), or 400 when it is no workbook. */
export async function xlsxSheets(path: string): Promise<string[]> {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  const text = await new Promise<string | null>((resolve, reject) => {
    const uz = new Unzip();
    uz.register(UnzipInflate);
    const parts: Uint8Array[] = [];
    let done = false;
    const finish = (v: string | null) => {
      if (done) return;
      done = true;
      stream.destroy();
      resolve(v);
    };
    uz.onfile = (f) => {
      if (f.name !== 'xl/workbook.xml') return;
      f.ondata = (err, chunk, final) => {
        if (err) return reject(badRequest('The XLSX file is damaged: its workbook cannot be read'));
        parts.push(chunk);
        if (final) finish(Buffer.concat(parts).toString('utf8'));
      };
      f.start();
    };
    stream.on('data', (c) => {
      try {
        uz.push(c as Buffer);
      } catch {
        reject(badRequest('The XLSX file is damaged: it is not a valid ZIP archive'));
        stream.destroy();
      }
    });
    stream.on('end', () => {
      // The last entry may need the end of the archive to be known.
      try {
        uz.push(new Uint8Array(0), true);
      } catch {
        return reject(badRequest('The XLSX file is damaged: it is not a valid ZIP archive'));
      }
      finish(null);
    });
    stream.on('error', reject);
  });
  if (text === null) throw badRequest('The file is a ZIP archive but not an XLSX workbook (no xl/workbook.xml)');
  const names = [...text.matchAll(/<(?:\w+:)?sheet\b[^>]*?\bname="([^"]*)"/g)].map((m) => unescapeXml(m[1]!));
  if (names.length === 0) throw badRequest('The workbook has no sheet');
  return names;
}
