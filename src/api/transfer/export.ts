/**
 * Exports of a table's rows as CSV or XLSX, streamed page by page (`listPages`: the list's own
 * parameters and the caller's rights, so hidden columns and rows stay out). The first page is read
 * before the answer starts, so a bad filter or a refused table answers 400/403 as a list would.
 * XLSX is written by xlsx-writer.ts into fflate's streaming ZIP, each column in its number format (xlsx-formats.ts).
 */
import { PassThrough } from 'node:stream';
import type { EventEmitter } from 'node:events';
import { XlsxWriter } from './xlsx-writer';
import { xlsxCell, xlsxColumns } from './xlsx-formats';
import type { DataContext } from '../../data/data-context';
import { listPages } from '../../data/records-service';
import { contentDisposition, fileNameOf } from '../../http/content-disposition';
import type { Params } from '../../data/list-query';
import type { ColumnModel, TableModel, ValueKind } from '../../schema/model';

export type ExportFormat = 'csv' | 'xlsx';

/** Rows read per page. */
const PAGE_ROWS = 2000;
/** Bytes buffered ahead of the client before the producer waits. */
const HIGH_WATER = 4 * 1024 * 1024;

/** Kinds whose values are numbers even when they travel as text (bigint, decimal). */
const NUMERIC = new Set<ValueKind>(['integer', 'bigint', 'decimal', 'float']);
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * Text that Excel or LibreOffice would run as a formula (starting with = + - @ tab or CR) gets an
 * apostrophe in front (OWASP's advice on CSV injection), so a cell typed by one user cannot run
 * in another's spreadsheet. A number of a numeric column (-5) stays as it is.
 */
function formulaSafe(s: string, kind: ValueKind | undefined): string {
  if (!/^[=+\-@\t\r]/.test(s) || (kind && NUMERIC.has(kind) && NUMBER_TEXT.test(s))) return s;
  return `'${s}`;
}

/** A value as CSV text (JSON for objects), quoted when it must be; `kind`: its column's (a header: none). */
export function csvField(v: unknown, kind?: ValueKind, delimiter = ','): string {
  if (v === null || v === undefined) return '';
  // A JSON column's value is written as JSON: its text "a" as "a" in quotes, which the import reads back as text.
  const s = typeof v === 'object' || (kind === 'json' && typeof v === 'string') ? JSON.stringify(v) : typeof v === 'string' ? formulaSafe(v, kind) : String(v);
  if (s.includes('"') || s.includes(delimiter) || s.includes('\n') || s.includes('\r') || s !== s.trim()) return `"${s.replace(/"/g, '""')}"`;
  return s;
}

/** Resolves at the first of `events` (and stops listening to the others). */
function whenAny(e: EventEmitter, events: string[]): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      for (const n of events) e.off(n, done);
      resolve();
    };
    for (const n of events) e.on(n, done);
  });
}

/** Waits while the client is behind by more than HIGH_WATER bytes (`consumed`: the answer took a chunk). */
async function backpressure(out: PassThrough): Promise<void> {
  while (out.readableLength > HIGH_WATER && !out.destroyed) await whenAny(out, ['consumed', 'close']);
}

/** The answer's body: reads `out` when the client asks for more (so the producer waits for a slow client). */
function bodyOf(out: PassThrough): ReadableStream<Uint8Array> {
  let ended = false;
  out.on('end', () => (ended = true));
  // A failure is logged where it happens and ends the body (out.errored) below.
  out.on('error', () => {});
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          const chunk = out.read() as Buffer | null;
          if (chunk) {
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            out.emit('consumed');
            return;
          }
          if (out.errored) return controller.error(out.errored);
          if (ended || out.destroyed) return controller.close();
          await whenAny(out, ['readable', 'end', 'close', 'error']);
        }
      },
      cancel() {
        out.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}

async function writeCsv(out: PassThrough, columns: ColumnModel[], first: Record<string, unknown>[], rest: AsyncGenerator<Record<string, unknown>[]>, bom: boolean) {
  const line = (r: Record<string, unknown>) => columns.map((c) => csvField(r[c._cn], c.kind)).join(',') + '\r\n';
  out.write((bom ? '\ufeff' : '') + columns.map((c) => csvField(c._cn)).join(',') + '\r\n');
  for (let page: Record<string, unknown>[] | undefined = first; page; page = (await rest.next()).value ?? undefined) {
    if (out.destroyed) return;
    let chunk = '';
    for (const r of page) chunk += line(r);
    if (!out.write(chunk)) await backpressure(out);
  }
}

async function writeXlsx(out: PassThrough, t: TableModel, columns: ColumnModel[], first: Record<string, unknown>[], rest: AsyncGenerator<Record<string, unknown>[]>) {
  let failed: Error | undefined;
  const xlsx = new XlsxWriter(t._tn, xlsxColumns(columns), (chunk) => out.write(chunk), (e) => (failed = e));
  for (let page: Record<string, unknown>[] | undefined = first; page; page = (await rest.next()).value ?? undefined) {
    if (out.destroyed) return;
    xlsx.addRows(page.map((r) => columns.map((c) => xlsxCell(c, r[c._cn]))));
    if (failed) throw failed;
    await backpressure(out);
  }
  xlsx.end();
  if (failed) throw failed;
}

const fileName = (t: TableModel, format: ExportFormat) => `${t._tn.replace(/[^\w.-]+/g, '_') || 'export'}.${format}`;

/**
 * Content-Disposition of an export: an ASCII name for old clients and the table's own name in
 * `filename*` (RFC 6266), so a table shown as '客户' or 'Año' downloads under that name.
 */
export function exportDisposition(t: TableModel, format: ExportFormat): string {
  return contentDisposition('attachment', `${fileNameOf(t._tn, 'export')}.${format}`, fileName(t, format));
}

/** The export as a streamed answer; throws (400/403) before answering when the list parameters or rights refuse. */
export async function exportResponse(dc: DataContext, t: TableModel, params: Params, format: ExportFormat, log: { error(msg: string, e?: unknown): void }): Promise<Response> {
  const { columns, pages } = listPages(dc, t, params, PAGE_ROWS);
  const first = (await pages.next()).value ?? [];
  // The page loop waits while more than HIGH_WATER is unread (the writers do not wait on `out` itself).
  const out = new PassThrough({ highWaterMark: 16 * HIGH_WATER });
  const bom = params.bom === 'true' || params.bom === '1';
  const write = format === 'csv' ? writeCsv(out, columns, first, pages, bom) : writeXlsx(out, t, columns, first, pages);
  write.then(
    () => out.end(),
    (e) => {
      log.error(`export of ${t.tn} failed while streaming`, e);
      out.destroy(e as Error);
    },
  );
  const type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  return new Response(bodyOf(out), {
    headers: { 'content-type': type, 'content-disposition': exportDisposition(t, format), 'cache-control': 'no-store' },
  });
}
