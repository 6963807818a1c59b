/**
 * The rows of a read as CSV (RFC 4180), streamed page by page through the data core so a large
 * view never sits in memory. Fields are written as the table export writes them (formula-like text
 * prefixed with an apostrophe).
 */
import type { ColumnModel, TableModel } from '../../schema/model';
import type { DataContext } from '../../data/data-context';
import type { Params } from '../../data/list-query';
import * as data from '../../data/records-service';
import { csvField } from '../transfer/export';
import { contentDisposition, fileNameOf } from '../../http/content-disposition';

/**
 * A CSV answer of every row `params` selects (limit and offset are the stream's own; null: none). The first
 * page is read before answering, so a bad parameter still answers its status; the rest is streamed.
 */
export async function csvResponse(dc: DataContext, t: TableModel, columns: ColumnModel[], params: Params | null, filename: string): Promise<Response> {
  const enc = new TextEncoder();
  const page = dc.maxLimit;
  const read = async (offset: number) => (params === null ? [] : data.list(dc, t, { ...params, limit: String(page), offset: String(offset) }));
  const lines = (rows: Record<string, unknown>[]) => enc.encode(rows.map((r) => columns.map((c) => csvField(r[c._cn], c.kind)).join(',') + '\r\n').join(''));
  const first = await read(0);
  let offset = first.length;
  let done = first.length < page;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(enc.encode(columns.map((c) => csvField(c._cn)).join(',') + '\r\n'));
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
  // The view's own title in filename*, so 'Clientes año 客户' downloads under that name.
  const disposition = contentDisposition('attachment', `${fileNameOf(filename, 'view')}.csv`);
  return new Response(stream, {
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': disposition, 'cache-control': 'no-store' },
  });
}
