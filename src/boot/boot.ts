/**
 * Everything that touches the disk before the app is built: the data directory, the metadata
 * store and its migrations, and the secrets. main.ts and the tests both start here.
 */
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config/config';
import { openSqliteMetaStore } from '../meta/sqlite-store';
import { isPgUrl, openMetaStore } from '../meta/open-store';
import { migrateMeta, MetaSchemaTooNewError } from '../meta/migrate';
import type { MetaStore } from '../meta/store';
import { isAppError } from '../lib/errors';
import { open as openSealed } from '../lib/secret-box';
import type { Logger } from '../lib/log';
import { cronsRepo } from '../meta/crons-repo';
import { KEY_FILES, loadSecrets, type Secrets } from './secrets';
import { META_DB_FILE } from '../schema/sqlite-path';
import { LOCK_FILE, lockDataDir } from './data-dir-lock';

export interface Booted {
  meta: MetaStore;
  secrets: Secrets;
  dataDir: string;
}

/** `log` hears what start-up waits for (a PostgreSQL metadata store that does not answer yet). */
export async function boot(config: Config, log?: Pick<Logger, 'warn'>): Promise<Booted> {
  const dataDir = resolve(config.dataDir);
  prepareDataDir(dataDir, !config.metaDb);
  if (config.metaDb && !isPgUrl(config.metaDb)) {
    throw new Error('Invalid setting NC_DB: only postgres://user:password@host:5432/database URLs are supported (unset it for the embedded SQLite store)');
  }
  // The embedded store serves one process: a second one on the same folder is refused before it opens it.
  const unlock = config.metaDb ? () => {} : lockDataDir(dataDir);
  let meta: MetaStore;
  const metaFile = join(dataDir, META_DB_FILE);
  /** SQLite's words ("file is not a database") name no file. */
  const sqliteProblem = (e: unknown) => new Error(`cannot open the metadata database ${metaFile} (in ${DATA_DIR_SETTING}): ${(e as Error).message}`);
  try {
    meta = config.metaDb ? openMetaStore(config.metaDb) : openSqliteMetaStore(metaFile);
  } catch (e) {
    unlock();
    throw config.metaDb ? e : sqliteProblem(e);
  }
  const closeStore = meta.close.bind(meta);
  meta.close = async () => {
    try {
      await closeStore();
    } finally {
      unlock();
    }
  };
  try {
    const where = config.metaDb ? `the metadata database ${withoutPassword(config.metaDb)} (NC_DB / --meta-db)` : '';
    await migrateWhenReachable(meta, config.metaDb ? BOOT_WAIT_MS : 0, (e) => log?.warn(`${where} does not answer yet (${causeOf(e)}): waiting up to ${BOOT_WAIT_MS / 1000} s`));
  } catch (e) {
    await meta.close().catch(() => {});
    // The driver's words ("password authentication failed", "database ... does not exist") name no setting.
    if (config.metaDb && !(e instanceof MetaSchemaTooNewError)) {
      const why = isAppError(e) && e.status === 503 ? `no answer within ${BOOT_WAIT_MS / 1000} s (${causeOf(e)})` : (e as Error).message;
      throw new Error(`cannot open the metadata database ${withoutPassword(config.metaDb)} (NC_DB / --meta-db): ${why}`);
    }
    throw !config.metaDb && !(e instanceof MetaSchemaTooNewError) && !isAppError(e) ? sqliteProblem(e) : e;
  }
  let secrets: Secrets;
  try {
    // One process serves the embedded store: a cron run it shows as running was left by a Tablo that ended abruptly.
    if (!config.metaDb) await cronsRepo(meta).endLeftRuns();
    secrets = loadSecrets(dataDir, config.jwtSecret);
    await checkConnectionKey(meta, secrets, dataDir);
  } catch (e) {
    await meta.close().catch(() => {});
    throw e;
  }
  return { meta, secrets, dataDir };
}

/**
 * The data directory's key must open what the metadata keeps sealed (project connections, plugin and
 * hook secrets): with another key (an instance on a shared NC_DB given a data directory of its own,
 * keys/ lost or replaced) every project would answer an error. One sealed connection is tried.
 */
