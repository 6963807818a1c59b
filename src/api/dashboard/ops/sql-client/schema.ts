/**
 * sqlClientSchema: what the SQL Client's editor completes, read from the project's schema model:
 * the engine (for the dialect) and every table and view with its columns and their native types.
 * Owners and creators only, like the SQL Client itself (it shows hidden tables and columns too).
 */
import type { DashboardOp } from '../../op';

export const sqlClientSchema: DashboardOp = {
  name: 'sqlClientSchema',
  access: 'projectAdmin',
  async run({ ctx, projectId, dbAlias, env }) {
    const pdb = await ctx.projects.get(projectId, dbAlias, env);
    return {
      engine: pdb.db.config.client,
      schema: pdb.model.tables[0]?.schema ?? null,
      tables: pdb.model.tables.map((t) => ({
        name: t.tn,
        type: t.type,
        columns: t.columns.filter((c) => !c.virtual).map((c) => ({ name: c.cn, type: c.dtx ?? c.dt })),
      })),
    };
  },
};
