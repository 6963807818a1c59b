/**
 * Applies the numbered metadata migrations once each, in order, each inside a transaction, and
 * records them. A metadata store written by a newer Tablo is refused with a clear message.
 */
import type { MetaStore } from './store';
import { META_MIGRATIONS, type MetaMigration } from '../../migrations/index';

export class MetaSchemaTooNewError extends Error {}

/** Returns the versions applied by this call. */
export async function migrateMeta(store: MetaStore, migrations: MetaMigration[] = META_MIGRATIONS): Promise<number[]> {
  await store.exec(
    'CREATE TABLE IF NOT EXISTS nc_meta_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const rows = await store.all<{ version: number }>('SELECT version FROM nc_meta_migrations ORDER BY version');
  const applied = new Set(rows.map((r) => r.version));
  const known = Math.max(0, ...migrations.map((m) => m.version));
  const newest = Math.max(0, ...applied);
  if (newest > known) {
    throw new MetaSchemaTooNewError(
      `The metadata store was written by a newer Tablo (metadata schema version ${newest}; this binary knows up to ${known}). Upgrade Tablo to open it.`,
    );
  }
  const done: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(m.version)) continue;
    await store.transaction(async (tx) => {
      await tx.exec(m.sql);
      await tx.run('INSERT INTO nc_meta_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        m.version,
        m.name,
        new Date().toISOString(),
      ]);
    });
    done.push(m.version);
  }
  return done;
}
