/**
 * columnAdd, columnUpdate, columnDelete (schema changes recorded as migrations) and columnReorder
 * (display order in metadata only).
 */
import { z } from 'zod';
import type { DashboardOp } from '../op';
import { parseArgs } from '../op';
import { schemaChangeOp, tableAnswer } from './schema-change-op';
import { ColumnChangeArgs, ColumnInputArgs, Preview } from './ddl-args';
import { planColumnAdd, planColumnDelete, planColumnUpdate } from '../../../schema/column-changes';
import { columnOf, tableOf } from '../../../schema/change-plan';
import { modelsRepo } from '../../../meta/models-repo';
import { badRequest } from '../../../lib/errors';
import { checkDefault } from './default-check';

/** Choice titles given as `meta.options` (strings or `{ title }`), if any. */
export const choicesOf = (meta: Record<string, unknown> | undefined): string[] | undefined =>
  Array.isArray(meta?.options) ? meta.options.map((o) => (typeof o === 'string' ? o : String((o as { title?: unknown }).title))) : undefined;

const displayNameFree = (t: { columns: { cn: string; _cn: string }[] }, _cn: string | undefined, except?: string) => {
  if (_cn && t.columns.some((c) => c.cn !== except && c._cn === _cn)) throw badRequest(`Another column is already shown as '${_cn}'`);
};

/** Adds a column (`{ tn, column: ColumnInput }`). */
export const columnAdd = schemaChangeOp('columnAdd', z.object({ tn: z.string().min(1), column: ColumnInputArgs, ...Preview }), async (ctx, a) => {
  displayNameFree(tableOf(ctx.pdb, a.tn), a.column._cn);
  checkDefault(ctx.engine, { ...a.column, options: a.column.options ?? choicesOf(a.column.meta) }, a.column.default);
  return planColumnAdd(ctx, a);
});

/**
 * Changes a column (`{ tn, cn, column, acceptLoss? }`): SQL name, type, nullability, default,
 * uniqueness; display name and logical type in metadata. A type change that would alter values
 * (12.5 to a whole number) runs only with `acceptLoss: true`.
 */
export const columnUpdate = schemaChangeOp(
  'columnUpdate',
  z.object({ tn: z.string().min(1), cn: z.string().min(1), column: ColumnChangeArgs, acceptLoss: z.boolean().optional(), ...Preview }),
  async (ctx, a) => {
    const t = tableOf(ctx.pdb, a.tn);
    const c = columnOf(t, a.cn);
    displayNameFree(t, a.column._cn, c.cn);
    const ch = a.column;
    const typed = ch.uidt !== undefined && ch.uidt !== c.uidt;
    const options = ch.options ?? choicesOf(ch.meta) ?? (typed ? undefined : c.enumValues);
    checkDefault(ctx.engine, { cn: ch.cn ?? c.cn, _cn: ch._cn ?? c._cn, uidt: ch.uidt ?? c.uidt, dtxp: ch.dtxp, options, meta: typed ? undefined : c.meta }, ch.default);
    return planColumnUpdate(ctx, a);
  },
);

/** Deletes a column (`{ tn, cn }`). */
export const columnDelete = schemaChangeOp('columnDelete', z.object({ tn: z.string().min(1), cn: z.string().min(1), ...Preview }), planColumnDelete);

const ReorderArgs = z.object({ tn: z.string().min(1), order: z.array(z.string().min(1)).min(1).max(1000) });

/** Display order of columns (metadata only); columns not listed follow the listed ones. */
export const columnReorder: DashboardOp = {
  name: 'columnReorder',
  access: 'projectAdmin',
  async run(call) {
    const a = parseArgs(ReorderArgs, call.args);
    const { ctx, projectId, dbAlias } = call;
    const t = tableOf(await ctx.projects.get(projectId, dbAlias), a.tn);
    const names = a.order.map((n) => columnOf(t, n).cn);
    if (new Set(names).size !== names.length) throw badRequest('A column is listed twice');
    const repo = modelsRepo(ctx.meta);
    const m = (await repo.all(projectId, dbAlias)).get(t.tn) ?? {};
    const columns = { ...(m.columns ?? {}) };
    for (const c of t.columns) {
      const i = names.indexOf(c.cn);
      const { order: _old, ...rest } = columns[c.cn] ?? {};
      columns[c.cn] = i >= 0 ? { ...rest, order: i } : rest;
    }
    await repo.set(projectId, dbAlias, t.tn, { ...m, columns });
    await ctx.projects.resync(projectId, dbAlias);
    return { table: await tableAnswer(call, t.tn) };
  },
};

