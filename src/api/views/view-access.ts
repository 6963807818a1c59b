/**
 * Who may do what with saved views and shared links: every member who can read a table lists
 * and uses its views; owners, creators and editors (and the Super Admin / master key) create,
 * change, delete and share them. A preview (`xc-preview`) acts with the previewed role.
 */
import type { AppContext } from '../../context';
import type { DataContext } from '../../data/data-context';
import type { TableModel } from '../../schema/model';
import { effectiveRoles, isUnrestricted } from '../../data/access';
import { readScope } from '../../data/read-scope';
import { forbidden, notFound } from '../../lib/errors';
import { dataContext } from '../rest/context';
import { viewsRepo, type ViewRow } from '../../meta/views-repo';

/** Roles (besides owners and creators) that change views. */
const VIEW_EDITOR_ROLES = ['editor'];

/** The caller's data context in the project database of a dashboard call. */
export const callerContext = (ctx: AppContext, request: Request, projectId: string, dbAlias: string): Promise<DataContext> => dataContext(ctx, request, projectId, dbAlias);

/** A table or SQL view by SQL name or alias that the caller may read (404 unknown, 403 refused). */
export function readableTableOf(dc: DataContext, tn: string): TableModel {
  const t = dc.pdb.table(tn);
  if (!t || t.isJunction) throw notFound(`Table '${tn}' not found`);
  readScope(dc, t);
  return t;
}

/** 403 unless the caller may create, change, delete and share views. */
export function assertViewEditor(dc: DataContext): void {
  if (isUnrestricted(dc.actor)) return;
  if (effectiveRoles(dc.actor).some((r) => VIEW_EDITOR_ROLES.includes(r))) return;
  throw forbidden('Not allowed to change views');
}

/** A view of the project database by id whose table the caller may read, with that table. */
export async function viewOf(ctx: AppContext, dc: DataContext, projectId: string, id: string): Promise<{ view: ViewRow; table: TableModel }> {
  const view = await viewsRepo(ctx.meta).get(projectId, dc.pdb.dbAlias, id);
  if (!view) throw notFound(`View '${id}' not found`);
  const t = dc.pdb.model.tables.find((x) => x.tn === view.tn);
  if (!t) throw notFound(`The table of view '${view.title}' no longer exists`);
  readScope(dc, t);
  return { view, table: t };
}
