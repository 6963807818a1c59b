/**
 * Turns a REST request into a DataContext: the caller (with their roles in the project), the
 * project database, limits and the audit sink over the metadata store.
 */
import type { AppContext } from '../../context';
import type { TableModel } from '../../schema/model';
import type { ProjectDb } from '../../schema/project-db';
import { badRequest, notFound, unauthorized } from '../../lib/errors';
import { assertTokenProject, cachedActor, cachedProjectRoles, projectRolesOf, resolveActor } from '../../http/principal';
import type { Actor } from '../../lib/actor';
import { auditWriter, type AuditWriter } from '../../meta/audit-backlog';
import { keyRange } from '../../meta/audit-key-range';
import { aclRepo } from '../../meta/acl-repo';
import { isUnrestricted } from '../../data/access';
import { restrictedView } from '../../data/masked-db';
import type { AuditSink, DataContext } from '../../data/records-service';
import { API_TOKEN_AUTHOR, MASTER_KEY_AUTHOR } from '../../lib/audit-authors';

/**
 * Writes data changes to the audit log, all entries of a call in one statement. On the SQLite metadata
 * store the answer does not wait for them (insertLater: committed with others within milliseconds, and
 * before any later statement of the store, so the row's history and the audit log always show them).
 * On PostgreSQL, whose pool does not keep that order, the answer waits. The write they describe has
 * committed: a store that does not take them is logged, never answered (see audit-backlog.ts).
 */
export function metaAuditSink(ctx: AppContext, projectId: string, dbAlias: string): AuditSink {
  const writer = auditWriterOf(ctx);
  return (entries, actor) => {
    const user_email = actor.email ?? (actor.kind === 'master' ? MASTER_KEY_AUTHOR : actor.kind === 'token' ? API_TOKEN_AUTHOR : null);
    return writer.write(
      entries.map((e) => {
        const range = e.ids ? keyRange(e.ids) : null;
        return { op_type: 'DATA', description: e.op, project_id: projectId, db_alias: dbAlias, tn: e.tn, cn: e.cn, pk: e.pk, value: e.value, prev_value: e.prevValue, user_email, pk_lo: range?.lo, pk_hi: range?.hi };
      }),
    );
  };
}

const writers = new WeakMap<AppContext, AuditWriter>();
/** The instance's one writer of data audit records (one backlog while the store does not answer). */
export function auditWriterOf(ctx: AppContext): AuditWriter {
  let w = writers.get(ctx);
  if (!w) writers.set(ctx, (w = auditWriter(ctx.meta, ctx.log)));
  return w;
}

const sinks = new WeakMap<AppContext, Map<string, AuditSink>>();
/** metaAuditSink, made once per project database. */
function auditSinkOf(ctx: AppContext, projectId: string, dbAlias: string): AuditSink {
  let byDb = sinks.get(ctx);
  if (!byDb) sinks.set(ctx, (byDb = new Map()));
  const key = `${projectId}\u0000${dbAlias}`;
  let sink = byDb.get(key);
  if (!sink) {
    if (byDb.size >= 10_000) byDb.clear();
    byDb.set(key, (sink = metaAuditSink(ctx, projectId, dbAlias)));
  }
  return sink;
}

/**
 * The caller with their roles in the project. A cached caller (an API token's) with the same cached
 * roles gets the same object back, so what is derived from it (its plan key) is worked out once.
 */
const merges = new WeakMap<Actor, WeakMap<string[], Actor>>();
function withProjectRoles(actor: Actor, projectRoles: string[]): Actor {
  if (projectRoles.length === 0) return actor;
  let byRoles = merges.get(actor);
  let merged = byRoles?.get(projectRoles);
  if (!merged) {
    merged = { ...actor, roles: [...new Set([...actor.roles, ...projectRoles])] };
    if (!byRoles) merges.set(actor, (byRoles = new WeakMap()));
    byRoles.set(projectRoles, merged);
  }
  return merged;
}

export async function dataContext(ctx: AppContext, request: Request, projectId: string, dbAlias = 'db'): Promise<DataContext> {
  const now = cachedDataContext(ctx, request, projectId, dbAlias);
  if (now) return now;
  const actor = await resolveActor(ctx, request);
  if (actor.kind === 'guest') throw unauthorized('Not signed in');
  // An API token works on its own project only, whatever role it carries.
  assertTokenProject(actor, projectId);
  const pdb = await ctx.projects.get(projectId, dbAlias);
  const merged = withProjectRoles(actor, await projectRolesOf(ctx, actor, projectId));
  const unrestricted = isUnrestricted(merged);
  return {
    // Restricted callers never see the database's own error messages.
    pdb: unrestricted ? pdb : restrictedView(pdb),
    actor: merged,
    acl: unrestricted ? undefined : await aclRepo(ctx.meta).rules(projectId, pdb.dbAlias),
    maxLimit: ctx.config.queryLimitMax,
    countTimeoutMs: ctx.config.countTimeoutMs,
    audit: auditSinkOf(ctx, projectId, dbAlias),
    events: ctx.writeEvents,
  };
}

/**
 * dataContext without awaiting, when everything it needs is cached (signed-in caller, open project,
 * membership, rights); undefined otherwise, and dataContext then takes the usual way.
 */
export function cachedDataContext(ctx: AppContext, request: Request, projectId: string, dbAlias = 'db'): DataContext | undefined {
  const actor = cachedActor(ctx, request);
  // Signed-in users and API tokens of this project (cachedProjectRoles sends other projects' tokens the usual way, which refuses them).
  if (!actor || (actor.kind !== 'user' && actor.kind !== 'token')) return undefined;
  const pdb = ctx.projects.peek(projectId, dbAlias);
  if (!pdb) return undefined;
  const projectRoles = cachedProjectRoles(ctx, actor, projectId);
  if (!projectRoles) return undefined;
  const merged = withProjectRoles(actor, projectRoles);
  let acl: DataContext['acl'];
  const unrestricted = isUnrestricted(merged);
  if (!unrestricted) {
    acl = aclRepo(ctx.meta).cachedRules(projectId, pdb.dbAlias);
    if (!acl) return undefined;
  }
  return { pdb: unrestricted ? pdb : restrictedView(pdb), actor: merged, acl, maxLimit: ctx.config.queryLimitMax, countTimeoutMs: ctx.config.countTimeoutMs, audit: auditSinkOf(ctx, projectId, dbAlias), events: ctx.writeEvents };
}

/** A table or SQL view by API alias or SQL name (as the router decoded it), else 404; a malformed escape 400. */
export function tableByName(pdb: ProjectDb, name: string | null): TableModel {
  if (typeof name !== 'string') throw badRequest('The URL holds a malformed escape (%)');
  const t = pdb.table(name);
  if (!t) throw notFound(`Table '${name}' not found`);
  return t;
}
