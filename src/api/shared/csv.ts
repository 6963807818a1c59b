/**
 * The rows of a read as CSV (RFC 4180), streamed page by page through the data core so a large
 * view never sits in memory. Text that a spreadsheet would run as a formula (starting with = + -
 * @ or a tab) is prefixed with an apostrophe.
 */
import type { ColumnModel, TableModel } from '../../schema/model';
import type { DataContext } from '../../data/data-context';
import type { Params } from '../../data/list-query';
import * as data from '../../data/records-service';

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * A CSV answer of every row `params` selects (limit and offset are the stream's own; null: none). The first
 * page is read before answering, so a bad parameter still answers its status; the rest is streamed.
 */
export async function csvResponse(dc: DataContext, t: TableModel, columns: ColumnModel[], params: Params | null, filename: string): Promise<Response> {
  const enc = new TextEncoder();
  const page = dc.maxLimit;
  const read = async (offset: number) => (params === null ? [] : data.list(dc, t, { ...params, limit: String(page), offset: String(offset) }));
  const lines = (rows: Record<string, unknown>[]) => enc.encode(rows.map((r) => columns.map((c) => cell(r[c._cn])).join(',') + '\r\n').join(''));
  const first = await read(0);
  let offset = first.length;
  let done = first.length < page;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(enc.encode(columns.map((c) => cell(c._cn)).join(',') + '\r\n'));
      controller.enqueue(lines(first));
      if (done) controller.close();
    },
    async pull(controller) {
      if (done) return;
      try {
        const rows = await read(offset);
        offset += rows.length;
        done = rows.length < page;
        if (rows.length) controller.enqueue(lines(rows));
        if (done) controller.close();
      } catch (e) {
        controller.error(e);
      }
    },
  });
  const safeName = filename.replace(/[^\w. -]+/g, '_').trim() || 'view';
  return new Response(stream, {
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${safeName}.csv"`, 'cache-control': 'no-store' },
  });
}
