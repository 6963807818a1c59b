/**
 * Data rights per table and role (nc_acl) and per-role visibility of tree objects
 * (nc_disabled_models). Rules are stored by SQL table and column names, so renaming an alias
 * keeps them.
 */
import type { MetaStore } from './store';
import { nowIso } from '../lib/ids';
import { invalidation, topicCache } from './invalidation';
/** How long the rules read for a request may be reused (a save here drops them at once). */
const RULES_CACHE_MS = 1000;

/** All columns (true), none (false) or only the listed column SQL names. */
export type ColumnGrant = boolean | string[];

/**
 * What one role may do with one table. `where` is a row condition in the where language
 * (`(col,op,value)~and(...)`) that may use `$user.id` and `$user.email` as values.
 */
export interface TableRule {
  read: ColumnGrant;
  create: ColumnGrant;
  update: ColumnGrant;
  delete: boolean;
  where?: string | null;
}

/** Stored rules of one project database: table SQL name -> role -> rule. */
export type AclRules = Map<string, Record<string, TableRule>>;

/** Kinds of tree objects whose visibility is set per role. */
export const MODEL_TYPES = ['table', 'view', 'function', 'procedure'] as const;
export type ModelType = (typeof MODEL_TYPES)[number];

const repos = new WeakMap<MetaStore, ReturnType<typeof makeAclRepo>>();

/** The rights repository over a metadata store (one object per store, made on first use). */
export function aclRepo(meta: MetaStore) {
  let repo = repos.get(meta);
  if (!repo) repos.set(meta, (repo = makeAclRepo(meta)));
  return repo;
}

function makeAclRepo(meta: MetaStore) {
  const cache = topicCache<AclRules>(meta, 'acl', RULES_CACHE_MS);
  const ruleKey = (projectId: string, dbAlias: string) => `${projectId}\u0000${dbAlias}`;
  return {
    /** The cached rules of a project database, if held (hot path of every restricted request); read-only. */
    cachedRules: (projectId: string, dbAlias: string): AclRules | undefined => cache.get(ruleKey(projectId, dbAlias)),
    /** Every stored rule of a project database (cached; read-only). */
    async rules(projectId: string, dbAlias: string): Promise<AclRules> {
      const key = ruleKey(projectId, dbAlias);
      const hit = cache.get(key);
      if (hit) return hit;
      const rows = await meta.all<{ tn: string; role: string; rule: string }>('SELECT tn, role, rule FROM nc_acl WHERE project_id = ? AND db_alias = ?', [projectId, dbAlias]);
      const out: AclRules = new Map();
      for (const r of rows) {
        const byRole = out.get(r.tn) ?? {};
        byRole[r.role] = JSON.parse(r.rule) as TableRule;
        out.set(r.tn, byRole);
      }
      cache.set(key, out);
      return out;
    },
    /** Stores one rule; null removes it (the role's default applies again). Cached rules are dropped once written. */
    async save(projectId: string, dbAlias: string, tn: string, role: string, rule: TableRule | null) {
      const done = await (rule === null
        ? meta.run('DELETE FROM nc_acl WHERE project_id = ? AND db_alias = ? AND tn = ? AND role = ?', [projectId, dbAlias, tn, role])
        : meta.run(
            `INSERT INTO nc_acl (project_id, db_alias, tn, role, rule, updated_at) VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT (project_id, db_alias, tn, role) DO UPDATE SET rule = excluded.rule, updated_at = excluded.updated_at`,
            [projectId, dbAlias, tn, role, JSON.stringify(rule), nowIso()],
          ));
      await invalidation(meta).publish('acl', ruleKey(projectId, dbAlias), meta);
      return done;
    },
    /**
     * A table renamed in the database: its rules and its hidden-from entries follow it, so that a
     * rename never hands a role the table's default rights.
     */
    async renameTable(projectId: string, dbAlias: string, from: string, to: string) {
      await meta.transaction(async (tx) => {
        await tx.run('UPDATE nc_acl SET tn = ? WHERE project_id = ? AND db_alias = ? AND tn = ?', [to, projectId, dbAlias, from]);
        await tx.run("UPDATE nc_disabled_models SET name = ? WHERE project_id = ? AND db_alias = ? AND type = 'table' AND name = ?", [to, projectId, dbAlias, from]);
      });
      await invalidation(meta).publish('acl', ruleKey(projectId, dbAlias), meta);
    },
    /** Drops the cached rules of a project database (after rules were written around the repository). */
    forget: (projectId: string, dbAlias: string) => cache.delete(ruleKey(projectId, dbAlias)),
    /** Hidden objects as `type\u0000name` -> the roles they are hidden from. */
    async disabled(projectId: string, dbAlias: string): Promise<Map<string, Set<string>>> {
      const rows = await meta.all<{ type: string; name: string; role: string }>('SELECT type, name, role FROM nc_disabled_models WHERE project_id = ? AND db_alias = ?', [projectId, dbAlias]);
      const out = new Map<string, Set<string>>();
      for (const r of rows) {
        const k = modelKey(r.type, r.name);
        out.set(k, (out.get(k) ?? new Set()).add(r.role));
      }
      return out;
    },
    /** Shows (enabled) or hides an object from one role's tree. */
    setEnabled: (projectId: string, dbAlias: string, type: ModelType, name: string, role: string, enabled: boolean) =>
      enabled
        ? meta.run('DELETE FROM nc_disabled_models WHERE project_id = ? AND db_alias = ? AND type = ? AND name = ? AND role = ?', [projectId, dbAlias, type, name, role])
        : meta.run(
            `INSERT INTO nc_disabled_models (project_id, db_alias, type, name, role, created_at) VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT (project_id, db_alias, type, name, role) DO NOTHING`,
            [projectId, dbAlias, type, name, role, nowIso()],
          ),
  };
}

/** The key of one tree object in `disabled()`. */
export const modelKey = (type: string, name: string) => `${type}\u0000${name}`;
