/**
 * One multipart upload to an Attachment cell: checks the caller's rights (read the row, update the
 * column, the row rule applies), the column's limits (count, each file's size: 413, accepted
 * types: 400) and the names; stores the files with the active storage plugin as 'pending', writes
 * the cell through the data core, then marks them attached. A failed write removes the files it
 * stored at once (no committed row holds them).
 */
import type { AppContext } from '../context';
import type { DataContext } from '../data/records-service';
import type { ColumnModel, TableModel } from '../schema/model';
import * as data from '../data/records-service';
import { assertCan, assertColumns } from '../data/access';
import { knownToWriter } from '../data/read-scope';
import { AppError, badRequest } from '../lib/errors';
import { newId } from '../lib/ids';
import { filesRepo, type StoredFile } from '../meta/files-repo';
import { activeStorage } from '../plugins/state';
import { attachmentColumn, readCell, type FileEntry } from './cell';
import { acceptedFile, safeFileName } from './file-names';

/** Every File of a parsed multipart body (any field name, one or several per field). */
export function filesOfBody(body: unknown): File[] {
  if (!body || typeof body !== 'object') return [];
  const out: File[] = [];
  for (const v of Object.values(body as Record<string, unknown>)) {
    for (const x of Array.isArray(v) ? v : [v]) if (x instanceof File) out.push(x);
  }
  return out;
}

/** One file of an upload, checked: its safe name and media type. */
export interface CheckedFile {
  file: File;
  name: string;
  type: string;
}

/**
 * The limits every upload to an Attachment column meets (the dashboard's and a shared form's): each
 * file's size (413) and the column's accepted types (400); answers safe names and media types.
 */
export function checkFiles(ctx: AppContext, c: ColumnModel, files: File[]): CheckedFile[] {
  const limit = ctx.config.attachmentMaxBytes;
  return files.map((f) => {
    const name = safeFileName(f.name || 'file');
    const type = (f.type || Bun.file(name).type || 'application/octet-stream').split(';')[0]!.trim().toLowerCase();
    if (f.size > limit) throw new AppError('PAYLOAD_TOO_LARGE', `'${name}' is larger than the limit of ${limit} bytes`);
    const accept = c.meta?.accept;
    if (accept?.length && !acceptedFile(name, type, accept)) throw badRequest(`Column '${c._cn}' accepts only ${accept.join(', ')}: '${name}' (${type}) is not one`);
    return { file: f, name, type };
  });
}

/** Where stored files belong: the nc_files columns every file of one upload shares. */
export type FilePlace = Pick<StoredFile, 'project_id' | 'db_alias' | 'tn' | 'cn' | 'pk'>;

/**
 * Stores checked files with the active storage plugin as 'pending' at `place`; answers their cell
 * entries, their ids and `undo`, which removes them again. A storage failure removes what it stored
 * and answers 502.
 */
export async function storeChecked(ctx: AppContext, place: FilePlace, checked: CheckedFile[]): Promise<{ added: FileEntry[]; ids: string[]; undo: () => Promise<void> }> {
  const storage = activeStorage(ctx);
  const repo = filesRepo(ctx.meta);
  const added: FileEntry[] = [];
  const stored: { id: string; key: string }[] = [];
  const undo = async () => {
    for (const s of stored) {
      await storage.delete(s.key).catch((e) => ctx.log.error(`could not remove the file ${s.key} of a failed upload`, e));
      await repo.remove(s.id);
    }
  };
  try {
    for (const f of checked) {
      const fileId = newId('fl');
      // Windows folders refuse quotes, which names keep.
      const key = `${place.project_id}/${fileId}/${f.name.replace(/"/g, '_')}`;
      await repo.addPending({ id: fileId, ...place, storage: storage.ref, storage_key: key, name: f.name, mimetype: f.type, size: f.file.size });
      stored.push({ id: fileId, key });
      await storage.put(key, f.file, f.type);
      added.push({ id: fileId, title: f.name, mimetype: f.type, size: f.file.size, path: key });
    }
  } catch (e) {
    await undo();
    ctx.log.error('attachment upload: the storage refused a file', e);
    throw new AppError('BAD_GATEWAY', `The ${storage.name} storage could not store the file: ${(e as Error).message}`);
  }
  return { added, ids: stored.map((s) => s.id), undo };
}

export async function uploadToCell(ctx: AppContext, dc: DataContext, t: TableModel, id: string, column: string, files: File[]) {
  const g = assertCan(dc.actor, t, 'update', dc.acl);
  const c = attachmentColumn(t, column, knownToWriter(dc, t, g));
  assertColumns(g, t, 'update', [c]);
  if (files.length === 0) throw badRequest('No file in the upload: send multipart/form-data with one or more file fields');
  const { files: current, rowKey } = await readCell(dc, t, id, c);
  const max = c.meta?.maxFiles;
  if (max !== undefined && current.length + files.length > max) {
    throw badRequest(`Column '${c._cn}' holds at most ${max} file${max === 1 ? '' : 's'} (it has ${current.length}, the upload adds ${files.length})`);
  }
  const checked = checkFiles(ctx, c, files);

  const repo = filesRepo(ctx.meta);
  const { added, ids, undo } = await storeChecked(ctx, { project_id: dc.pdb.projectId, db_alias: dc.pdb.dbAlias, tn: t.tn, cn: c.cn, pk: rowKey }, checked);
  const value = [...current, ...added];
  let row: Record<string, unknown>;
  try {
    row = await data.update(dc, t, id, { [c._cn]: value });
  } catch (e) {
    await undo();
    throw e;
  }
  await repo.markAttached(ids);
  return { uploaded: added, value: row[c._cn] ?? value };
}
