/**
 * Schema changes made from the dashboard, one row per change: its up and down statements, title,
 * status and times, per project database. The applied list of the database itself lives in its
 * `_evolutions` table; this is the full history, pending and failed ones included.
 */
import type { MetaStore } from './store';
import { newId, nowIso } from '../lib/ids';

/** pending: recorded, not applied (or rolled back); applied; failed: its last run failed. */
export type MigrationStatus = 'pending' | 'applied' | 'failed';

/** A table or column the change renames, so applying or rolling it back moves metadata along. */
export type MigrationRename = { kind: 'tableRenamed'; from: string; to: string } | { kind: 'columnRenamed'; tn: string; from: string; to: string };

/** A recorded schema change as the migration operations answer it. */
export interface SchemaMigration {
  id: string;
  title: string;
  up: string[];
  down: string[];
  status: MigrationStatus;
  renames: MigrationRename[];
  createdAt: string;
  appliedAt: string | null;
  error?: string;
}

interface Row {
  id: string;
  title: string;
  up: string;
  down: string;
  renames: string;
  status: MigrationStatus;
  error: string | null;
  created_at: string;
  applied_at: string | null;
}

const fromRow = (r: Row): SchemaMigration => ({
  id: r.id,
  title: r.title,
  up: JSON.parse(r.up) as string[],
  down: JSON.parse(r.down) as string[],
  status: r.status,
  renames: JSON.parse(r.renames) as MigrationRename[],
  createdAt: r.created_at,
  appliedAt: r.applied_at,
  ...(r.error ? { error: r.error } : {}),
});

/** The migrations of one project database (project, dbAlias). */
export function schemaMigrationsRepo(meta: MetaStore, projectId: string, dbAlias: string) {
  return {
    /** Records a change; answers its id. */
    async add(m: { title: string; up: string[]; down: string[]; renames?: MigrationRename[]; status: MigrationStatus; error?: string }): Promise<string> {
      const id = newId('mg');
      const now = nowIso();
      await meta.run(
        `INSERT INTO nc_schema_migrations (id, seq, project_id, db_alias, title, up, down, renames, status, error, created_at, applied_at)
         VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM nc_schema_migrations), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [id, projectId, dbAlias, m.title, JSON.stringify(m.up), JSON.stringify(m.down), JSON.stringify(m.renames ?? []), m.status, m.error ?? null, now, m.status === 'applied' ? now : null],
      );
      return id;
    },
    /** Newest first. */
    async list(): Promise<SchemaMigration[]> {
      const rows = await meta.all<Row>(
        'SELECT * FROM nc_schema_migrations WHERE project_id = ? AND db_alias = ? ORDER BY seq DESC',
        [projectId, dbAlias],
      );
      return rows.map(fromRow);
    },
    async get(id: string): Promise<SchemaMigration | undefined> {
      const r = await meta.get<Row>('SELECT * FROM nc_schema_migrations WHERE id = ? AND project_id = ? AND db_alias = ?', [id, projectId, dbAlias]);
      return r ? fromRow(r) : undefined;
    },
    /** Sets the status (applied_at follows: now when applied, cleared otherwise). */
    setStatus: (id: string, status: MigrationStatus, error?: string) =>
      meta.run('UPDATE nc_schema_migrations SET status = ?, error = ?, applied_at = ? WHERE id = ?', [
        status,
        error ?? null,
        status === 'applied' ? nowIso() : null,
        id,
      ]),
  };
}
