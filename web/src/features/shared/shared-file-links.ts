/**
 * Fresh links to the files of a shared link's rows. Each row the link answers carries a short-lived
 * `signedUrl` (a few minutes) per uploaded file; a cover shown after that (loaded lazily when scrolled
 * to, or drawn again) asks for its file here, which reads again the page of rows that brought it: one
 * read for all the covers of that page failing together.
 */
import type { Row, RowQuery } from '../views/row-source';

/** The links of the uploaded files in the rows' `columns`, by file id. */
function signedLinks(rows: Row[], columns: string[]): Map<string, string> {
  const links = new Map<string, string>();
  for (const row of rows)
    for (const column of columns) {
      let value = row[column];
      if (typeof value === 'string') {
        try {
          value = JSON.parse(value);
        } catch {
          continue;
        }
      }
      if (!Array.isArray(value)) continue;
      for (const e of value as { id?: unknown; signedUrl?: unknown }[]) if (e && typeof e.id === 'string' && typeof e.signedUrl === 'string') links.set(e.id, e.signedUrl);
    }
  return links;
}

/** Remembers which read brought which file (`seen`) and answers a fresh link to one by reading it again (`link`). */
export function sharedFileLinks(columns: string[], read: (q: RowQuery) => Promise<Row[]>) {
  const readOf = new Map<string, RowQuery>();
  const rereads = new Map<string, Promise<Map<string, string>>>();
  const seen = (q: RowQuery, rows: Row[]) => {
    if (columns.length) for (const id of signedLinks(rows, columns).keys()) readOf.set(id, q);
  };
  return {
    seen,
    async link(fileId: string): Promise<string> {
      const q = readOf.get(fileId);
      if (!q) throw new Error(`file ${fileId} was not read through this link`); // i18n-ignore (internal: a cover that cannot be read again stays empty, this is never shown)
      const key = JSON.stringify(q);
      let again = rereads.get(key);
      if (!again) {
        again = read(q)
          .then((rows) => (seen(q, rows), signedLinks(rows, columns)))
          .finally(() => rereads.delete(key));
        rereads.set(key, again);
      }
      const url = (await again).get(fileId);
      if (!url) throw new Error(`file ${fileId} is no longer in its rows`); // i18n-ignore (internal, never shown)
      return url;
    },
  };
}
