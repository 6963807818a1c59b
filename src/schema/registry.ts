/**
 * The project registry: opens each project database on first use (one bounded pool per
 * project database), keeps its schema model, and answers 404 for unknown projects and 503 for
 * stopped or unreachable ones. A failed open is not cached, so a database that comes back works
 * again without a restart. Schema changes and evictions are published (meta/invalidation.ts), so
 * other instances sharing the metadata store reload that model or close those databases too.
 */
import { existsSync } from 'node:fs';
import type { MetaStore } from '../meta/store';
import { projectsRepo, type ProjectDbRow } from '../meta/projects-repo';
import { modelsRepo } from '../meta/models-repo';
import { ALL, invalidation, type Notifier } from '../meta/invalidation';
import { notFound, unavailable } from '../lib/errors';
import type { Logger } from '../lib/log';
import { open as openSealed } from '../lib/secret-box';
import type { ConnectionConfig } from '../sql/dialect';
import { openDatabase } from '../sql/open-database';
import { makeProjectDb, type ProjectDb } from './project-db';
import { applyUserMeta } from './user-meta';
import { diffSchemas, type SyncReport } from './meta-sync';
import type { Inflection } from '../lib/inflection';
import { assertOwnEmbeddedFile, confineSqlitePath, storedSqliteFile, storedSqlitePath } from './sqlite-path';
import { assertConnectTarget } from './connection-input';

export interface RegistryDeps {
  meta: MetaStore;
  connectionKey: string;
  dataDir: string;
  log: Logger;
  /** Time limit of every data statement (NC_QUERY_TIMEOUT_MS); 0 or unset: none. */
  statementTimeoutMs?: number;
  /** NC_SQLITE_ALLOW_DIRS: folders outside the data directory where SQLite project files may live. */
  sqliteAllowDirs?: string[];
  /** NC_CONNECT_ALLOW: host:port patterns server connections may reach (empty: any). */
  connectAllow?: string[];
}

/**
 * Refuses (400/403) to open a stored connection that is not allowed now: an embedded database that
 * is not its project's own file, a SQLite file outside the projects area (its real path, checked
 * again at every start), or a server outside NC_CONNECT_ALLOW; a connected SQLite file that no longer
 * exists is unreachable (503). Only an embedded (xcdb) file is created when missing.
 */
export function assertOpenable(projectId: string, row: ProjectDbRow, cfg: ConnectionConfig, deps: RegistryDeps): void {
  if (cfg.client === 'sqlite') {
    const file = cfg.connection.filename ?? '';
    if (row.is_xcdb) assertOwnEmbeddedFile(file, deps.dataDir, projectId);
    else {
      confineSqlitePath(file, deps.dataDir, deps.sqliteAllowDirs ?? []);
      // A connected file that went away (moved, deleted, an unmounted disk) is unreachable: opening
      // it would make an empty database in its place and show the project without its tables.
      if (!existsSync(file)) throw unavailable(`The SQLite file '${file}' does not exist`);
    }
    return;
  }
  assertConnectTarget(cfg, deps.connectAllow ?? []);
}

/**
 * Decrypts a stored connection; SQLite paths inside the data directory (xcdb, and files connected
 * there) are kept relative to it and come back absolute.
 */
export function connectionOf(row: ProjectDbRow, connectionKey: string, dataDir: string): ConnectionConfig {
  const conn = JSON.parse(openSealed(connectionKey, row.connection_enc)) as ConnectionConfig['connection'];
  if (row.client === 'sqlite' && conn.filename) conn.filename = storedSqliteFile(conn.filename, dataDir);
  return { client: row.client as ConnectionConfig['client'], connection: conn };
}

/** The text to seal for a connection: a SQLite file inside the data directory is kept relative to it. */
export function connectionToStore(cfg: ConnectionConfig, dataDir: string): string {
  const conn = cfg.client === 'sqlite' && cfg.connection.filename ? { ...cfg.connection, filename: storedSqlitePath(cfg.connection.filename, dataDir) } : cfg.connection;
  return JSON.stringify(conn);
}

export class ProjectRegistry {
  private open = new Map<string, Promise<ProjectDb>>();
  private readonly projects;
  private readonly models;
  private readonly bus: Notifier;
  private readonly unsubscribe: Array<() => void>;

  constructor(private deps: RegistryDeps) {
    this.projects = projectsRepo(deps.meta);
    this.models = modelsRepo(deps.meta);
    this.bus = invalidation(deps.meta);
    this.unsubscribe = [
      this.bus.subscribe('schema', (key) => this.reloadLocal(key)),
      // After an outage (`*`) the schema topic reloads every open model; project rows expire on their own.
      this.bus.subscribe('evict', (projectId) => void (projectId !== ALL && this.evictLocal(projectId))),
    ];
  }

  private key = (projectId: string, env: string, dbAlias: string) => `${projectId}\u0000${env}\u0000${dbAlias}`;

  /** The open database of a project (working environment unless `env` is given). */
  async get(projectId: string, dbAlias = 'db', env?: string): Promise<ProjectDb> {
    const project = await this.projects.getCached(projectId);
    if (!project) throw notFound(`Project '${projectId}' not found`);
    if (project.status === 'stopped') throw unavailable(`Project '${project.title}' is stopped; start it to use it.`);
    const e = env ?? project.working_env;
    const key = this.key(projectId, e, dbAlias);
    let p = this.open.get(key);
    if (!p) {
      p = this.load(projectId, e, dbAlias);
      this.open.set(key, p);
      p.catch(() => {
        if (this.open.get(key) === p) this.open.delete(key);
      });
    }
    return p;
  }

