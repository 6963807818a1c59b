/**
 * Who may reach database servers from Tablo, and where: creating projects, testing connections
 * and adding or editing a project's databases are for the Super Admin (and the master key) and for
 * users the Super Admin allowed (Users page, "may create projects"); NC_CONNECT_ALLOW can narrow
 * the host:port targets further, and SQLite files stay in the projects area (sqlite-path.ts). Every
 * refusal comes before any connection is tried.
 */
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { forbidden } from '../../lib/errors';
import { assertConnectTarget, parseDbInput } from '../../schema/connection-input';

/** Refuses (403) a caller who may not connect databases. */
export function assertMayConnect(actor: Actor): void {
  if (actor.kind === 'master' || (actor.superAdmin && !actor.previewAs)) return;
  if (actor.kind === 'user' && actor.mayCreateProjects && !actor.previewAs) return;
  throw forbidden('Only the Super Admin and users they allow may create projects and connect databases');
}

/** The connection of a form, validated, with its SQLite file confined and its server target allowed. */
export function checkedConnection(ctx: AppContext, input: unknown) {
  const cfg = parseDbInput(input, ctx.dataDir, ctx.config.sqliteAllowDirs);
  assertConnectTarget(cfg, ctx.config.connectAllow);
  return cfg;
}
