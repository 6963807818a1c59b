/**
 * Everything that touches the disk before the app is built: the data directory, the metadata
 * store and its migrations, and the secrets. main.ts and the tests both start here.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config/config';
import { openSqliteMetaStore } from '../meta/sqlite-store';
import { isPgUrl, openMetaStore } from '../meta/open-store';
import { migrateMeta } from '../meta/migrate';
import type { MetaStore } from '../meta/store';
import { isAppError } from '../lib/errors';
import { loadSecrets, type Secrets } from './secrets';

export interface Booted {
  meta: MetaStore;
  secrets: Secrets;
  dataDir: string;
}

export async function boot(config: Config): Promise<Booted> {
  const dataDir = resolve(config.dataDir);
  mkdirSync(dataDir, { recursive: true });
  if (config.metaDb && !isPgUrl(config.metaDb)) {
    throw new Error('Invalid setting NC_DB: only postgres://user:password@host:5432/database URLs are supported (unset it for the embedded SQLite store)');
  }
  const meta = config.metaDb ? openMetaStore(config.metaDb) : openSqliteMetaStore(join(dataDir, 'tablo.db'));
  try {
    await migrateWhenReachable(meta, config.metaDb ? BOOT_WAIT_MS : 0);
  } catch (e) {
    await meta.close();
    throw e;
  }
  const secrets = loadSecrets(dataDir, config.jwtSecret);
  return { meta, secrets, dataDir };
}

/** How long a starting instance waits for a PostgreSQL metadata store that is not up yet. */
const BOOT_WAIT_MS = 30_000;

/** migrateMeta, retried once a second while the store answers "unreachable" (503), up to `waitMs`. */
async function migrateWhenReachable(meta: MetaStore, waitMs: number): Promise<void> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      await migrateMeta(meta);
      return;
    } catch (e) {
      if (!(isAppError(e) && e.status === 503) || Date.now() >= until) throw e;
      await Bun.sleep(1000);
    }
  }
}
