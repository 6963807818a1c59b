/** metaSync: reads the database schema again and answers what was added, changed and removed. */
import type { DashboardOp } from '../op';

export const metaSync: DashboardOp = {
  name: 'metaSync',
  access: 'projectAdmin',
  async run({ ctx, projectId, dbAlias }) {
    return ctx.projects.sync(projectId, dbAlias);
  },
};
