/**
 * Builds a schema-changing dashboard operation from an argument schema and a planner: with
 * `preview: true` it answers the statements only (and `losses`, values the change would alter);
 * otherwise it runs them, records the migration and answers `{ statements, migration, table? }`
 * (the table as tableMeta answers it).
 */
import type { DashboardOp, OpCall } from '../op';
import { parseArgs } from '../op';
import { planContext, type ChangePlan, type PlanContext } from '../../../schema/change-plan';
import { applyChange, withChangeLock } from '../../../schema/apply-change';
import { auditRepo } from '../../../meta/audit-repo';
import { withoutTxControl, type DdlCheck } from '../../../sql/ddl-runner';
import type { Database } from '../../../sql/dialect';
import { badRequest } from '../../../lib/errors';
import { tableMeta } from './table-meta';

type Schema<T> = Parameters<typeof parseArgs<T>>[0];

/** The answer of tableMeta for a table, as change answers carry it. */
export const tableAnswer = (call: OpCall, tn: string) => tableMeta.run({ ...call, args: { tn } });

/** What each loss query of a plan found (one message per query that found a value). */
async function findLosses(db: Database, checks: DdlCheck[] | undefined): Promise<string[]> {
  const found: string[] = [];
  for (const c of checks ?? []) {
    const [row] = await db.driver.query<Record<string, unknown>>({ sql: c.sql, params: [] });
    if (row) found.push(c.message(row));
  }
  return found;
}

/**
 * A projectAdmin, schema-changing operation over `plan`. A change that would alter or drop values
 * (its plan's `losses` find one) is refused unless `acceptLoss` is set; its preview lists them.
 */
export function schemaChangeOp<T extends { preview?: boolean; acceptLoss?: boolean }>(name: string, args: Schema<T>, plan: (ctx: PlanContext, a: T, call: OpCall) => Promise<ChangePlan>): DashboardOp {
  return {
    name,
    access: 'projectAdmin',
    schemaChanging: true,
    async run(call) {
      const a = parseArgs(args, call.args);
      const scope = { meta: call.ctx.meta, projects: call.ctx.projects, projectId: call.projectId, dbAlias: call.dbAlias };
      return withChangeLock(scope, async () => {
        const pdb = await call.ctx.projects.get(call.projectId, call.dbAlias);
        if (call.env && call.env !== pdb.env) {
          // Before anything changes: an unknown environment is a 404; schema changes are made in the working one.
          await call.ctx.projects.get(call.projectId, call.dbAlias, call.env);
          throw badRequest(`Schema changes are made in the working environment '${pdb.env}'; switch to '${call.env}' first`);
        }
        const planned = await plan(planContext(pdb), a, call);
        const p: ChangePlan = { ...planned, up: withoutTxControl(planned.up), down: withoutTxControl(planned.down) };
        const losses = await findLosses(pdb.db, p.losses);
        if (a.preview) return { statements: p.up, ...(losses.length ? { losses } : {}) };
        if (losses.length && !a.acceptLoss) {
          throw badRequest(`${losses.join('; ')}. Nothing was changed: send acceptLoss: true to change the column all the same`);
        }
        const migration = await applyChange(scope, p);
        if (migration) {
          await auditRepo(call.ctx.meta).write({ op_type: 'SCHEMA', project_id: call.projectId, db_alias: call.dbAlias, tn: p.table ?? null, description: p.title, user_email: call.actor.email ?? null });
        }
        return { statements: p.up, migration, ...(p.table ? { table: await tableAnswer(call, p.table) } : {}) };
      });
    },
  };
}
