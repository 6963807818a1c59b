/**
 * Runs planned schema changes and keeps everything in step: the statements run (one transaction
 * where DDL is transactional), the change is recorded as a migration with its status, metadata
 * follows (display names, logical types, renamed keys), schema events are announced, and the
 * model is read again so REST, GraphQL and the dashboard see the database as it now is, also
 * after a failure.
 */
import type { MetaStore } from '../meta/store';
import { modelsRepo } from '../meta/models-repo';
import { schemaMigrationsRepo, type MigrationRename, type SchemaMigration } from '../meta/schema-migrations-repo';
import { runDdl } from '../sql/ddl-runner';
import { AppError, badRequest, conflict, isAppError, notFound, unavailable } from '../lib/errors';
import { leases } from '../meta/leases';
import type { ProjectRegistry } from './registry';
import type { ChangePlan, MetaEdits } from './change-plan';
import { emitSchemaEvent } from './schema-events';
import { reviveVirtuals } from './virtual-column-events';
import type { TableModel } from '../sql/model';

/** The project database a change applies to, with the stores it keeps in step. */
export interface ChangeScope {
  meta: MetaStore;
  projects: ProjectRegistry;
  projectId: string;
  dbAlias: string;
}

/** The migration as change answers name it. */
export interface MigrationRef {
  id: string;
  title: string;
  status: SchemaMigration['status'];
}

