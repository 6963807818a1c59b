/**
 * The REST writes of rows (update, bulk update, bulk create) with the files of other cells that
 * their Attachment values name copied for the written cells (src/attachments/copied-files.ts). A
 * write that names no stored file goes straight to the data core.
 */
import type { AppContext } from '../context';
import type { DataContext } from '../data/data-context';
import type { TableModel } from '../schema/model';
import * as data from '../data/records-service';
import { filesRepo } from '../meta/files-repo';
import { newId } from '../lib/ids';
import { bulkRowKey, copyForeignFiles, madeRowKey, namesStoredFiles, type Copies } from './copied-files';
import { rowKeyOf } from './cell';

type Row = Record<string, unknown>;

/** Runs `write` with the copies made for it: attached when it commits, removed when it fails. */
async function withCopies<T>(copies: Copies[], write: () => Promise<T>, attach: (result: T) => Promise<void>): Promise<T> {
  let result: T;
  try {
    result = await write();
  } catch (e) {
    for (const c of copies) await c.undo();
    throw e;
  }
  await attach(result);
  return result;
}

/** data.update, with the files of other cells named in the body copied for this row. */
export async function updateWithFiles(ctx: AppContext, dc: DataContext, t: TableModel, id: string, body: unknown): Promise<Row> {
  if (!namesStoredFiles(t, [body]) || !t.pks.length) return data.update(dc, t, id, body);
  const { row, copies } = await copyForeignFiles(ctx, dc, t, body as Row, rowKeyOf(t, id));
  return withCopies([copies], () => data.update(dc, t, id, row), () => filesRepo(ctx.meta).markAttached(copies.ids));
}

/** data.bulkUpdate (a paste, a fill-down), with the files of other cells copied for each row. */
export async function bulkUpdateWithFiles(ctx: AppContext, dc: DataContext, t: TableModel, body: unknown): Promise<number> {
  if (!Array.isArray(body) || !namesStoredFiles(t, body) || !t.pks.length) return data.bulkUpdate(dc, t, body);
  const rows: unknown[] = [];
  const copies: Copies[] = [];
  try {
    for (const r of body) {
      const key = bulkRowKey(t, r);
      if (key === null) {
        rows.push(r);
        continue;
      }
      const done = await copyForeignFiles(ctx, dc, t, r as Row, key);
      rows.push(done.row);
      copies.push(done.copies);
    }
  } catch (e) {
    for (const c of copies) await c.undo();
    throw e;
  }
  return withCopies(copies, () => data.bulkUpdate(dc, t, rows), () => filesRepo(ctx.meta).markAttached(copies.flatMap((c) => c.ids)));
}

/** The row key of copies made before their row exists (no row key starts so). */
const unmade = () => `\u0001copy-for:${newId('rw')}`;

/** data.bulkCreate (pasted rows past the last one), with the files of other cells copied for each new row. */
export async function bulkCreateWithFiles(ctx: AppContext, dc: DataContext, t: TableModel, body: unknown): Promise<string[]> {
  if (!Array.isArray(body) || !namesStoredFiles(t, body) || !t.pks.length) return data.bulkCreate(dc, t, body);
  const rows: unknown[] = [];
  const copies: Copies[] = [];
  try {
    for (const r of body) {
      if (!r || typeof r !== 'object' || Array.isArray(r)) {
        rows.push(r);
        copies.push({ ids: [], undo: async () => {} });
        continue;
      }
      const done = await copyForeignFiles(ctx, dc, t, r as Row, unmade());
      rows.push(done.row);
      copies.push(done.copies);
    }
  } catch (e) {
    for (const c of copies) await c.undo();
    throw e;
  }
  return withCopies(copies, () => data.bulkCreate(dc, t, rows), async (made) => {
    const repo = filesRepo(ctx.meta);
    for (const [i, c] of copies.entries()) if (c.ids.length && made[i] !== undefined) await repo.attachTo(c.ids, madeRowKey(t, made[i]!));
  });
}

/** For a create: copies the files of other cells named in `row` before the row exists; attach them with `attach` once it does. */
export async function copiesForCreate(ctx: AppContext, dc: DataContext, t: TableModel, row: Row): Promise<{ row: Row; copies: Copies; attach: (made: Row) => Promise<void> }> {
  if (!namesStoredFiles(t, [row]) || !t.pks.length) return { row, copies: { ids: [], undo: async () => {} }, attach: async () => {} };
  const done = await copyForeignFiles(ctx, dc, t, row, unmade());
  return { ...done, attach: (made) => filesRepo(ctx.meta).attachTo(done.copies.ids, madeRowKey(t, made)) };
}
