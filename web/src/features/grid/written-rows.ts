/**
 * Rows as the server keeps them after a write, for the undo steps of pastes and fills: a value is
 * stored in the column's own form ('2.50' comes back 2.5, '1:30' as 5400 seconds, '10:00' as
 * '10:00:00'), and an undo checks the row still holds what was written. And the other way, values
 * read from the API written back (undo, redo, fill): a JSON column takes a string as JSON text, so
 * its values go as their JSON text.
 */
import { recordsApi } from '../../api/records';
import type { TableMeta } from '../../api/dashboard';

type Row = Record<string, unknown>;

/** Keys read back per list call. */
const READ_CHUNK = 100;

/** The JSON columns of a table, whose values are written as JSON text. */
export const jsonColumns = (meta: Pick<TableMeta, 'columns'>): string[] => meta.columns.filter((c) => c.kind === 'json').map((c) => c._cn);

/** Values as read from the API, ready to be written back: JSON columns' values as their JSON text. */
export function forWrite(values: Row, json: readonly string[] | undefined): Row {
  if (!json?.length) return values;
  const out: Row = { ...values };
  for (const k of json) if (out[k] !== null && out[k] !== undefined) out[k] = JSON.stringify(out[k]);
  return out;
}

/** The rows with these ids as the server reads them now, by id (rows gone are left out). */
export async function readRows(projectId: string, meta: Pick<TableMeta, '_tn' | 'pks'>, ids: string[], idOf: (row: Row) => string): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  const pk = meta.pks.length === 1 ? meta.pks[0]! : null;
  // One list per chunk when the keys fit an `in` term (no commas or brackets); else one read per row.
  if (pk !== null && ids.every((id) => id !== '' && !/[,()~]/.test(id))) {
    for (let i = 0; i < ids.length; i += READ_CHUNK) {
      const chunk = ids.slice(i, i + READ_CHUNK);
      const rows = await recordsApi.list(projectId, meta._tn, { limit: chunk.length, offset: 0, where: `(${pk},in,${chunk.join(',')})` });
      for (const r of rows) out.set(idOf(r), r);
    }
    return out;
  }
  for (const id of ids) {
    const row = await recordsApi.read(projectId, meta._tn, id).catch(() => null);
    if (row) out.set(id, row);
  }
  return out;
}

/** The named columns of a row. */
export const pick = (row: Row, keys: string[]): Row => Object.fromEntries(keys.map((k) => [k, row[k]]));