async function checkConnectionKey(meta: MetaStore, secrets: Secrets, dataDir: string): Promise<void> {
  const row = await meta.get<{ connection_enc: string }>('SELECT connection_enc FROM nc_project_dbs ORDER BY created_at LIMIT 1');
  if (!row) return;
  try {
    openSealed(secrets.connectionKey, row.connection_enc);
  } catch {
    throw new Error(
      `the key ${join(dataDir, 'keys', KEY_FILES[1]!)} does not open the project connections kept in the metadata database: start Tablo on the data directory that metadata was made with (${DATA_DIR_SETTING}; instances sharing NC_DB share one data directory, and it moves with the metadata)`,
    );
  }
}

/** Why a data directory cannot be used, in words (Node's codes name no setting). */
const FS_REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a file of that name is in the way',
  ENOENT: 'a part of the path does not exist',
  ENOSPC: 'no space left on the device',
};
const reason = (e: unknown) => FS_REASONS[(e as NodeJS.ErrnoException).code ?? ''] ?? (e as Error).message;
const DATA_DIR_SETTING = 'NC_DATA_DIR / --data-dir';

/**
 * Creates the data directory if needed and checks that this user may write it (and the metadata
 * database in it, when the metadata is kept there): a clear one-line refusal naming the setting,
 * instead of SQLite's "attempt to write a readonly database" at the first write.
 */
function prepareDataDir(dataDir: string, metaInDataDir: boolean): void {
  if (existsSync(dataDir) && !statSync(dataDir).isDirectory()) {
    throw new Error(`the data directory ${dataDir} (${DATA_DIR_SETTING}) is a file, not a folder`);
  }
  try {
    // Made readable by this user only: it holds the metadata (password hashes, sealed connections) and the embedded databases.
    if (!existsSync(dataDir)) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new Error(`cannot create the data directory ${dataDir} (${DATA_DIR_SETTING}): ${reason(e)}`);
  }
  const uid = process.getuid?.();
  const who = uid === undefined ? 'this user' : `this user (uid ${uid})`;
  try {
    accessSync(dataDir, constants.W_OK | constants.X_OK);
  } catch (e) {
    throw new Error(`the data directory ${dataDir} (${DATA_DIR_SETTING}) is not writable by ${who}: ${reason(e)}`);
  }
  const metaFile = join(dataDir, META_DB_FILE);
  if (metaInDataDir && existsSync(metaFile)) {
    try {
      accessSync(metaFile, constants.R_OK | constants.W_OK);
    } catch (e) {
      throw new Error(`the metadata database ${metaFile} is not writable by ${who}: ${reason(e)}`);
    }
  }
  // The files beside it that Tablo writes too (left by a run as another user, say): named, instead of
  // SQLite's "attempt to write a readonly database" or "unable to open database file".
  const written = metaInDataDir ? [`${META_DB_FILE}-wal`, `${META_DB_FILE}-shm`, LOCK_FILE, `${LOCK_FILE}-journal`] : [];
  const keys = join(dataDir, 'keys');
  for (const [path, mode] of [
    ...written.map((f) => [join(dataDir, f), constants.R_OK | constants.W_OK] as const),
    [keys, constants.R_OK | constants.W_OK | constants.X_OK] as const,
    ...KEY_FILES.map((f) => [join(keys, f), constants.R_OK] as const),
  ]) {
    if (!existsSync(path)) continue;
    try {
      accessSync(path, mode);
    } catch (e) {
      throw new Error(`${path} in the data directory (${DATA_DIR_SETTING}) is not ${mode & constants.W_OK ? 'writable' : 'readable'} by ${who}: ${reason(e)} (was Tablo run as another user?)`);
    }
  }
}

/** A database URL fit for a log line: its password masked. */
const withoutPassword = (url: string) => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

/** How long a starting instance waits for a PostgreSQL metadata store that is not up yet. */
const BOOT_WAIT_MS = 30_000;

/** What the driver said of an unreachable store ("ECONNREFUSED", "getaddrinfo ENOTFOUND db"), in one line. */
const causeOf = (e: unknown) => {
  const cause = (e as { cause?: { code?: unknown; message?: unknown } }).cause;
  return String(cause?.message || cause?.code || (e as Error).message).split('\n')[0]!;
};

/** migrateMeta, retried once a second while the store answers "unreachable" (503), up to `waitMs`; `waiting` hears the first miss. */
async function migrateWhenReachable(meta: MetaStore, waitMs: number, waiting: (e: unknown) => void): Promise<void> {
  const until = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      await migrateMeta(meta);
      return;
    } catch (e) {
      if (!(isAppError(e) && e.status === 503) || Date.now() >= until) throw e;
      if (attempt === 0) waiting(e);
      await Bun.sleep(1000);
    }
  }
}
