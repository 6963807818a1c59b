/**
 * Opens a shared link for one public request: the link (404 once deleted), its password
 * (`xc-password`, see password-guard.ts), its view and table, and a data context with the rights
 * of the link's creator as they are now (a creator who lost the table or a column takes the link
 * with them). The columns a link reaches are the view's shown columns the creator may read.
 */
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import type { ColumnModel, TableModel } from '../../schema/model';
import type { AuditSink, DataContext } from '../../data/data-context';
import { creatableColumns, grantOf, isUnrestricted } from '../../data/access';
import { readScope } from '../../data/read-scope';
import { readableShownColumns } from '../../data/view-query';
import { forbidden, isAppError, notFound } from '../../lib/errors';
import { aclRepo } from '../../meta/acl-repo';
import { auditRepo } from '../../meta/audit-repo';
import { projectsRepo } from '../../meta/projects-repo';
import { usersRepo } from '../../meta/users-repo';
import { viewsRepo, type SharedLinkRow, type ViewRow } from '../../meta/views-repo';
import { clientIp } from '../../http/principal';
import { SHARED_FORM_AUTHOR } from '../../lib/audit-authors';
import type { PasswordGuard } from './password-guard';


/** An opened link: everything a public request works with. */
export interface SharedLink {
  link: SharedLinkRow;
  view: ViewRow;
  table: TableModel;
  /** The creator's rights; writes are audited as made by "shared form". */
  dc: DataContext;
  /** Shown columns the creator may read, in the view's order. */
  columns: ColumnModel[];
}

const NOT_FOUND = 'Shared view not found';
/** Said to a visitor when the link's creator may no longer read what it shows (not which table or why). */
const GONE = 'This shared view is no longer available';

/** The audit sink of shared form submissions. */
function sharedFormAudit(ctx: AppContext, projectId: string, dbAlias: string): AuditSink {
  const repo = auditRepo(ctx.meta);
  return async (entries) => {
    for (const e of entries) {
      await repo.write({ op_type: 'DATA', description: e.op, project_id: projectId, db_alias: dbAlias, tn: e.tn, cn: e.cn, pk: e.pk, value: e.value, prev_value: e.prevValue, user_email: SHARED_FORM_AUTHOR });
    }
  };
}

/** The link's creator as an actor with their current roles in the project, or 403 when gone. */
async function creatorActor(ctx: AppContext, link: SharedLinkRow): Promise<Actor> {
  const user = await usersRepo(ctx.meta).byIdCached(link.created_by);
  if (!user || user.disabled) throw forbidden(GONE);
  const global = user.roles.split(',').filter(Boolean);
  const project = await projectsRepo(ctx.meta).memberRoles(link.project_id, user.id);
  return { kind: 'shared', userId: user.id, email: user.email, roles: [...new Set([...global, ...project])], superAdmin: global.includes('super') };
}

/** Opens link `uuid` for a public request (see the file comment). */
export async function openLink(ctx: AppContext, guard: PasswordGuard, request: Request, uuid: string): Promise<SharedLink> {
  const repo = viewsRepo(ctx.meta);
  const link = /^[0-9a-f-]{36}$/i.test(uuid) ? await repo.link(uuid) : undefined;
  if (!link) throw notFound(NOT_FOUND);
  if (link.password_hash) await guard.check(link.uuid, `${link.uuid}\u0000${clientIp(ctx, request)}`, link.password_hash, request.headers.get('xc-password'));
  const view = await repo.byId(link.view_id);
  if (!view) throw notFound(NOT_FOUND);
  const actor = await creatorActor(ctx, link);
  const pdb = await ctx.projects.get(link.project_id, link.db_alias);
  const table = pdb.model.tables.find((t) => t.tn === view.tn);
  if (!table) throw notFound(NOT_FOUND);
  const dc: DataContext = {
    pdb,
    actor,
    acl: isUnrestricted(actor) ? undefined : await aclRepo(ctx.meta).rules(link.project_id, pdb.dbAlias),
    maxLimit: ctx.config.queryLimitMax,
    countTimeoutMs: ctx.config.countTimeoutMs,
    audit: sharedFormAudit(ctx, link.project_id, pdb.dbAlias),
    // Rows a shared form creates reach webhooks and open grids like every other write.
    events: ctx.writeEvents,
  };
  try {
    readScope(dc, table);
    // A form whose creator may no longer add rows is gone too, rather than a form every submission of which is refused.
    if (view.type === 'form' && !grantOf(actor, dc.acl, table, 'create')) throw forbidden(GONE);
    const shown = readableShownColumns(dc, table, view);
    // A form asks only for what its creator may set on a new row: a field they may not fill would be refused at submission.
    const settable = view.type === 'form' ? new Set(creatableColumns(actor, dc.acl, table).map((c) => c.cn)) : null;
    return { link, view, table, dc, columns: settable ? shown.filter((c) => !c.virtual && settable.has(c.cn)) : shown };
  } catch (e) {
    // The creator lost the table or its columns: the visitor is told the link is gone, not the table's name.
    if (isAppError(e) && e.status === 403) throw forbidden(GONE);
    throw e;
  }
}
