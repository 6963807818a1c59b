/** The rows of a shared link as a RowSource: read-only, paged, searched and filtered by the server within the view. */
import { isLinkLost, sharedApi, type SharedError, type SharedViewMeta } from '../../api/shared';
import type { Row, RowQuery, RowSource } from '../views/row-source';
import { sharedFileLinks } from './shared-file-links';

/**
 * The row source of a shared link (read-only; its password, if any, sent with each read).
 * `onLost` hears of a read refused because the link went away or its password changed while the
 * page was open, so the page can ask for the password again or say the link is gone. A file's link
 * that expired while the page was open is had again by reading its rows again (`fileLink`).
 */
export function sharedRowSource(uuid: string, password: string | null, meta: SharedViewMeta, onLost?: (e: SharedError) => void): RowSource {
  const pks = meta.pks?.length ? meta.pks : meta.columns.filter((c) => c.pk).map((c) => c._cn);
  const rows = async (q: Parameters<typeof sharedApi.rows>[2]) => {
    try {
      return await sharedApi.rows(uuid, password, q);
    } catch (e) {
      if (isLinkLost(e)) onLost?.(e as SharedError);
      throw e;
    }
  };
  const page = (q: RowQuery) => rows({ limit: q.limit, offset: q.offset, where: q.where || undefined, sort: q.sort || undefined, search: q.search || undefined });
  const files = sharedFileLinks(
    meta.columns.filter((c) => c.uidt === 'Attachment').map((c) => c._cn),
    async (q) => (await page(q)).list,
  );
  return {
    pageTotals: true,
    idOf: (row: Row) => (pks.length ? pks.map((pk) => String(row[pk])).join('___') : JSON.stringify(row)),
    async list(q) {
      const answer = await page(q);
      files.seen(q, answer.list);
      return { list: answer.list, total: answer.pageInfo?.totalRows };
    },
    fileLink: (_row, _column, fileId) => files.link(fileId),
    async count(where, search) {
      try {
        const answer = await rows({ limit: 1, offset: 0, where: where || undefined, search: search || undefined });
        return answer.pageInfo?.totalRows ?? null;
      } catch {
        return null;
      }
    },
  };
}

/** Types that make a good card title. */
const TITLE_TYPES = new Set(['SingleLineText', 'LongText', 'Email', 'URL', 'PhoneNumber']);

/**
 * The column a shared view's cards are titled by: the server's display column, else its first
 * text column that is not a key, else its first column that is not a key.
 */
export function sharedDisplayColumn(meta: SharedViewMeta): string | null {
  if (meta.displayColumn) return meta.displayColumn;
  const cols = meta.columns.filter((c) => !c.pk);
  return cols.find((c) => TITLE_TYPES.has(c.uidt))?._cn ?? cols[0]?._cn ?? meta.columns[0]?._cn ?? null;
}
