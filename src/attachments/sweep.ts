/**
 * The sweep of stored attachment files: removes from storage (then from nc_files) every file no
 * committed row holds any more: its row was deleted, its entry was removed from the cell, its
 * column, table or project is gone; and uploads whose cell write never committed, after a grace
 * period. It only ever reads committed rows, so a file is never removed before the write that
 * dropped it has committed. Runs periodically (NC_ATTACHMENT_SWEEP_MS) over all files, and shortly
 * after committed updates and deletes over the files of the tables they touched.
 */
import type { AppContext } from '../context';
import type { DataContext } from '../data/records-service';
import { filesRepo, type StoredFile } from '../meta/files-repo';
import { storageNamed } from '../plugins/state';
import { LIMITS } from '../config/limits';
import { isAppError } from '../lib/errors';
import { entriesOf } from './cell';
import * as data from '../data/records-service';

export interface SweepResult {
  checked: number;
  removed: number;
}

/** Whether a stored file is still held by its row (false: the project, table, column or row is gone, or the cell dropped it). */
async function held(ctx: AppContext, f: StoredFile): Promise<boolean> {
  let pdb;
  try {
    pdb = await ctx.projects.get(f.project_id, f.db_alias);
  } catch (e) {
    if (isAppError(e) && e.status === 404) return false;
    throw e;
  }
  const t = pdb.model.tables.find((x) => x.tn === f.tn);
  const c = t?.columns.find((x) => x.cn === f.cn);
  if (!t || !c) return false;
  const dc: DataContext = { pdb, actor: { kind: 'master', roles: [] }, maxLimit: ctx.config.queryLimitMax, countTimeoutMs: ctx.config.countTimeoutMs };
  try {
    const row = await data.read(dc, t, f.pk, { fields: c._cn });
    return entriesOf(row[c._cn]).some((e) => e.id === f.id);
  } catch (e) {
    if (isAppError(e) && e.status === 404) return false;
    throw e;
  }
}

async function removeFile(ctx: AppContext, f: StoredFile): Promise<boolean> {
  const storage = storageNamed(ctx, f.storage);
  if (!storage) {
    ctx.log.error(`attachment sweep: the ${f.storage} storage of ${f.storage_key} is not configured; the file is kept`);
    return false;
  }
  try {
    await storage.delete(f.storage_key);
  } catch (e) {
    ctx.log.error(`attachment sweep: could not remove ${f.storage_key}; trying again at the next sweep`, e);
    return false;
  }
  await filesRepo(ctx.meta).remove(f.id);
  return true;
}

/** One sweep: `all` checks every attached file, else only those of tables written since the last sweep. */
export async function sweepAttachments(ctx: AppContext, opts: { all?: boolean; now?: number } = {}): Promise<SweepResult> {
  const repo = filesRepo(ctx.meta);
  const now = opts.now ?? Date.now();
  let checked = 0;
  let removed = 0;
  for (const f of await repo.stalePending(new Date(now - LIMITS.attachmentPendingGraceMs).toISOString())) {
    checked++;
    if (await removeFile(ctx, f)) removed++;
  }
  for (const f of await repo.attached(!opts.all)) {
    checked++;
    let keep: boolean;
    try {
      keep = await held(ctx, f);
    } catch (e) {
      // The database could not be read (down, time-out): keep the file and look again later.
      ctx.log.error(`attachment sweep: could not read the row of ${f.storage_key}`, e);
      continue;
    }
    if (keep) await repo.checked(f.id);
    else if (await removeFile(ctx, f)) removed++;
  }
  return { checked, removed };
}