function metaEdits(s: ChangeScope): MetaEdits {
  const repo = modelsRepo(s.meta);
  return {
    get: async (tn) => (await repo.all(s.projectId, s.dbAlias)).get(tn) ?? {},
    set: (tn, m) => repo.set(s.projectId, s.dbAlias, tn, m).then(() => undefined),
    remove: (tn) => repo.remove(s.projectId, s.dbAlias, tn).then(() => undefined),
  };
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

const running = new Map<string, Promise<unknown>>();

/**
 * Runs schema changes of one project database one at a time (in this process and, on a shared
 * PostgreSQL metadata store, across instances: see withStoreLease), so a change is planned against
 * the schema the previous one left.
 */
export function withChangeLock<T>(s: ChangeScope, fn: () => Promise<T>): Promise<T> {
  const key = `${s.projectId}\u0000${s.dbAlias}`;
  const before = running.get(key) ?? Promise.resolve();
  const locked = () => withStoreLease(s, fn);
  const next = before.then(locked, locked);
  const tail = next.catch(() => undefined);
  running.set(key, tail);
  void tail.then(() => {
    if (running.get(key) === tail) running.delete(key);
  });
  return next;
}

/** How long a change may hold the cross-instance lease, and how long another waits for it. */
const LEASE_MS = 120_000;
const WAIT_MS = 30_000;

/**
 * On a PostgreSQL metadata store (several instances): holds the lease `schema-change:<project>:<db>`
 * while fn runs, and first reads this instance's model afresh, since the change before may have
 * been made by another instance a moment ago. Elsewhere fn runs as it is.
 */
async function withStoreLease<T>(s: ChangeScope, fn: () => Promise<T>): Promise<T> {
  if (s.meta.kind !== 'pg') return fn();
  const lease = leases(s.meta);
  const name = `schema-change:${s.projectId}:${s.dbAlias}`;
  const until = Date.now() + WAIT_MS;
  while (!(await lease.acquire(name, LEASE_MS))) {
    if (Date.now() > until) throw unavailable('Another schema change of this database is running on another instance; try again in a moment.');
    await Bun.sleep(100);
  }
  try {
    await s.projects.refresh(s.projectId, s.dbAlias);
    return await fn();
  } finally {
    await lease.release(name).catch(() => {});
  }
}

/**
 * Runs a plan and records it. A plan without statements changes metadata only and is not
 * recorded (migration null). A failure is recorded as a failed migration and rethrown.
 */
export async function applyChange(s: ChangeScope, plan: ChangePlan): Promise<MigrationRef | null> {
  const pdb = await s.projects.get(s.projectId, s.dbAlias);
  const repo = schemaMigrationsRepo(s.meta, s.projectId, s.dbAlias);
  const shown = displayNames(pdb.model.tables);
  let migration: MigrationRef | null = null;
  if (plan.up.length > 0) {
    const renames = (plan.events ?? []).filter((e): e is MigrationRename => e.kind === 'tableRenamed' || e.kind === 'columnRenamed');
    const id = await repo.add({ title: plan.title, up: plan.up, down: plan.down, renames, status: 'pending' });
    try {
      await runDdl(pdb.db, { statements: plan.up, undo: plan.down, checks: plan.checks, evolution: { id, title: plan.title, action: 'insert' } });
    } catch (e) {
      await repo.setStatus(id, 'failed', messageOf(e));
      await s.projects.resync(s.projectId, s.dbAlias, true);
      throw e;
    }
    await repo.setStatus(id, 'applied');
    migration = { id, title: plan.title, status: 'applied' };
  }
  if (plan.meta) await plan.meta(metaEdits(s));
  for (const e of plan.events ?? []) await emitSchemaEvent({ ...e, meta: s.meta, projectId: s.projectId, dbAlias: s.dbAlias } as Parameters<typeof emitSchemaEvent>[0]);
  await s.projects.resync(s.projectId, s.dbAlias);
  await announceAliasRenames(s, shown, plan.events ?? []);
  return migration;
}

/** The display names of a model's columns, by table. */
type DisplayNames = { tn: string; columns: { cn: string; _cn: string }[] }[];
const displayNames = (tables: readonly TableModel[]): DisplayNames => tables.map((t) => ({ tn: t.tn, columns: t.columns.map((c) => ({ cn: c.cn, _cn: c._cn })) }));

/**
 * Columns now shown under another display name (renamed by the user, or
 * following a new SQL name): announced so that text naming columns by display name follows.
 */
async function announceAliasRenames(s: ChangeScope, before: DisplayNames, events: NonNullable<ChangePlan['events']>): Promise<void> {
  const after = (await s.projects.get(s.projectId, s.dbAlias)).model.tables;
  for (const t of before) {
    const tn = events.reduce((name, e) => (e.kind === 'tableRenamed' && e.from === name ? e.to : name), t.tn);
    const now = after.find((x) => x.tn === tn);
    if (!now) continue;
    for (const c of t.columns) {
      const cn = events.reduce((name, e) => (e.kind === 'columnRenamed' && e.tn === t.tn && e.from === name ? e.to : name), c.cn);
      const shown = now.columns.find((x) => x.cn === cn)?._cn;
      if (shown && shown !== c._cn) await emitSchemaEvent({ kind: 'columnAliasRenamed', meta: s.meta, projectId: s.projectId, dbAlias: s.dbAlias, tn, from: c._cn, to: shown });
    }
  }
}

/** Runs one migration's up (apply) or down (rollback) statements and sets its status. */
async function runMigration(s: ChangeScope, m: SchemaMigration, direction: 'apply' | 'rollback'): Promise<void> {
  const pdb = await s.projects.get(s.projectId, s.dbAlias);
  const repo = schemaMigrationsRepo(s.meta, s.projectId, s.dbAlias);
  const apply = direction === 'apply';
  try {
    await runDdl(pdb.db, { statements: apply ? m.up : m.down, undo: apply ? m.down : m.up, evolution: { id: m.id, title: m.title, action: apply ? 'insert' : 'delete' } });
  } catch (e) {
    // A failed rollback leaves the change applied (transactional engines) or half undone (MySQL).
    await repo.setStatus(m.id, apply ? 'failed' : 'applied', messageOf(e));
    await s.projects.resync(s.projectId, s.dbAlias, true);
    const what = `${apply ? 'Applying' : 'Rolling back'} '${m.title}' failed: `;
    throw isAppError(e) ? new AppError(e.code, what + e.message) : e;
  }
  await repo.setStatus(m.id, apply ? 'applied' : 'pending');
  // Display names and logical types follow the renamed objects back (rollback) and forth (apply).
  const renames = apply ? m.renames : [...m.renames].reverse().map(reversed);
  for (const r of renames) {
    await moveMeta(metaEdits(s), r);
    await emitSchemaEvent({ ...r, meta: s.meta, projectId: s.projectId, dbAlias: s.dbAlias });
  }
}

const reversed = (r: MigrationRename): MigrationRename => ({ ...r, from: r.to, to: r.from });

/** Moves the user metadata of a renamed table or column to its new name. */
async function moveMeta(edits: MetaEdits, r: MigrationRename): Promise<void> {
  if (r.kind === 'tableRenamed') {
    const m = await edits.get(r.from);
    await edits.remove(r.from);
    await edits.set(r.to, m);
    return;
  }
  const m = await edits.get(r.tn);
  const columns = { ...(m.columns ?? {}) };
  if (!columns[r.from]) return;
  columns[r.to] = columns[r.from]!;
  delete columns[r.from];
  await edits.set(r.tn, { ...m, columns });
}

/** Virtual columns whose deleted column or table a migration brought back work again. */
async function revive(s: ChangeScope): Promise<void> {
  const pdb = await s.projects.get(s.projectId, s.dbAlias);
  if (await reviveVirtuals(s.meta, s.projectId, s.dbAlias, pdb.model.tables)) await s.projects.resync(s.projectId, s.dbAlias);
}

/** Applies one pending (or failed) migration, or every pending one oldest first; answers those applied. */
export async function applyMigrations(s: ChangeScope, which: { id: string } | { all: true }): Promise<MigrationRef[]> {
  const repo = schemaMigrationsRepo(s.meta, s.projectId, s.dbAlias);
  const list = await repo.list();
  let todo: SchemaMigration[];
  if ('id' in which) {
    const m = list.find((x) => x.id === which.id);
    if (!m) throw notFound(`Migration '${which.id}' not found`);
    if (m.status === 'applied') throw conflict(`Migration '${m.title}' is already applied`);
    todo = [m];
  } else {
    todo = list.filter((x) => x.status === 'pending').reverse();
  }
  const done: MigrationRef[] = [];
  try {
    for (const m of todo) {
      await runMigration(s, m, 'apply');
      done.push({ id: m.id, title: m.title, status: 'applied' });
    }
  } catch (e) {
    await s.projects.resync(s.projectId, s.dbAlias, true);
    throw e;
  }
  await s.projects.resync(s.projectId, s.dbAlias);
  await revive(s);
  return done;
}

/** Rolls back the newest applied migration (by id, which must be the newest), or every applied one newest first. */
export async function rollbackMigrations(s: ChangeScope, which: { id: string } | { all: true }): Promise<MigrationRef[]> {
  const repo = schemaMigrationsRepo(s.meta, s.projectId, s.dbAlias);
  const applied = (await repo.list()).filter((x) => x.status === 'applied');
  let todo: SchemaMigration[];
  if ('id' in which) {
    const m = (await repo.get(which.id)) ?? null;
    if (!m) throw notFound(`Migration '${which.id}' not found`);
    if (m.status !== 'applied') throw badRequest(`Migration '${m.title}' is not applied`);
    if (applied[0]!.id !== m.id) throw conflict(`Roll back the newer migration '${applied[0]!.title}' first`);
    todo = [m];
  } else {
    todo = applied;
  }
  const done: MigrationRef[] = [];
  try {
    for (const m of todo) {
      await runMigration(s, m, 'rollback');
      done.push({ id: m.id, title: m.title, status: 'pending' });
    }
  } catch (e) {
    await s.projects.resync(s.projectId, s.dbAlias, true);
    throw e;
  }
  await s.projects.resync(s.projectId, s.dbAlias);
  await revive(s);
  return done;
}
