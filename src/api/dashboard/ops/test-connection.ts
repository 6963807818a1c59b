/**
 * testConnection: the Test button of the external database form. Only callers who may connect
 * databases reach it (the dispatcher answers 403 first, connect-rights.ts), and NC_CONNECT_ALLOW
 * is checked before any connection is tried, so it is no port or credential oracle for others.
 */
import type { DashboardOp } from '../op';
import { testConnection as probe } from '../../../sql/open-database';
import { assertMayConnect, checkedConnection } from '../connect-rights';

export const testConnection: DashboardOp = {
  name: 'testConnection',
  access: 'creator',
  async run({ ctx, actor, args }) {
    assertMayConnect(actor);
    const a = (args ?? {}) as { db?: unknown };
    const cfg = checkedConnection(ctx, a.db ?? args);
    await probe(cfg);
    return { ok: true };
  },
};
