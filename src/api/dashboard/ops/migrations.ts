/**
 * migrationList, migrationApply, migrationRollback: the schema changes of a project database as
 * the tree's Audit node lists them; pending ones are applied, applied ones rolled back.
 */
import { z } from 'zod';
import type { DashboardOp, OpCall } from '../op';
import { parseArgs } from '../op';
import { schemaMigrationsRepo } from '../../../meta/schema-migrations-repo';
import { applyMigrations, rollbackMigrations, withChangeLock, type ChangeScope } from '../../../schema/apply-change';

const Which = z.union([z.object({ id: z.string().min(1) }), z.object({ all: z.literal(true) })]);

const scope = (call: OpCall): ChangeScope => ({ meta: call.ctx.meta, projects: call.ctx.projects, projectId: call.projectId, dbAlias: call.dbAlias });

/** `{ list }`: the recorded schema changes, newest first. */
export const migrationList: DashboardOp = {
  name: 'migrationList',
  access: 'projectAdmin',
  async run(call) {
    const list = await schemaMigrationsRepo(call.ctx.meta, call.projectId, call.dbAlias).list();
    return { list: list.map(({ renames: _renames, ...m }) => m) };
  },
};

/** Applies `{ id }` (pending or failed) or `{ all: true }` (pending, oldest first); answers `{ done }`. */
export const migrationApply: DashboardOp = {
  name: 'migrationApply',
  access: 'projectAdmin',
  async run(call) {
    const which = parseArgs(Which, call.args);
    return { done: await withChangeLock(scope(call), () => applyMigrations(scope(call), which)) };
  },
};

/** Rolls back `{ id }` (the newest applied) or `{ all: true }` (applied, newest first); answers `{ done }`. */
export const migrationRollback: DashboardOp = {
  name: 'migrationRollback',
  access: 'projectAdmin',
  async run(call) {
    const which = parseArgs(Which, call.args);
    return { done: await withChangeLock(scope(call), () => rollbackMigrations(scope(call), which)) };
  },
};
