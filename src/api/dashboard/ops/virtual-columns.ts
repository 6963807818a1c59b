/**
 * virtualColumnCreate / virtualColumnUpdate / virtualColumnDelete: formula, rollup and lookup
 * columns of a table, kept in its metadata and computed in the list query. Each answers the table
 * as tableMeta does (with `virtuals`). A definition that cannot be computed answers 400 and is
 * not saved. Loading this module starts following schema events (renames and drops).
 */
import { z } from 'zod';
import type { DashboardOp, OpCall } from '../op';
import { parseArgs } from '../op';
import { badRequest, notFound } from '../../../lib/errors';
import { LIMITS } from '../../../config/limits';
import { modelsRepo, type StoredVirtual, type TableUserMeta } from '../../../meta/models-repo';
import type { TableModel } from '../../../schema/model';
import type { ProjectDb } from '../../../schema/project-db';
import { attachVirtuals } from '../../../schema/virtual-columns';
import { followSchemaEvents } from '../../../schema/virtual-column-events';
import { renameRefs } from '../../../schema/formula/formula-text';
import { tableMeta } from './table-meta';
import { ALIAS, VirtualColumnInput, assertFreeAlias, storedVirtual } from './virtual-column-input';

followSchemaEvents();

/** The table, its stored metadata and the repository, or 404. */
async function load(call: OpCall, tn: string) {
  const pdb = await call.ctx.projects.get(call.projectId, call.dbAlias);
  const t = pdb.table(tn);
  if (!t) throw notFound(`Table '${tn}' not found`);
  const repo = modelsRepo(call.ctx.meta);
  const meta: TableUserMeta = (await repo.all(call.projectId, call.dbAlias)).get(t.tn) ?? {};
  return { pdb, t, repo, meta, stored: meta.virtuals ?? [] };
}

/** 400 unless every virtual column named in `check` can be computed with this list. */
function assertComputable(pdb: ProjectDb, t: TableModel, virtuals: StoredVirtual[], check: string[]): void {
  const copy: TableModel = { ...t, virtuals: undefined };
  attachVirtuals([...pdb.model.tables.filter((x) => x.tn !== t.tn), copy], new Map([[t.tn, { virtuals }]]));
  for (const v of copy.virtuals ?? []) {
    if (!check.includes(v._cn)) continue;
    const error = v.formula?.error ?? v.error;
    if (error) throw badRequest(error);
  }
}

/** Saves the list, re-reads the model and answers the table as tableMeta does. */
async function save(call: OpCall, ctx: Awaited<ReturnType<typeof load>>, virtuals: StoredVirtual[]): Promise<unknown> {
  await ctx.repo.set(call.projectId, call.dbAlias, ctx.t.tn, { ...ctx.meta, virtuals });
  await call.ctx.projects.resync(call.projectId, call.dbAlias);
  return tableMeta.run({ ...call, args: { tn: ctx.t.tn } });
}

const CreateArgs = z.object({ tn: z.string().min(1), column: VirtualColumnInput });

export const virtualColumnCreate: DashboardOp = {
  name: 'virtualColumnCreate',
  access: 'projectAdmin',
  schemaChanging: true,
  async run(call) {
    const a = parseArgs(CreateArgs, call.args);
    const ctx = await load(call, a.tn);
    assertFreeAlias(ctx.t, a.column._cn);
    if (ctx.stored.length >= LIMITS.virtualColumnsPerTable) throw badRequest(`A table holds at most ${LIMITS.virtualColumnsPerTable} virtual columns`);
    const virtuals = [...ctx.stored, storedVirtual(ctx.pdb, ctx.t, a.column)];
    assertComputable(ctx.pdb, ctx.t, virtuals, [a.column._cn]);
    return save(call, ctx, virtuals);
  },
};

const UpdateArgs = z.object({
  tn: z.string().min(1),
  _cn: z.string().min(1),
  column: VirtualColumnInput.partial({ _cn: true, uidt: true }),
});

export const virtualColumnUpdate: DashboardOp = {
  name: 'virtualColumnUpdate',
  access: 'projectAdmin',
  schemaChanging: true,
  async run(call) {
    const a = parseArgs(UpdateArgs, call.args);
    const ctx = await load(call, a.tn);
    const i = ctx.stored.findIndex((v) => v._cn === a._cn);
    const current = ctx.t.virtuals?.find((v) => v._cn === a._cn);
    if (i < 0 || !current) throw notFound(`Column '${a._cn}' not found`);
    const name = a.column._cn ?? a._cn;
    if (name !== a._cn) assertFreeAlias(ctx.t, name, a._cn);
    const uidt = a.column.uidt ?? current.uidt;
    // Unchanged parts of the definition come from the current one, as the user sees it.
    const input = parseArgs(VirtualColumnInput, {
      _cn: name,
      uidt,
      formula: a.column.formula ?? current.formula?.text,
      rollup: a.column.rollup ?? (current.rollup && { relation: current.rollup.relation, column: current.rollup.column, fn: current.rollup.fn }),
      lookup: a.column.lookup ?? (current.lookup && { relation: current.lookup.relation, column: current.lookup.column }),
    });
    const next = storedVirtual(ctx.pdb, ctx.t, input);
    let virtuals = ctx.stored.map((v, j) => (j === i ? next : v));
    if (name !== a._cn) {
      virtuals = virtuals.map((v) => (v.formula ? { ...v, formula: { ...v.formula, expr: renameRefs(v.formula.expr, 'v', a._cn, name) } } : v));
    }
    assertComputable(ctx.pdb, ctx.t, virtuals, [name]);
    return save(call, ctx, virtuals);
  },
};

const DeleteArgs = z.object({ tn: z.string().min(1), _cn: ALIAS });

export const virtualColumnDelete: DashboardOp = {
  name: 'virtualColumnDelete',
  access: 'projectAdmin',
  schemaChanging: true,
  async run(call) {
    const a = parseArgs(DeleteArgs, call.args);
    const ctx = await load(call, a.tn);
    if (!ctx.stored.some((v) => v._cn === a._cn)) throw notFound(`Column '${a._cn}' not found`);
    return save(call, ctx, ctx.stored.filter((v) => v._cn !== a._cn));
  },
};
