/**
 * Everything that touches the disk before the app is built: the data directory, the metadata
 * store and its migrations, and the secrets. main.ts and the tests both start here.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config/config';
import { openSqliteMetaStore } from '../meta/sqlite-store';
import { migrateMeta } from '../meta/migrate';
import type { MetaStore } from '../meta/store';
import { loadSecrets, type Secrets } from './secrets';

export interface Booted {
  meta: MetaStore;
  secrets: Secrets;
  dataDir: string;
}

export async function boot(config: Config): Promise<Booted> {
  const dataDir = resolve(config.dataDir);
  mkdirSync(dataDir, { recursive: true });
  if (config.metaDb) {
    throw new Error('Invalid setting NC_DB: a PostgreSQL metadata store is not available in this version; unset NC_DB to use the embedded SQLite store.');
  }
  const meta = openSqliteMetaStore(join(dataDir, 'tablo.db'));
  try {
    await migrateMeta(meta);
  } catch (e) {
    await meta.close();
    throw e;
  }
  const secrets = loadSecrets(dataDir, config.jwtSecret);
  return { meta, secrets, dataDir };
}
