/**
 * Saved queries of the SQL Client (per project database, shared by its owners and creators) and
 * the caller's history of runs: sqlQueryList, sqlQuerySave `{ id?, name, sql }`, sqlQueryDelete
 * `{ id }`, sqlHistoryList, sqlHistoryClear.
 */
import { z } from 'zod';
import type { DashboardOp } from '../../op';
import { parseArgs } from '../../op';
import { LIMITS } from '../../../../config/limits';
import { sqlClientRepo } from '../../../../meta/sql-client-repo';
import { historyOwner } from './run';

const Save = z.object({
  id: z.string().min(1).max(64).optional(),
  name: z.string().trim().min(1, 'The name is empty').max(LIMITS.sqlQueryNameMax),
  sql: z.string().min(1, 'The SQL is empty').max(LIMITS.rawSqlMaxLength),
});

export const sqlQueryList: DashboardOp = {
  name: 'sqlQueryList',
  access: 'projectAdmin',
  run: async ({ ctx, projectId, dbAlias }) => ({ list: await sqlClientRepo(ctx.meta).listQueries(projectId, dbAlias) }),
};

export const sqlQuerySave: DashboardOp = {
  name: 'sqlQuerySave',
  access: 'projectAdmin',
  run: async ({ ctx, projectId, dbAlias, actor, args }) => sqlClientRepo(ctx.meta).saveQuery(projectId, dbAlias, parseArgs(Save, args), actor.userId ?? null),
};

export const sqlQueryDelete: DashboardOp = {
  name: 'sqlQueryDelete',
  access: 'projectAdmin',
  async run({ ctx, projectId, dbAlias, args }) {
    const { id } = parseArgs(z.object({ id: z.string().min(1).max(64) }), args);
    await sqlClientRepo(ctx.meta).deleteQuery(projectId, dbAlias, id);
    return { deleted: true };
  },
};

export const sqlHistoryList: DashboardOp = {
  name: 'sqlHistoryList',
  access: 'projectAdmin',
  run: async (call) => ({ list: await sqlClientRepo(call.ctx.meta).history(call.projectId, call.dbAlias, historyOwner(call)) }),
};

export const sqlHistoryClear: DashboardOp = {
  name: 'sqlHistoryClear',
  access: 'projectAdmin',
  async run(call) {
    await sqlClientRepo(call.ctx.meta).clearHistory(call.projectId, call.dbAlias, historyOwner(call));
    return { cleared: true };
  },
};
