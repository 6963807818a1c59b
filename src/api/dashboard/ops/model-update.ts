/**
 * modelUpdate: the user's metadata of one table or view (display name, hidden, column display
 * names and hidden flags). It renames nothing in the database and survives schema syncs.
 */
import { z } from 'zod';
import type { DashboardOp } from '../op';
import { parseArgs } from '../op';
import { badRequest, notFound } from '../../../lib/errors';
import { modelsRepo } from '../../../meta/models-repo';
import { Alias as ALIAS } from './ddl-args';

const Args = z.object({
  tn: z.string().min(1),
  _tn: ALIAS.optional(),
  hidden: z.boolean().optional(),
  columns: z.record(z.string(), z.object({ _cn: ALIAS.optional(), hidden: z.boolean().optional() })).optional(),
});

export const modelUpdate: DashboardOp = {
  name: 'modelUpdate',
  access: 'projectAdmin',
  async run({ ctx, projectId, dbAlias, args }) {
    const a = parseArgs(Args, args);
    const pdb = await ctx.projects.get(projectId, dbAlias);
    const t = pdb.table(a.tn);
    if (!t) throw notFound(`Table '${a.tn}' not found`);
    if (a._tn && pdb.model.tables.some((x) => x !== t && x._tn === a._tn)) throw badRequest(`Another table is already shown as '${a._tn}'`);
    const repo = modelsRepo(ctx.meta);
    const current = (await repo.all(projectId, dbAlias)).get(t.tn) ?? {};
    const columns = { ...(current.columns ?? {}) };
    for (const [name, change] of Object.entries(a.columns ?? {})) {
      const c = t.columns.find((x) => x.cn === name || x._cn === name);
      if (!c) throw badRequest(`Column '${name}' not found`);
      const taken = (alias: string) => t.columns.some((x) => x !== c && x._cn === alias) || (t.virtuals ?? []).some((v) => v._cn === alias);
      if (change._cn && taken(change._cn)) throw badRequest(`Another column is already shown as '${change._cn}'`);
      columns[c.cn] = { ...columns[c.cn], ...change };
    }
    await repo.set(projectId, dbAlias, t.tn, { ...current, ...(a._tn ? { _tn: a._tn } : {}), ...(a.hidden !== undefined ? { hidden: a.hidden } : {}), columns });
    await ctx.projects.resync(projectId, dbAlias);
    const updated = (await ctx.projects.get(projectId, dbAlias)).table(t.tn)!;
    return { tn: updated.tn, _tn: updated._tn, hidden: !!updated.hidden, columns: updated.columns.map((c) => ({ cn: c.cn, _cn: c._cn, hidden: !!c.hidden })) };
  },
};
