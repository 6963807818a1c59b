/**
 * The Chinook sample database for integration tests, loaded once and reused.
 *
 * Reuse semantics: `loadChinook(engine, name)` first looks at the database called `name`; when
 * every Chinook table is there with its full row count (Track 3503, PlaylistTrack 8715, ...), it
 * is reused as it is and nothing is reloaded. Otherwise the database is dropped, created and
 * loaded from /work/shared/datasets/chinook. Row counts cannot see edited values, so a test file
 * that changes Chinook rows must either put them back or pass `{ fresh: true }` (always reload).
 * Database names are per test file (`tablo_t_<file>_...`), so reuse never crosses files.
 */
import { Database } from 'bun:sqlite';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ConnectionConfig } from '../../src/sql/dialect';
import { openDatabase } from '../../src/sql/open-database';
import { connectionFor, loadChinook as reloadChinook, type TestEngine } from './engines';

const CHINOOK_SQLITE = join(import.meta.dir, '../../../shared/datasets/chinook/Chinook_Sqlite.sqlite');

/** Row counts of the full Chinook data set, by the PascalCase name (MySQL, SQLite). */
export const CHINOOK_COUNTS: Record<string, number> = {
  Album: 347, Artist: 275, Customer: 59, Employee: 8, Genre: 25, Invoice: 412,
  InvoiceLine: 2240, MediaType: 5, Playlist: 18, PlaylistTrack: 8715, Track: 3503,
};

/** SQL name of a Chinook table on an engine: PostgreSQL spells them snake_case. */
export function chinookTable(engine: TestEngine, pascal: string): string {
  return engine === 'pg' ? pascal.replace(/(?<=[a-z])(?=[A-Z])/g, '_').toLowerCase() : pascal;
}

/** True when the database `name` already holds every Chinook table with its full row count. */
export async function holdsFullChinook(engine: TestEngine, name: string): Promise<boolean> {
  const cfg = connectionFor(engine, name);
  if (engine === 'sqlite' && !existsSync(cfg.connection.filename!)) return false;
  let db;
  try {
    db = await openDatabase({ ...cfg, poolMax: 1 });
  } catch {
    return false;
  }
  try {
    for (const [table, count] of Object.entries(CHINOOK_COUNTS)) {
      const sql = `SELECT COUNT(*) AS n FROM ${db.dialect.quoteId(chinookTable(engine, table))}`;
      const rows = await db.driver.query<{ n: unknown }>({ sql, params: [] });
      if (Number(rows[0]?.n) !== count) return false;
    }
    return true;
  } catch {
    return false;
  } finally {
    await db.driver.close().catch(() => {});
  }
}

/** The Chinook database `name`, reused when complete (see the file comment), else (re)loaded. */
export async function loadChinook(engine: TestEngine, name: string, opts: { fresh?: boolean } = {}): Promise<ConnectionConfig> {
  if (!opts.fresh && (await holdsFullChinook(engine, name))) return connectionFor(engine, name);
  if (engine === 'sqlite') {
    const cfg = connectionFor('sqlite', name);
    copyFileSync(CHINOOK_SQLITE, cfg.connection.filename!);
    // Drop stale WAL files of an earlier copy so the fresh file is read as it is.
    for (const ext of ['-wal', '-shm']) await Bun.file(cfg.connection.filename! + ext).delete().catch(() => {});
    new Database(cfg.connection.filename!).close();
    return cfg;
  }
  return reloadChinook(engine, name);
}
