/**
 * Turns a REST request into a DataContext: the caller (with their roles in the project), the
 * project database, limits and the audit sink over the metadata store.
 */
import type { AppContext } from '../../context';
import type { TableModel } from '../../schema/model';
import type { ProjectDb } from '../../schema/project-db';
import { notFound, unauthorized } from '../../lib/errors';
import { projectRolesOf, resolveActor } from '../../http/principal';
import { auditRepo } from '../../meta/audit-repo';
import { aclRepo } from '../../meta/acl-repo';
import { isUnrestricted } from '../../data/access';
import type { AuditSink, DataContext } from '../../data/records-service';

/** Writes data changes to the audit log. */
export function metaAuditSink(ctx: AppContext, projectId: string, dbAlias: string): AuditSink {
  const repo = auditRepo(ctx.meta);
  return async (entries, actor) => {
    for (const e of entries) {
      await repo.write({
        op_type: 'DATA',
        description: e.op,
        project_id: projectId,
        db_alias: dbAlias,
        tn: e.tn,
        cn: e.cn,
        pk: e.pk,
        value: e.value,
        prev_value: e.prevValue,
        user_email: actor.email ?? (actor.kind === 'master' ? 'master key' : actor.kind === 'token' ? 'API token' : null),
      });
    }
  };
}

export async function dataContext(ctx: AppContext, request: Request, projectId: string, dbAlias = 'db'): Promise<DataContext> {
  const actor = await resolveActor(ctx, request);
  if (actor.kind === 'guest') throw unauthorized('Not signed in');
  const pdb = await ctx.projects.get(projectId, dbAlias);
  const projectRoles = await projectRolesOf(ctx, actor, projectId);
  const merged = { ...actor, roles: [...new Set([...actor.roles, ...projectRoles])] };
  return {
    pdb,
    actor: merged,
    acl: isUnrestricted(merged) ? undefined : await aclRepo(ctx.meta).rules(projectId, pdb.dbAlias),
    maxLimit: ctx.config.queryLimitMax,
    countTimeoutMs: ctx.config.countTimeoutMs,
    audit: metaAuditSink(ctx, projectId, dbAlias),
  };
}

/** A table or SQL view by API alias or SQL name, else 404. */
export function tableByName(pdb: ProjectDb, name: string): TableModel {
  const t = pdb.table(decodeURIComponent(name));
  if (!t) throw notFound(`Table '${decodeURIComponent(name)}' not found`);
  return t;
}