  /**
   * The open database of a project in its working environment when get() would answer it without
   * waiting (project row cached, database open and its model loaded), else undefined: the hot path
   * of API requests. A stopped project gives undefined, so get() answers it.
   */
  peek(projectId: string, dbAlias = 'db'): ProjectDb | undefined {
    const project = this.projects.peekCached(projectId);
    if (!project || project.status === 'stopped') return undefined;
    const p = this.open.get(this.key(projectId, project.working_env, dbAlias));
    return p && Bun.peek.status(p) === 'fulfilled' ? (Bun.peek(p) as ProjectDb) : undefined;
  }

  private async load(projectId: string, env: string, dbAlias: string): Promise<ProjectDb> {
    const row = (await this.projects.dbs(projectId)).find((d) => d.env === env && d.db_alias === dbAlias);
    if (!row) throw notFound(`Database '${dbAlias}' not found in environment '${env}' of project '${projectId}'`);
    const cfg = connectionOf(row, this.deps.connectionKey, this.deps.dataDir);
    assertOpenable(projectId, row, cfg, this.deps);
    const db = await openDatabase({ ...cfg, statementTimeoutMs: this.deps.statementTimeoutMs });
    try {
      const introspected = await db.introspect({
        inflectionTable: row.inflection_table as Inflection,
        inflectionColumn: row.inflection_column as Inflection,
      });
      const model = applyUserMeta(introspected, await this.models.all(projectId, dbAlias));
      return makeProjectDb(projectId, env, dbAlias, db, model);
    } catch (e) {
      await db.driver.close().catch(() => {});
      throw e;
    }
  }

  /** Reads the schema again, keeps user metadata, swaps the model in and reports the changes. */
  async sync(projectId: string, dbAlias = 'db'): Promise<SyncReport> {
    const current = await this.get(projectId, dbAlias);
    const next = await this.rebuild(current);
    const report = diffSchemas(current.model, next.model);
    this.open.set(this.key(projectId, current.env, dbAlias), Promise.resolve(next));
    this.listeners.forEach((l) => l(projectId));
    await this.bus.announce('schema', `${projectId}\u0000${dbAlias}`);
    return report;
  }

  /** The same open database with its schema read again and the user metadata applied. */
  private async rebuild(current: ProjectDb): Promise<ProjectDb> {
    const { projectId, env, dbAlias } = current;
    const row = (await this.projects.dbs(projectId)).find((d) => d.env === env && d.db_alias === dbAlias);
    if (!row) throw notFound(`Database '${dbAlias}' not found in environment '${env}' of project '${projectId}'`);
    const introspected = await current.db.introspect({
      inflectionTable: row.inflection_table as Inflection,
      inflectionColumn: row.inflection_column as Inflection,
    });
    const model = applyUserMeta(introspected, await this.models.all(projectId, dbAlias));
    return makeProjectDb(projectId, env, dbAlias, current.db, model);
  }

  /** Reads the schema of an open database again, here only (before a change planned on it). */
  async refresh(projectId: string, dbAlias = 'db'): Promise<void> {
    this.reloadLocal(`${projectId}\u0000${dbAlias}`);
    await this.get(projectId, dbAlias);
  }

  /**
   * Another instance changed the schema model of `key` (project\0dbAlias, or * for all): every
   * open database it names reads its schema again on its open pool, once its current load is done.
   */
  private reloadLocal(key: string): void {
    const touched = new Set<string>();
    for (const [k, p] of this.open) {
      const [projectId, , dbAlias] = k.split('\u0000') as [string, string, string];
      if (key !== ALL && key !== `${projectId}\u0000${dbAlias}`) continue;
      const next = p.then((pdb) =>
        this.rebuild(pdb).catch(async (e) => {
          await pdb.db.driver.close().catch(() => {});
          throw e;
        }),
      );
      this.open.set(k, next);
      next.catch(() => {
        if (this.open.get(k) === next) this.open.delete(k);
      });
      touched.add(projectId);
    }
    touched.forEach((projectId) => this.listeners.forEach((l) => l(projectId)));
  }

  /**
   * Reads the schema again after a change made through Tablo. A failed read must not leave the old
   * model in use: the project's databases are closed, so the next call reads them afresh, and a
   * clear 503 is thrown, unless `failed` (the change itself failed and that error is answered).
   */
  async resync(projectId: string, dbAlias = 'db', failed = false): Promise<void> {
    try {
      await this.sync(projectId, dbAlias);
    } catch (e) {
      await this.evict(projectId).catch(() => {});
      if (!failed) throw unavailable(`The change was made, but reading the schema again failed: ${e instanceof Error ? e.message : String(e)}. Sync the schema once the database can be read.`);
    }
  }

  private listeners = new Set<(projectId: string) => void>();
  /** Called after a project's schema model changes (sync, DDL, stop): caches built on it drop it. */
  onChange(listener: (projectId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closes every open database of a project (stop, delete, environment change), here and in other instances. */
  async evict(projectId: string): Promise<void> {
    await this.evictLocal(projectId);
    await this.bus.announce('evict', projectId);
  }

  private async evictLocal(projectId: string): Promise<void> {
    const prefix = `${projectId}\u0000`;
    const closing: Promise<unknown>[] = [];
    for (const [k, p] of this.open) {
      if (!k.startsWith(prefix)) continue;
      this.open.delete(k);
      closing.push(p.then((pdb) => pdb.db.driver.close()).catch(() => {}));
    }
    await Promise.all(closing);
    this.listeners.forEach((l) => l(projectId));
  }

  async close(): Promise<void> {
    this.unsubscribe.forEach((u) => u());
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map((p) => p.then((pdb) => pdb.db.driver.close()).catch(() => {})));
  }
}
