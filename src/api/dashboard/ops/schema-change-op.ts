/**
 * Builds a schema-changing dashboard operation from an argument schema and a planner: with
 * `preview: true` it answers the statements only; otherwise it runs them, records the migration
 * and answers `{ statements, migration, table? }` (the table as tableMeta answers it).
 */
import type { DashboardOp, OpCall } from '../op';
import { parseArgs } from '../op';
import { planContext, type ChangePlan, type PlanContext } from '../../../schema/change-plan';
import { applyChange, withChangeLock } from '../../../schema/apply-change';
import { auditRepo } from '../../../meta/audit-repo';
import { withoutTxControl } from '../../../sql/ddl-runner';
import { tableMeta } from './table-meta';

type Schema<T> = Parameters<typeof parseArgs<T>>[0];

/** The answer of tableMeta for a table, as change answers carry it. */
export const tableAnswer = (call: OpCall, tn: string) => tableMeta.run({ ...call, args: { tn } });

/** A projectAdmin, schema-changing operation over `plan`. */
export function schemaChangeOp<T extends { preview?: boolean }>(name: string, args: Schema<T>, plan: (ctx: PlanContext, a: T, call: OpCall) => Promise<ChangePlan>): DashboardOp {
  return {
    name,
    access: 'projectAdmin',
    schemaChanging: true,
    async run(call) {
      const a = parseArgs(args, call.args);
      const scope = { meta: call.ctx.meta, projects: call.ctx.projects, projectId: call.projectId, dbAlias: call.dbAlias };
      return withChangeLock(scope, async () => {
        const pdb = await call.ctx.projects.get(call.projectId, call.dbAlias);
        const planned = await plan(planContext(pdb), a, call);
        const p: ChangePlan = { ...planned, up: withoutTxControl(planned.up), down: withoutTxControl(planned.down) };
        if (a.preview) return { statements: p.up };
        const migration = await applyChange(scope, p);
        if (migration) {
          await auditRepo(call.ctx.meta).write({ op_type: 'SCHEMA', project_id: call.projectId, db_alias: call.dbAlias, tn: p.table ?? null, description: p.title, user_email: call.actor.email ?? null });
        }
        return { statements: p.up, migration, ...(p.table ? { table: await tableAnswer(call, p.table) } : {}) };
      });
    },
  };
}
