/**
 * Rows of an uploaded file as a stream of text cells (JSON: json-rows.ts): CSV through papaparse (quoted fields,
 * newlines inside quotes, a BOM dropped), XLSX through exceljs's streaming reader (one sheet,
 * cells made text: numbers as written (a percent as the percentage it shows: 42.5 for 42.5%), dates as YYYY-MM-DD or YYYY-MM-DD HH:MM:SS, times and durations as HH:MM:SS, rich text
 * joined, formulas by their result, an error named apart: cellErrors). Bytes read are counted for progress.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import Papa from 'papaparse';
import { xlsxWorkbook, type WorkbookStructure } from './xlsx-workbook';
import { badRequest, isAppError } from '../../lib/errors';
import type { FileKind } from './sniff';
import { jsonRows } from './json-rows';

/** The rows of a file, with how far the reading went. */
export interface RowStream {
  rows: AsyncIterable<string[]>;
  /** Bytes of the file behind the rows handed out so far (for progress). */
  bytesRead(): number;
  /**
   * The row of the sheet the last row handed out is (the first is 1), counting the empty rows that are
   * not handed out: an empty line of a CSV, a row of a sheet left empty. Absent for JSON (its rows are
   * counted as they come).
   */
  rowNumber?(): number;
  /**
   * The error values of the last row handed out (#DIV/0!, #N/A, #REF!, #VALUE!...) by cell index: a
   * workbook's cell holding an error, or a formula whose result is one, is handed out as '' and named
   * here. Absent for CSV and JSON (an error is text there).
   */
  cellErrors?(): Map<number, string>;
  close(): void;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Excel's day 0 of the 1900 date system, and its first day. */
const EXCEL_DAY0 = Date.UTC(1899, 11, 30);
const EXCEL_1900 = Date.UTC(1900, 0, 1);

/** An XLSX cell value as text. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return '';
    // A time of day (10:30) or a duration ([h]:mm, 36:00) is a number of days below 1 or 2, which
    // exceljs dates from Excel's day 0, 1899-12-30: no date of a 1900 workbook is before 1900.
    if (v.getTime() < EXCEL_1900) {
      const secs = Math.round((v.getTime() - EXCEL_DAY0) / 1000);
      if (secs >= 0) return `${pad(Math.floor(secs / 3600))}:${pad(Math.floor(secs / 60) % 60)}:${pad(secs % 60)}`;
    }
    const day = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
    const time = `${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}:${pad(v.getUTCSeconds())}`;
    return time === '00:00:00' ? day : `${day} ${time}`;
  }
  if (typeof v === 'object') {
    const o = v as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: unknown; formula?: unknown; sharedFormula?: unknown };
    if (Array.isArray(o.richText)) return o.richText.map((r) => r.text).join('');
    if ('result' in o || o.formula !== undefined || o.sharedFormula !== undefined) return cellText(o.result);
    if (o.error !== undefined) return '';
    if ('sharedString' in o) throw new Error('a shared string was met before the shared strings were read');
    if (o.text !== undefined) return cellText(o.text);
  }
  return String(v);
}

/** Whether an Excel number format shows a percent (`0%`, `0.00%`; not a `"%"` written as text). */
export const isPercentFormat = (f: string | undefined) => !!f && f.replace(/"[^"]*"|\\./g, '').includes('%');

/** A cell shown as a percent (0.425 as 42.5%) as the percentage it shows: 42.5 (as a Percent column holds it). */
export const percentText = (v: number) => (Number.isFinite(v) ? String(Number((v * 100).toPrecision(15))) : '');

/** The number format of the row's cell `i` (styles are read: 'cache'). */
const cellFormat = (row: unknown, i: number): string | undefined => (row as { getCell?: (i: number) => { numFmt?: string } }).getCell?.(i)?.numFmt;

/** The error a workbook's cell holds (#DIV/0!, #N/A...), itself or as its formula's result; undefined when none. */
export function cellError(v: unknown): string | undefined {
  if (v === null || typeof v !== 'object' || v instanceof Date) return undefined;
  const o = v as { error?: unknown; result?: unknown };
  if (typeof o.error === 'string') return o.error;
  return o.result !== undefined ? cellError(o.result) : undefined;
}

/**
 * A CSV cell as its value: the apostrophe that a CSV export (ours, export.ts, or a spreadsheet's)
 * puts before text starting like a formula (= + - @ tab CR) is dropped, so '+33 1 23 45 67 89
 * goes back in as +33 1 23 45 67 89.
 */
export function csvCellText(s: string): string {
  return /^'[=+\-@\t\r]/.test(s) ? s.slice(1) : s;
}

function counted(path: string): { stream: Readable; bytes: () => number } {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  let bytes = 0;
  stream.on('data', (c) => (bytes += typeof c === 'string' ? Buffer.byteLength(c) : (c as Buffer).length));
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
  // Parsed rows waiting, by chunk, each with the bytes read when it was parsed.
  let queue: { rows: string[][]; bytes: number }[] = [];
  let waiting = 0;
  let handed = 0;
  let done = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const signal = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  let first = true;
  /** Rows parsed before this chunk (empty ones too): rows of the sheet. */
  let parsed = 0;
  let handle: Papa.Parser | undefined;
  Papa.parse(stream as unknown as File, {
    delimiter: kind.delimiter ?? ',',
    // Empty lines are parsed (as one empty cell) so that they count as rows of the sheet; they are not handed out.
    skipEmptyLines: false,
    chunk: (results: Papa.ParseResult<string[]>, p: Papa.Parser) => {
      handle = p;
      let rows = results.data;
      if (first && rows.length) {
        first = false;
        const h = rows[0]!;
        if (h.length && h[0]!.charCodeAt(0) === 0xfeff) h[0] = h[0]!.slice(1);
      }
      // A quoted value not closed where it should be ("5" screen", "ab"cd) runs on to the next quote,
      // taking the lines after it into one value: the rows before it are read, then the file is refused.
      const quote = results.errors.find((e) => e.type === 'Quotes');
      if (quote) {
        const at = Math.min(quote.row ?? 0, rows.length);
        rows = rows.slice(0, at);
        failure = badRequest(`Row ${parsed + at + 1} of the file has a quote that does not close its value: a quote inside a value must be written twice ("")`);
        done = true;
        p.abort();
      }
      parsed += rows.length;
      queue.push({ rows, bytes: bytes() });
      waiting += rows.length;
      if (waiting >= QUEUE_ROWS) stream.pause();
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
  let row = 0;
  async function* rows(): AsyncIterable<string[]> {
    for (;;) {
      if (queue.length) {
        const batch = queue.shift()!;
        waiting -= batch.rows.length;
        for (const r of batch.rows) {
          row++;
          if (r.length === 1 && r[0] === '') continue;
          yield r.map(csvCellText);
        }
        handed = batch.bytes;
        continue;
      }
      if (failure) throw isAppError(failure) ? failure : badRequest(`The CSV file could not be read: ${failure.message}`);
      if (done) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (stream.isPaused()) stream.resume();
      });
    }
  }
  return { rows: rows(), bytesRead: () => handed, rowNumber: () => row, close: () => (handle?.abort(), stream.destroy()) };
}

/** Parsed CSV rows held ahead of the reader before the file stream waits. */
const QUEUE_ROWS = 5000;

/**
 * exceljs's streaming reader parses the workbook part, its relationships and the shared strings
 * while it reads on, and depending on how its parsing and the ZIP entries interleave it now and
 * then meets a sheet too early: it fails ('this.model.sheets'), leaves the sheet unnamed, or
 * leaves shared strings unresolved. The workbook's sheets and date system are read first
 * (xlsx-workbook.ts) and handed to it, and a reading that goes wrong before its first row is
 * started again (up to ATTEMPTS times); an unresolved shared string is never passed on as text.
 */
function xlsxRows(path: string, sheet: string | undefined): RowStream {
  let bytes = () => 0;
  let stream: Readable | undefined;
  let closed = false;
  let rowNumber = 0;
  let errors = new Map<number, string>();
  async function* attempt(book: WorkbookStructure): AsyncIterable<string[]> {
    const c = counted(path);
    stream = c.stream;
    bytes = c.bytes;
    // exceljs loads on the first workbook read (a large module the server needs only here).
    const { default: ExcelJS } = await import('exceljs');
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(c.stream, { worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', entries: 'emit' });
    Object.assign(reader, { model: { sheets: book.sheets }, properties: { model: { date1904: book.date1904 } } });
    let found = false;
    for await (const ws of reader) {
      const w = ws as unknown as AsyncIterable<{ values: unknown[] }> & { name?: string };
      const wanted = !found && (sheet === undefined || w.name === sheet);
      for await (const row of w) {
        if (!wanted) continue;
        // exceljs hands out no row for one left empty: its number says where the row is.
        rowNumber = typeof (row as { number?: unknown }).number === 'number' ? (row as unknown as { number: number }).number : rowNumber + 1;
        const values = Array.isArray(row.values) ? row.values : [];
        const out: string[] = [];
        errors = new Map();
        for (let i = 1; i < values.length; i++) {
          const error = cellError(values[i]);
          if (error !== undefined) errors.set(i - 1, error);
          const v = values[i];
          out.push(typeof v === 'number' && isPercentFormat(cellFormat(row, i)) ? percentText(v) : cellText(v));
        }
        yield out;
      }
      if (wanted) found = true;
    }
    if (!found) throw new SheetNotMet();
  }
  async function* rows(): AsyncIterable<string[]> {
    const book = await xlsxWorkbook(path);
    if (sheet !== undefined && !book.sheets.some((x) => x.name === sheet)) throw badRequest(`The workbook has no sheet '${sheet}'`);
    for (let n = 1; ; n++) {
      if (closed) return;
      let yielded = false;
      try {
        for await (const r of attempt(book)) {
          yielded = true;
          yield r;
        }
        return;
      } catch (e) {
        stream?.destroy();
        if (!yielded && n < ATTEMPTS && !isAppError(e)) continue;
        if (isAppError(e)) throw e;
        if (e instanceof SheetNotMet) throw badRequest(`The sheet '${sheet ?? book.sheets[0]!.name}' could not be read from the workbook`);
        throw badRequest(`The XLSX file could not be read: ${(e as Error).message}`);
      }
    }
  }
  return { rows: rows(), bytesRead: () => bytes(), rowNumber: () => rowNumber, cellErrors: () => errors, close: () => ((closed = true), stream?.destroy()) };
}

/** Readings of a workbook tried before giving up (see xlsxRows). */
const ATTEMPTS = 4;

class SheetNotMet extends Error {}

/** Opens the rows of a file (for an XLSX file, of `sheet`, by default the first). */
export function openRows(path: string, kind: FileKind, sheet?: string): RowStream {
  if (kind.format === 'json') return jsonRows(path, kind.keys ?? []);
  return kind.format === 'csv' ? csvRows(path, kind) : xlsxRows(path, sheet);
}

/** The sheet names of an XLSX file in workbook order, or 400 when it is no workbook. */
export async function xlsxSheets(path: string): Promise<string[]> {
  return (await xlsxWorkbook(path)).sheets.map((x) => x.name);
}
