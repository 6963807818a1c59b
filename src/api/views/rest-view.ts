/**
 * `view=<id or title>` on the REST reads: the named saved view of the table is looked up and its
 * where, sort and shown fields folded into the request's parameters (resolveViewQuery), which then
 * go to the data core like any other. A request without `view` passes through untouched.
 */
import type { AppContext } from '../../context';
import type { DataContext } from '../../data/data-context';
import type { Params } from '../../data/list-query';
import type { TableModel } from '../../schema/model';
import { resolveViewQuery, type ViewQueryMode } from '../../data/view-query';
import { notFound } from '../../lib/errors';
import { viewsRepo, type ViewRow } from '../../meta/views-repo';

/** A view of table `t` by id or title (case-insensitive), or 404. */
export async function findTableView(ctx: AppContext, projectId: string, dc: DataContext, t: TableModel, idOrTitle: string): Promise<ViewRow> {
  const repo = viewsRepo(ctx.meta);
  const byId = await repo.get(projectId, dc.pdb.dbAlias, idOrTitle);
  if (byId && byId.tn === t.tn) return byId;
  let views = await repo.list(projectId, dc.pdb.dbAlias, t.tn);
  if (!views.some((v) => v.is_default)) {
    await repo.ensureDefault(projectId, dc.pdb.dbAlias, t.tn, dc.actor.userId ?? null);
    views = await repo.list(projectId, dc.pdb.dbAlias, t.tn);
  }
  const want = idOrTitle.trim().toLowerCase();
  const v = views.find((x) => x.title === idOrTitle) ?? views.find((x) => x.title.toLowerCase() === want);
  if (!v) throw notFound(`View '${idOrTitle}' not found on '${t._tn}'`);
  return v;
}

/**
 * Runs `read` with the request's parameters, resolved through the view the request names (if
 * any): synchronously when there is none, so plain reads stay as they were.
 */
export function withView<T>(ctx: AppContext, projectId: string, dc: DataContext, t: TableModel, params: Params, mode: ViewQueryMode, read: (p: Params) => Promise<T>): Promise<T> {
  const name = params.view;
  if (name === undefined || name === '') return read(params);
  return findTableView(ctx, projectId, dc, t, name).then((view) => read(resolveViewQuery(dc, t, view, params, mode)));
}
