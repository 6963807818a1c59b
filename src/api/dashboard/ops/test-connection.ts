/** testConnection: the Test button of the external database form. */
import type { DashboardOp } from '../op';
import { parseDbInput } from '../../../schema/connection-input';
import { testConnection as probe } from '../../../sql/open-database';

export const testConnection: DashboardOp = {
  name: 'testConnection',
  access: 'creator',
  async run({ ctx, args }) {
    const a = (args ?? {}) as { db?: unknown };
    const cfg = parseDbInput(a.db ?? args, ctx.dataDir, ctx.config.sqliteAllowDirs);
    await probe(cfg);
    return { ok: true };
  },
};
