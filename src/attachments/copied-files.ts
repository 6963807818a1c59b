/**
 * Files of another cell written into an Attachment cell: an Attachment cell copied and pasted, filled
 * down, or a row's value written into another. A stored file is served only through the cell that
 * holds it (src/attachments/routes.ts) and is swept when that cell lets it go, so an entry naming
 * another cell's file would show a file that does not open, and lose it for good once the first cell
 * does. Each such file becomes a copy of its own: the bytes are stored again for the written cell,
 * and the entry names the copy. Only files the writer may read through their own cell are copied
 * (same project and database, the row rule and column rights of the data core); other entries are
 * kept as they were sent. A write that fails removes its copies at once.
 */
import type { AppContext } from '../context';
import type { DataContext } from '../data/data-context';
import type { ColumnModel, TableModel } from '../schema/model';
import { findColumn } from '../data/columns';
import { ID_SEPARATOR, rowId } from '../data/row-id';
import { isAppError } from '../lib/errors';
import { filesRepo, type StoredFile } from '../meta/files-repo';
import { storageNamed } from '../plugins/state';
import { entriesOf, readCell, rowKeyOf, type FileEntry } from './cell';
import { storeChecked } from './upload';

type Row = Record<string, unknown>;

/** The copies made for one write: their ids, and `undo`, which removes them again. */
export interface Copies {
  ids: string[];
  undo: () => Promise<void>;
}

const NONE: Copies = { ids: [], undo: async () => {} };

/** The ids an Attachment value of `row` names (any column), or none. */
function namedIds(t: TableModel, row: unknown): string[] {
  if (!row || typeof row !== 'object' || Array.isArray(row)) return [];
  const ids: string[] = [];
  for (const [name, v] of Object.entries(row as Row)) {
    if (v === null || v === undefined || findColumn(t, name)?.uidt !== 'Attachment') continue;
    for (const e of entriesOf(v)) if (typeof e.id === 'string') ids.push(e.id);
  }
  return ids;
}

/** Whether any row of a write names a stored file by id (only then is there anything to copy). */
export const namesStoredFiles = (t: TableModel, rows: unknown[]): boolean => t.columns.some((c) => c.uidt === 'Attachment') && rows.some((r) => namedIds(t, r).length > 0);

/** Whether the caller may read `f` through the cell that holds it. */
async function readableByCaller(dc: DataContext, f: StoredFile): Promise<boolean> {
  const st = dc.pdb.model.tables.find((x) => x.tn === f.tn);
  const sc = st?.columns.find((x) => x.cn === f.cn);
  if (!st || !sc) return false;
  try {
    const { files, rowKey } = await readCell(dc, st, f.pk, sc);
    return rowKey === f.pk && files.some((e) => e.id === f.id);
  } catch (e) {
    if (isAppError(e) && e.status < 500) return false;
    throw e;
  }
}

/**
 * Puts copies in place of the entries of `row` that name files of other cells (see the file
 * comment). `pk` is the written row's key, or a pending owner key for a row not made yet (then
 * attach the copies with filesRepo.attachTo once it exists). Answers the row to write and the copies.
 */
export async function copyForeignFiles(ctx: AppContext, dc: DataContext, t: TableModel, row: Row, pk: string): Promise<{ row: Row; copies: Copies }> {
  const ids = namedIds(t, row);
  if (!ids.length) return { row, copies: NONE };
  const stored = new Map((await filesRepo(ctx.meta).attachedAmong([...new Set(ids)])).map((f) => [f.id, f]));
  const out: Row = { ...row };
  const made: Copies[] = [];
  const copies: Copies = { ids: [], undo: async () => void (await Promise.all(made.map((m) => m.undo()))) };
  try {
    for (const [name, value] of Object.entries(row)) {
      const c: ColumnModel | undefined = findColumn(t, name);
      if (!c || c.uidt !== 'Attachment' || value === null || value === undefined) continue;
      const entries = entriesOf(value);
      if (!entries.some((e) => typeof e.id === 'string' && stored.has(e.id))) continue;
      const next: FileEntry[] = [];
      for (const e of entries) {
        const f = typeof e.id === 'string' ? stored.get(e.id) : undefined;
        const home = f && f.project_id === dc.pdb.projectId && f.db_alias === dc.pdb.dbAlias;
        const sameCell = home && f.tn === t.tn && f.cn === c.cn && f.pk === pk;
        if (!f || !home || sameCell || !(await readableByCaller(dc, f))) {
          next.push(e);
          continue;
        }
        const blob = await storageNamed(ctx, f.storage)?.get(f.storage_key);
        if (!blob) {
          next.push(e);
          continue;
        }
        const file = new File([blob], f.name, { type: f.mimetype });
        const copy = await storeChecked(ctx, { project_id: dc.pdb.projectId, db_alias: dc.pdb.dbAlias, tn: t.tn, cn: c.cn, pk }, [{ file, name: f.name, type: f.mimetype }]);
        made.push(copy);
        copies.ids.push(...copy.ids);
        next.push(copy.added[0]!);
      }
      // The value keeps the form it was sent in (a JSON text stays text).
      out[name] = typeof value === 'string' ? JSON.stringify(next) : next;
    }
  } catch (e) {
    await copies.undo();
    throw e;
  }
  return { row: out, copies };
}

/** The row key an element of a bulk update names (its primary key values), or null when it names none. */
export function bulkRowKey(t: TableModel, row: unknown): string | null {
  if (!row || typeof row !== 'object' || Array.isArray(row)) return null;
  const r = row as Row;
  const parts: string[] = [];
  for (const pk of t.pks) {
    const c = t.columns.find((x) => x.cn === pk);
    const v = c ? (r[c._cn] ?? r[c.cn]) : undefined;
    if (v === undefined || v === null) return null;
    parts.push(String(v));
  }
  try {
    return rowKeyOf(t, parts.join(ID_SEPARATOR));
  } catch {
    return null;
  }
}

/** The key of a row just made, as its cells' files are stored under. */
export const madeRowKey = (t: TableModel, made: Row | string): string => rowKeyOf(t, typeof made === 'string' ? made : rowId(t, made));
