/**
 * Files uploaded for a row that does not exist yet: the Attachment fields of forms (the dashboard's
 * form view and shared forms). An upload meets the same limits as a cell upload (checkFiles), is
 * stored with the active storage plugin and stays 'pending' under its uploader (`user:<id>` or
 * `link:<uuid>`, kept in the row key until the row exists). Nothing serves a pending file: the file
 * routes want an attached one held by a row the caller may read.
 *
 * The submission that makes the row names the files by id: claimUploads puts each uploader's own
 * pending file in place of its entry (name, type, size and storage key as stored, whatever the
 * entry said), the row is created, then attachClaimed attaches them to it. Files never claimed stay
 * pending, unreadable, and the sweep removes them after LIMITS.attachmentPendingGraceMs.
 */
import type { AppContext } from '../context';
import type { DataContext } from '../data/data-context';
import type { ColumnModel, TableModel } from '../schema/model';
import * as data from '../data/records-service';
import { findColumn } from '../data/columns';
import { rowId } from '../data/row-id';
import { badRequest } from '../lib/errors';
import { filesRepo } from '../meta/files-repo';
import { entriesOf, rowKeyOf, type FileEntry } from './cell';
import { checkFiles, storeChecked } from './upload';
import { ownerKey } from '../lib/actor';
import { copiesForCreate } from './file-writes';

/**
 * The row key of a pending form upload names its uploader after this prefix (no row key starts so).
 * Not NUL: PostgreSQL text cannot hold it, and the metadata may live there.
 */
const OWNER_PREFIX = '\u0001upload-for:';

/** Who uploaded a form's files: only the same uploader's submission may claim them. */
export const uploadOwner = {
  /** A signed-in user (or API token) on the dashboard. */
  of: (dc: DataContext) => `user:${ownerKey(dc.actor)}`,
  /** Anyone holding a shared form's link. */
  link: (uuid: string) => `link:${uuid}`,
};

/** Stores `files` for a form's Attachment field `c` of `t` (see the file comment); answers their entries. */
export async function storeFormUploads(ctx: AppContext, dc: DataContext, t: TableModel, c: ColumnModel, owner: string, files: File[]): Promise<{ uploaded: FileEntry[] }> {
  if (!t.columns.some((x) => x.pk)) throw badRequest(`Table '${t._tn}' has no primary key: its files could not be found again`);
  if (files.length === 0) throw badRequest('No file in the upload: send multipart/form-data with one or more file fields');
  const max = c.meta?.maxFiles;
  if (max !== undefined && files.length > max) throw badRequest(`Column '${c._cn}' holds at most ${max} file${max === 1 ? '' : 's'}`);
  const checked = checkFiles(ctx, c, files);
  const { added } = await storeChecked(ctx, { project_id: dc.pdb.projectId, db_alias: dc.pdb.dbAlias, tn: t.tn, cn: c.cn, pk: OWNER_PREFIX + owner }, checked);
  // The storage key stays on the server: the submission names the file by id.
  return { uploaded: added.map(({ path: _path, ...entry }) => entry) };
}

/** An Attachment value as a list (an array or its JSON text), or null when it is not one. */
function listOf(v: unknown): unknown[] | null {
  if (Array.isArray(v)) return v;
  if (typeof v !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** A body whose Attachment entries name pending uploads, and the ids of those uploads. */
export interface Claimed {
  body: Record<string, unknown>;
  ids: string[];
}

/**
 * Puts `owner`'s pending uploads in place of the Attachment entries of `body` that name them by id.
 * With `onlyUploads` (shared forms) every entry must be one (400 otherwise); without it other
 * entries are kept as they are (links, files written through the API).
 */
export async function claimUploads(ctx: AppContext, dc: DataContext, t: TableModel, body: Record<string, unknown>, owner: string, onlyUploads: boolean): Promise<Claimed> {
  const repo = filesRepo(ctx.meta);
  const out = { ...body };
  const ids: string[] = [];
  for (const [name, value] of Object.entries(body)) {
    const c = findColumn(t, name);
    if (!c || c.uidt !== 'Attachment' || value === null || value === undefined) continue;
    const list = listOf(value);
    if (!list) {
      if (onlyUploads) throw badRequest(`Column '${c._cn}' takes the files uploaded to this form`);
      continue;
    }
    const entries: unknown[] = [];
    for (const e of list as FileEntry[]) {
      const id = e && typeof e === 'object' && typeof e.id === 'string' ? e.id : undefined;
      const f = id ? await repo.get(id) : undefined;
      const mine = !!f && f.state === 'pending' && f.pk === OWNER_PREFIX + owner && f.project_id === dc.pdb.projectId && f.db_alias === dc.pdb.dbAlias && f.tn === t.tn && f.cn === c.cn;
      if (mine && !ids.includes(f.id)) {
        await repo.touchPending(f.id);
        ids.push(f.id);
        entries.push({ id: f.id, title: f.name, mimetype: f.mimetype, size: f.size, path: f.storage_key });
      } else if (mine) {
        continue;
      } else if (onlyUploads) {
        const what = e && typeof e === 'object' ? (e.title ?? e.id ?? '?') : String(e);
        throw badRequest(`Column '${c._cn}': '${what}' is not a file uploaded to this form (it may have expired: upload it again)`);
      } else entries.push(e);
    }
    out[name] = entries;
  }
  return { body: out, ids };
}

/** Attaches claimed uploads to the row just created from them. */
export async function attachClaimed(ctx: AppContext, t: TableModel, row: Record<string, unknown>, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await filesRepo(ctx.meta).attachTo(ids, rowKeyOf(t, rowId(t, row)));
}

/** Whether a body names any Attachment entry by id (only then is there an upload to claim). */
function namesFiles(t: TableModel, body: unknown): body is Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  for (const [name, v] of Object.entries(body)) {
    if (v === null || v === undefined) continue;
    if (findColumn(t, name)?.uidt === 'Attachment' && entriesOf(v).some((e) => typeof e.id === 'string')) return true;
  }
  return false;
}

/**
 * data.create, plus the caller's own pending form uploads named in the body attached to the new row
 * (the dashboard's form view uploads first, then creates the row through REST), and copies of the
 * files of other cells it names (src/attachments/copied-files.ts).
 */
export function createWithUploads(ctx: AppContext, dc: DataContext, t: TableModel, body: unknown): Promise<Record<string, unknown>> {
  if (!t.columns.some((c) => c.uidt === 'Attachment') || !namesFiles(t, body)) return data.create(dc, t, body);
  return (async () => {
    const claimed = await claimUploads(ctx, dc, t, body, uploadOwner.of(dc), false);
    // Files of other cells named in the body (a row's values pasted as a new row) are copied for it.
    const copied = await copiesForCreate(ctx, dc, t, claimed.body);
    let row: Record<string, unknown>;
    try {
      row = await data.create(dc, t, copied.row);
    } catch (e) {
      await copied.copies.undo();
      throw e;
    }
    await attachClaimed(ctx, t, row, claimed.ids);
    await copied.attach(row);
    return row;
  })();
}
