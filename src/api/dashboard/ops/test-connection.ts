/**
 * testConnection: the Test button of the external database form. Only callers who may connect
 * databases reach it (the dispatcher answers 403 first, connect-rights.ts), and NC_CONNECT_ALLOW
 * is checked before any connection is tried, so it is no port or credential oracle for others.
 * The form editing a stored database (Edit connection) names it with `env` and `dbAlias` beside
 * `project_id`: its owners and creators then test with the stored password when they leave it
 * empty, as Update & Restart does.
 */
import type { DashboardOp } from '../op';
import { forbidden } from '../../../lib/errors';
import { projectRolesOf } from '../../../http/principal';
import { testConnection as probe } from '../../../sql/open-database';
import { assertMayConnect, checkedConnection } from '../connect-rights';
import { keepStoredPassword, storedDb } from './connection-update';

export const testConnection: DashboardOp = {
  name: 'testConnection',
  access: 'creator',
  async run({ ctx, actor, args, projectId }) {
    assertMayConnect(actor);
    const a = (args ?? {}) as { db?: unknown; env?: unknown; dbAlias?: unknown };
    let db = a.db ?? args;
    if (projectId && typeof a.env === 'string' && typeof a.dbAlias === 'string') {
      const roles = await projectRolesOf(ctx, actor, projectId);
      const admin = actor.kind === 'master' || actor.superAdmin || roles.some((r) => r === 'owner' || r === 'creator');
      if (!admin) throw forbidden('Not allowed');
      db = keepStoredPassword(ctx, await storedDb(ctx, projectId, a.env, a.dbAlias), db);
    }
    const cfg = checkedConnection(ctx, db);
    await probe(cfg);
    return { ok: true };
  },
};
