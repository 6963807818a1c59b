/**
 * The parts of a project database's metadata that an archive carries, one section each: how to
 * read it, its shape (zod), which of its entries still name objects of the database (the rest are
 * reported and skipped: nothing unknown is ever applied), and how to clear and write it back.
 * Features that keep more metadata (views, hooks, crons) add a section to SECTIONS.
 */
import { z } from 'zod';
import type { MetaStore } from '../../../meta/store';
import type { SchemaModel, TableModel } from '../../../sql/model';
import { newId, nowIso } from '../../../lib/ids';
import { RULE_ROLES } from '../../../data/access';
import { cronsSection, hooksSection, sharedViewsSection, viewsSection } from './feature-sections';

/** One section of the archive, per project database. */
export interface MetaSection<Row = unknown> {
  /** File name in the zip (`db/<alias>/<name>.json`). */
  name: string;
  rows: z.ZodType<Row[]>;
  read(meta: MetaStore, projectId: string, dbAlias: string): Promise<Row[]>;
  /**
   * The entries that name objects of `model`; `skip` reports each one left out and why. `current`
   * holds what the project stores now (an archive of the same project may rely on it).
   */
  check(rows: Row[], model: SchemaModel, skip: (what: string) => void, current: Row[]): Row[];
  clear(tx: MetaStore, projectId: string, dbAlias: string): Promise<void>;
  /** Writes the rows; what it could not bring back (a credential header value the archive never holds) is told to `lost`. */
  write(tx: MetaStore, projectId: string, dbAlias: string, rows: Row[], lost: (what: string) => void): Promise<void>;
}

const tableOf = (model: SchemaModel, tn: string): TableModel | undefined => model.tables.find((t) => t.tn === tn);
const hasColumn = (t: TableModel, cn: string) => t.columns.some((c) => c.cn === cn && !c.virtual);

const StoredRel = z.object({ type: z.enum(['hm', 'bt', 'mm']), rtn: z.string(), via: z.array(z.string()) }).loose();
const Virtual = z
  .object({
    _cn: z.string().min(1).max(255),
    uidt: z.enum(['Formula', 'Rollup', 'Lookup']),
    rollup: z.object({ rel: StoredRel, cn: z.string() }).loose().optional(),
    lookup: z.object({ rel: StoredRel, cn: z.string() }).loose().optional(),
  })
  .loose();
const ModelRow = z.object({
  tn: z.string().min(1).max(255),
  meta: z
    .object({
      columns: z.record(z.string(), z.object({}).loose()).optional(),
      virtuals: z.array(Virtual).optional(),
    })
    .loose(),
});
type ModelRow = z.infer<typeof ModelRow>;

/** Display names, column types and options, hidden columns, order and virtual columns (nc_models). */
const models: MetaSection<ModelRow> = {
  name: 'models',
  rows: z.array(ModelRow),
  read: (meta, projectId, dbAlias) =>
    meta
      .all<{ tn: string; meta: string }>('SELECT tn, meta FROM nc_models WHERE project_id = ? AND db_alias = ? ORDER BY tn', [projectId, dbAlias])
      .then((rows) => rows.map((r) => ({ tn: r.tn, meta: JSON.parse(r.meta) }))),
  check(rows, model, skip) {
    const out: ModelRow[] = [];
    for (const row of rows) {
      const t = tableOf(model, row.tn);
      if (!t) {
        skip(`table '${row.tn}': not in this database`);
        continue;
      }
      const columns: Record<string, Record<string, unknown>> = {};
      for (const [cn, m] of Object.entries(row.meta.columns ?? {})) {
        if (hasColumn(t, cn)) columns[cn] = m;
        else skip(`column '${row.tn}.${cn}': not in this database`);
      }
      const virtuals = (row.meta.virtuals ?? []).filter((v) => {
        const via = v.rollup ?? v.lookup;
        if (!via) return true;
        const target = tableOf(model, via.rel.rtn);
        if (target && hasColumn(target, via.cn)) return true;
        skip(`${v.uidt.toLowerCase()} '${row.tn}.${v._cn}': '${via.rel.rtn}.${via.cn}' is not in this database`);
        return false;
      });
      out.push({ tn: row.tn, meta: { ...row.meta, ...(row.meta.columns ? { columns } : {}), ...(row.meta.virtuals ? { virtuals } : {}) } });
    }
    return out;
  },
  clear: async (tx, projectId, dbAlias) => {
    await tx.run('DELETE FROM nc_models WHERE project_id = ? AND db_alias = ?', [projectId, dbAlias]);
  },
  async write(tx, projectId, dbAlias, rows) {
    for (const r of rows) {
      await tx.run('INSERT INTO nc_models (project_id, db_alias, tn, meta, updated_at) VALUES (?, ?, ?, ?, ?)', [projectId, dbAlias, r.tn, JSON.stringify(r.meta), nowIso()]);
    }
  },
};

const Grant = z.union([z.boolean(), z.array(z.string())]);
const AclRow = z.object({
  tn: z.string().min(1).max(255),
  role: z.enum(RULE_ROLES as [string, ...string[]]),
  rule: z.object({ read: Grant, create: Grant, update: Grant, delete: z.boolean(), where: z.string().max(4000).nullable().optional() }),
});
type AclRow = z.infer<typeof AclRow>;

