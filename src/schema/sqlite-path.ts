/**
 * Where a SQLite project file may live: inside the data directory's projects area (the data
 * directory minus Tablo's own files) or a folder allowed with NC_SQLITE_ALLOW_DIRS; never the
 * metadata database or its -wal/-shm/-journal companions, the keys folder, or the embedded
 * databases of projects (xcdb/, which only their own project opens). Checked on the resolved real
 * path, so a symbolic link (of the file or of any folder above it) cannot lead outside, at create,
 * edit and every start. A file that exists must be a SQLite database.
 */
import { closeSync, existsSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { badRequest } from '../lib/errors';

/** The metadata database in the data directory (boot.ts opens it there). */
export const META_DB_FILE = 'tablo.db';
/** Folders of the data directory that belong to Tablo: secrets and the embedded project databases. */
export const RESERVED_DIRS = ['keys', 'xcdb'];

// Control characters and characters no folder name of ours may hold.
const BAD_PATH_CHARS = /[\u0000-\u001f<>"|?*]/;
const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** The real path of `path`: symbolic links resolved for the part that exists, the rest appended. */
export function realPath(path: string): string {
  const full = resolve(path);
  let existing = full;
  const rest: string[] = [];
  while (!existsSync(existing)) {
    const parent = dirname(existing);
    if (parent === existing) break;
    rest.unshift(basename(existing));
    existing = parent;
  }
  let real = existing;
  try {
    real = realpathSync.native(existing);
  } catch {
    // unreadable: judged by its plain path
  }
  return rest.length ? join(real, ...rest) : real;
}

/** Whether `full` lies strictly inside `dir` (both real paths). */
const inside = (dir: string, full: string) => {
  const rel = relative(dir, full);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('..');
};

/** Whether `full` is one of Tablo's own files in the data directory `realData`. */
function isReserved(full: string, realData: string): boolean {
  const rel = relative(realData, full);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return sameFileAsMeta(full, realData);
  const first = rel.split(sep)[0]!.toLowerCase();
  return RESERVED_DIRS.includes(first) || first.startsWith(META_DB_FILE) || sameFileAsMeta(full, realData);
}

/** A hard link to the metadata database (or a companion) is the metadata database. */
function sameFileAsMeta(full: string, realData: string): boolean {
  try {
    const f = statSync(full);
    for (const suffix of ['', '-wal', '-shm', '-journal']) {
      const m = join(realData, META_DB_FILE + suffix);
      if (!existsSync(m)) continue;
      const s = statSync(m);
      if (s.dev === f.dev && s.ino === f.ino) return true;
    }
  } catch {
    // the file does not exist yet
  }
  return false;
}

/** Refuses (400) a file that exists but is not a SQLite database (an empty file is a new one). */
export function assertSqliteFile(full: string): void {
  if (!existsSync(full)) return;
  const st = statSync(full);
  if (!st.isFile()) throw badRequest(`'${basename(full)}' is not a SQLite database file`);
  if (st.size === 0) return;
  const head = Buffer.alloc(16);
  const fd = openSync(full, 'r');
  try {
    readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1') !== SQLITE_MAGIC) throw badRequest(`'${basename(full)}' is not a SQLite database file`);
}

/**
 * Resolves a SQLite file path (relative paths from the data directory) to its real path inside
 * the allowed folders, or throws 400 `{msg}` saying why not.
 */
export function confineSqlitePath(filename: string, dataDir: string, allowDirs: string[]): string {
  if (!filename.trim() || BAD_PATH_CHARS.test(filename) || filename.startsWith('file:')) throw badRequest('Invalid character in folder path.');
  const realData = realPath(dataDir);
  const full = realPath(isAbsolute(filename) ? filename : resolve(dataDir, filename));
  if (![realData, ...allowDirs.map(realPath)].some((d) => inside(d, full))) {
    throw badRequest(`The SQLite file must be inside the data directory (${dataDir}) or a folder allowed with NC_SQLITE_ALLOW_DIRS.`);
  }
  if (isReserved(full, realData)) {
    throw badRequest("The SQLite file may not be one of Tablo's own files (the metadata database, its keys or another project's embedded database).");
  }
  assertSqliteFile(full);
  return full;
}

/** Checks, before it is opened, that an embedded (xcdb) database is the project's own file. */
export function assertOwnEmbeddedFile(filename: string, dataDir: string, projectId: string): void {
  const expected = realPath(join(dataDir, 'xcdb', `${projectId}.db`));
  if (realPath(filename) !== expected) throw badRequest(`The embedded database of project '${projectId}' is not its own file`);
}

/**
 * The form of a SQLite project file kept in the metadata: a file inside the data directory is kept
 * relative to it (as embedded databases are), so the project still opens after the data directory
 * moves (restored elsewhere, mounted at /data in a container, shared by instances at another path).
 * Files elsewhere (NC_SQLITE_ALLOW_DIRS) stay absolute. `full` is a real path from confineSqlitePath.
 */
export function storedSqlitePath(full: string, dataDir: string): string {
  const realData = realPath(dataDir);
  return isAbsolute(full) && inside(realData, full) ? relative(realData, full) : full;
}

/** The file a stored SQLite path names: relative paths are read from the data directory. */
export function storedSqliteFile(stored: string, dataDir: string): string {
  return isAbsolute(stored) ? stored : join(dataDir, stored);
}
