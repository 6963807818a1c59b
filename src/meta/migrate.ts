/**
 * Applies the numbered metadata migrations once each, in order, each inside a transaction, and
 * records them. A metadata store written by a newer Tablo is refused with a clear message. The same
 * files run on SQLite and PostgreSQL (a migration may carry a PostgreSQL text of its own, `pg`).
 * Besides them, the store's own working tables (leases, rate-limit windows; transient, never
 * copied) are created if missing.
 */
import type { MetaStore } from './store';
import { META_MIGRATIONS, type MetaMigration } from '../../migrations/index';

export class MetaSchemaTooNewError extends Error {}

/** Working tables of the store itself (see leases.ts and http/rate-limit.ts); times are ISO text. */
export const STORE_TABLES = `
CREATE TABLE IF NOT EXISTS nc_leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, until TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS nc_rate_limits (key TEXT PRIMARY KEY, hits INTEGER NOT NULL, reset_at TEXT NOT NULL);
`;
/** Tables that are not metadata to copy (transient working state, the migrations list itself). */
export const TRANSIENT_TABLES = ['nc_leases', 'nc_rate_limits'];

/** Returns the versions applied by this call. */
export async function migrateMeta(store: MetaStore, migrations: MetaMigration[] = META_MIGRATIONS): Promise<number[]> {
  // In a transaction: instances starting together on one PostgreSQL store take turns.
  await store.transaction((tx) =>
    tx.exec('CREATE TABLE IF NOT EXISTS nc_meta_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);' + STORE_TABLES),
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
    const ran = await store.transaction(async (tx) => {
      // Another instance may have applied it meanwhile.
      if (await tx.get('SELECT 1 AS x FROM nc_meta_migrations WHERE version = ?', [m.version])) return false;
      await tx.exec(store.kind === 'pg' && m.pg ? m.pg : m.sql);
      await tx.run('INSERT INTO nc_meta_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        m.version,
        m.name,
        new Date().toISOString(),
      ]);
      return true;
    });
    if (ran) done.push(m.version);
  }
  return done;
}
