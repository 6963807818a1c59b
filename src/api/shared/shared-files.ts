/**
 * Files of the Attachment cells a shared link shows. A stranger has no session for the dashboard's
 * file routes, so each uploaded file of a row the link answers gets `signedUrl`: a short-lived link
 * (src/attachments/file-links.ts) that a gallery cover or a grid thumbnail loads and a click opens.
 * Only a file that nc_files holds as attached to that very row and column is signed: an entry naming
 * another row's file (a cell written by hand through the API) stays a name. Rows of a table without
 * a primary key cannot be matched to their files and keep names only.
 */
import type { AppContext } from '../../context';
import type { ColumnModel } from '../../schema/model';
import type { Params } from '../../data/list-query';
import { entriesOf, rowKeyOf } from '../../attachments/cell';
import { signedFileLink } from '../../attachments/file-links';
import { rowId } from '../../data/row-id';
import { filesRepo } from '../../meta/files-repo';
import type { SharedLink } from './link-context';

/** The shown Attachment columns of a link. */
const fileColumns = (s: SharedLink): ColumnModel[] => s.columns.filter((c) => c.uidt === 'Attachment' && !c.virtual);

/** The key columns a read adds to match rows to their files (stripped again by withFileLinks); none when not needed. */
export function keysForFiles(s: SharedLink, read: Params): string[] {
  if (!fileColumns(s).length || !s.table.pks.length) return [];
  const fields = new Set(String(read.fields ?? '').split(','));
  return s.table.pks.map((pk) => s.table.columns.find((c) => c.cn === pk)!._cn).filter((n) => !fields.has(n));
}

/** `read` asking also for `keys`. */
export const withKeys = (read: Params, keys: string[]): Params => (keys.length ? { ...read, fields: [read.fields, ...keys].filter(Boolean).join(',') } : read);

/**
 * The rows with a `signedUrl` on each entry of an uploaded file that row and column hold, and the
 * added key columns (`keys`) taken out again.
 */
export async function withFileLinks(ctx: AppContext, s: SharedLink, rows: Record<string, unknown>[], keys: string[], request?: Request): Promise<Record<string, unknown>[]> {
  const cols = fileColumns(s);
  if (!cols.length || !s.table.pks.length) return rows;
  const cells = rows.map((row) => {
    let key: string | null = null;
    try {
      key = rowKeyOf(s.table, rowId(s.table, row));
    } catch {}
    for (const k of keys) delete row[k];
    return { row, key };
  });
  const ids = new Set<string>();
  for (const { row } of cells) for (const c of cols) for (const e of entriesOf(row[c._cn])) if (typeof e.id === 'string') ids.add(e.id);
  if (!ids.size) return rows;
  const files = new Map((await filesRepo(ctx.meta).attachedAmong([...ids])).map((f) => [f.id, f]));
  const { projectId, dbAlias } = s.dc.pdb;
  for (const { row, key } of cells) {
    if (key === null) continue;
    for (const c of cols) {
      const entries = entriesOf(row[c._cn]);
      if (!entries.length) continue;
      row[c._cn] = entries.map((e) => {
        const f = typeof e.id === 'string' ? files.get(e.id) : undefined;
        const held = f && f.project_id === projectId && f.db_alias === dbAlias && f.tn === s.table.tn && f.cn === c.cn && f.pk === key;
        return held ? { ...e, signedUrl: signedFileLink(ctx, f, request).url } : e;
      });
    }
  }
  return rows;
}
