/**
 * Opens the metadata store a location names: `postgres://` / `postgresql://` URLs open the
 * PostgreSQL store, anything else is a SQLite file path (`tablo meta copy` takes both).
 */
import { openPgMetaStore } from './pg-store';
import { openSqliteMetaStore } from './sqlite-store';
import type { MetaStore } from './store';

/** True for a PostgreSQL URL. */
export const isPgUrl = (location: string) => /^postgres(ql)?:\/\//i.test(location);

/** The store at `location`; a URL of another kind is refused with a message naming NC_DB. */
export function openMetaStore(location: string): MetaStore {
  if (isPgUrl(location)) {
    try {
      new URL(location);
    } catch {
      throw new Error(`Invalid setting NC_DB: '${location.replace(/:[^:@/]*@/, ':***@')}' is not a valid URL`);
    }
    return openPgMetaStore(location);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) {
    throw new Error('Invalid setting NC_DB: only postgres://user:password@host:5432/database URLs are supported (or unset it for the embedded SQLite store)');
  }
  return openSqliteMetaStore(location);
}
