/**
 * One Tablo per data directory when the metadata is the embedded SQLite file: a second process started
 * on the same folder is refused with a clear message instead of running beside the first (their caches,
 * realtime events and in-memory rate limits would not meet; several instances need NC_DB=postgres://).
 *
 * note: the lock is an exclusive SQLite lock on `tablo.db-lock` (named so that no project may open it,
 * see RESERVED names in schema/sqlite-path.ts), held by an open connection: the operating system
 * releases it when the process ends, however it ends, so a crash never leaves a stale lock behind.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { META_DB_FILE } from '../schema/sqlite-path';

/** The lock file beside the metadata database. */
export const LOCK_FILE = `${META_DB_FILE}-lock`;

/** Thrown when another process holds the data directory. */
export class DataDirInUseError extends Error {}

/** Takes the data directory's lock; answers how to release it. Throws DataDirInUseError when taken. */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  const db = new Database(path, { create: true });
  try {
    db.exec('PRAGMA busy_timeout = 0');
    // Exclusive locking mode: once written, the file stays locked until this connection closes.
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, started_at TEXT NOT NULL)');
    db.transaction(() => {
      db.exec('DELETE FROM holder');
      db.query('INSERT INTO holder (pid, started_at) VALUES (?, ?)').run(process.pid, new Date().toISOString());
    })();
  } catch (e) {
    db.close();
    if (/locked|busy/i.test((e as Error).message)) {
      throw new DataDirInUseError(
        `another Tablo is already running on the data directory ${dataDir}: stop it first, or give this one another NC_DATA_DIR / --data-dir (several instances share metadata only through NC_DB=postgres://...)`,
      );
    }
    throw e;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    db.close();
  };
}