/** Rights per table and role (Roles Management, nc_acl). */
const acl: MetaSection<AclRow> = {
  name: 'acl',
  rows: z.array(AclRow),
  read: (meta, projectId, dbAlias) =>
    meta
      .all<{ tn: string; role: string; rule: string }>('SELECT tn, role, rule FROM nc_acl WHERE project_id = ? AND db_alias = ? ORDER BY tn, role', [projectId, dbAlias])
      .then((rows) => rows.map((r) => ({ tn: r.tn, role: r.role, rule: JSON.parse(r.rule) }))),
  check(rows, model, skip) {
    const out: AclRow[] = [];
    for (const row of rows) {
      const t = tableOf(model, row.tn);
      if (!t) {
        skip(`rule of '${row.role}' on '${row.tn}': the table is not in this database`);
        continue;
      }
      const known = (g: z.infer<typeof Grant>, what: string) => {
        if (typeof g === 'boolean') return g;
        return g.filter((cn) => hasColumn(t, cn) || (skip(`${what} right of '${row.role}' on column '${row.tn}.${cn}': not in this database`), false));
      };
      out.push({ ...row, rule: { ...row.rule, read: known(row.rule.read, 'read'), create: known(row.rule.create, 'create'), update: known(row.rule.update, 'update') } });
    }
    return out;
  },
  clear: async (tx, projectId, dbAlias) => {
    await tx.run('DELETE FROM nc_acl WHERE project_id = ? AND db_alias = ?', [projectId, dbAlias]);
  },
  async write(tx, projectId, dbAlias, rows) {
    for (const r of rows) {
      await tx.run('INSERT INTO nc_acl (project_id, db_alias, tn, role, rule, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [projectId, dbAlias, r.tn, r.role, JSON.stringify(r.rule), nowIso()]);
    }
  },
};

const VisibilityRow = z.object({ type: z.enum(['table', 'view', 'function', 'procedure']), name: z.string().min(1).max(255), role: z.string().min(1).max(40) });
type VisibilityRow = z.infer<typeof VisibilityRow>;

/** Objects hidden from a role's tree (Meta Management, nc_disabled_models). */
const visibility: MetaSection<VisibilityRow> = {
  name: 'visibility',
  rows: z.array(VisibilityRow),
  read: (meta, projectId, dbAlias) =>
    meta.all<VisibilityRow>('SELECT type, name, role FROM nc_disabled_models WHERE project_id = ? AND db_alias = ? ORDER BY type, name, role', [projectId, dbAlias]),
  check(rows, model, skip) {
    return rows.filter((r) => {
      const found =
        r.type === 'table' || r.type === 'view'
          ? model.tables.some((t) => t.tn === r.name && t.type === r.type)
          : (r.type === 'function' ? model.functions : model.procedures).some((f) => f.name === r.name);
      if (!found) skip(`${r.type} '${r.name}' hidden from '${r.role}': not in this database`);
      return found;
    });
  },
  clear: async (tx, projectId, dbAlias) => {
    await tx.run('DELETE FROM nc_disabled_models WHERE project_id = ? AND db_alias = ?', [projectId, dbAlias]);
  },
  async write(tx, projectId, dbAlias, rows) {
    for (const r of rows) {
      await tx.run('INSERT INTO nc_disabled_models (project_id, db_alias, type, name, role, created_at) VALUES (?, ?, ?, ?, ?, ?)', [projectId, dbAlias, r.type, r.name, r.role, nowIso()]);
    }
  },
};

const MigrationRow = z.object({
  seq: z.number().int(),
  title: z.string().max(1000),
  up: z.string(),
  down: z.string(),
  renames: z.string().default('[]'),
  status: z.string().max(40),
  error: z.string().nullable().optional(),
  created_at: z.string(),
  applied_at: z.string().nullable().optional(),
});
type MigrationRow = z.infer<typeof MigrationRow>;

/**
 * The list of schema changes made through Tablo (the Audit node). Carried as history: importing it
 * runs no SQL; the rows get new ids, so a copy never meets the source project's rows.
 */
const migrations: MetaSection<MigrationRow> = {
  name: 'migrations',
  rows: z.array(MigrationRow),
  read: (meta, projectId, dbAlias) =>
    meta.all<MigrationRow>(
      'SELECT seq, title, up, down, renames, status, error, created_at, applied_at FROM nc_schema_migrations WHERE project_id = ? AND db_alias = ? ORDER BY seq',
      [projectId, dbAlias],
    ),
  check: (rows) => rows,
  clear: async (tx, projectId, dbAlias) => {
    await tx.run('DELETE FROM nc_schema_migrations WHERE project_id = ? AND db_alias = ?', [projectId, dbAlias]);
  },
  async write(tx, projectId, dbAlias, rows) {
    for (const r of rows) {
      await tx.run(
        'INSERT INTO nc_schema_migrations (id, seq, project_id, db_alias, title, up, down, renames, status, error, created_at, applied_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [newId('mg'), r.seq, projectId, dbAlias, r.title, r.up, r.down, r.renames, r.status, r.error ?? null, r.created_at, r.applied_at ?? null],
      );
    }
  },
};

/** The sections of every project database, in the order they are written and applied (views before their links). */
export function databaseSections(connectionKey: string): MetaSection<any>[] {
  return [models, acl, visibility, migrations, viewsSection, sharedViewsSection, hooksSection(() => connectionKey)];
}

/** The project-wide sections (`project/<name>.json`). */
export const PROJECT_SECTIONS: MetaSection<any>[] = [cronsSection];

/** Whether a reset clears a section: everything but the history of schema changes. */
export const clearedByReset = (s: MetaSection<any>) => s.name !== 'migrations';
