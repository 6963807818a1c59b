/**
 * Attachment cells as the data core sees them: the column by name (Attachment only), the files a
 * row holds, and the row read through the caller's rights (row rule and column rights apply).
 */
import type { TableModel, ColumnModel } from '../schema/model';
import type { DataContext } from '../data/records-service';
import * as data from '../data/records-service';
import { ID_SEPARATOR, idValues } from '../data/row-id';
import { badRequest, notFound } from '../lib/errors';
import type { KnownColumn } from '../data/columns';

/** One file of a cell value. */
export interface FileEntry {
  id?: string;
  url?: string;
  path?: string;
  title?: string;
  mimetype?: string;
  size?: number;
}

/**
 * The Attachment column by display or SQL name: 404 when missing or hidden from the caller (outside
 * `known`), 400 when of another type.
 */
export function attachmentColumn(t: TableModel, name: string, known?: KnownColumn): ColumnModel {
  const c = t.columns.find((x) => x._cn === name) ?? t.columns.find((x) => x.cn === name);
  if (!c || (known && !known(c))) throw notFound(`Column '${name}' not found in '${t._tn}'`);
  if (c.uidt !== 'Attachment') throw badRequest(`Column '${c._cn}' is not an Attachment column`);
  return c;
}

/** The files of a cell value (a JSON list or its text); anything else is no files. */
export function entriesOf(v: unknown): FileEntry[] {
  let list = v;
  if (typeof v === 'string') {
    try {
      list = JSON.parse(v);
    } catch {
      return [];
    }
  }
  return Array.isArray(list) ? (list.filter((f) => f && typeof f === 'object') as FileEntry[]) : [];
}

/** Reads the cell of one row with the caller's rights; answers its files and the row's canonical id. */
export async function readCell(dc: DataContext, t: TableModel, id: string, c: ColumnModel): Promise<{ files: FileEntry[]; rowKey: string }> {
  const row = await data.read(dc, t, id, { fields: c._cn });
  if (!(c._cn in row)) throw notFound(`Column '${c._cn}' not found in '${t._tn}'`);
  return { files: entriesOf(row[c._cn]), rowKey: rowKeyOf(t, id) };
}

/** The row id in one spelling (each key value converted to its column's type): `01` and `1` are one row. */
export const rowKeyOf = (t: TableModel, id: string): string => idValues(t, id).map((v) => (v instanceof Date ? v.toISOString() : String(v))).join(ID_SEPARATOR);
