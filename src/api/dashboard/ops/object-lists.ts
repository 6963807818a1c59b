/**
 * tableList, viewList, functionList, procedureList, sequenceList: the tree's groups, read from
 * the project database's schema model. Junction tables appear only with `includeM2M`. Objects
 * hidden from the caller's roles (Meta Management) are left out. A view that cannot be read
 * carries `broken`, the reason. A table carries `canCreate`: whether the caller may add its rows (and
 * so import into it), for the tree's menu to offer only what the server allows.
 */
import type { DashboardOp } from '../op';
import { visibleFilter } from './model-visibility';
import { grantOf, isUnrestricted } from '../../../data/access';
import { aclRepo } from '../../../meta/acl-repo';
import type { RoutineModel, TableModel } from '../../../schema/model';

const tableView = (t: TableModel) => ({
  tn: t.tn,
  _tn: t._tn,
  type: t.type,
  pks: t.pks,
  isJunction: !!t.isJunction,
  hidden: !!t.hidden,
  ...(t.broken ? { broken: t.broken } : {}),
});

const routineView = (r: RoutineModel) => ({ name: r.name, kind: r.kind, definition: r.definition });

export const tableList: DashboardOp = {
  name: 'tableList',
  access: 'projectMember',
  async run(call) {
    const { ctx, projectId, dbAlias, env, args } = call;
    const includeM2M = !!(args as { includeM2M?: boolean } | undefined)?.includeM2M;
    const pdb = await ctx.projects.get(projectId, dbAlias, env);
    const visible = await visibleFilter(call, pdb.dbAlias, 'table');
    const actor = { ...call.actor, roles: [...new Set([...call.actor.roles, ...call.projectRoles])] };
    const acl = isUnrestricted(actor) ? undefined : await aclRepo(ctx.meta).rules(projectId, pdb.dbAlias);
    const list = pdb.model.tables
      .filter((t) => t.type === 'table' && (includeM2M || !t.isJunction) && visible(t.tn))
      .map((t) => ({ ...tableView(t), canCreate: t.pks.length > 0 && !!grantOf(actor, acl, t, 'create') }));
    return { data: { list } };
  },
};

export const viewList: DashboardOp = {
  name: 'viewList',
  access: 'projectMember',
  async run(call) {
    const pdb = await call.ctx.projects.get(call.projectId, call.dbAlias, call.env);
    const visible = await visibleFilter(call, pdb.dbAlias, 'view');
    return { data: { list: pdb.model.tables.filter((t) => t.type === 'view' && visible(t.tn)).map(tableView) } };
  },
};

const routineList = (name: string, pick: 'functions' | 'procedures' | 'sequences'): DashboardOp => ({
  name,
  access: 'projectMember',
  async run(call) {
    const pdb = await call.ctx.projects.get(call.projectId, call.dbAlias, call.env);
    const type = pick === 'functions' ? 'function' : pick === 'procedures' ? 'procedure' : null;
    const visible = type ? await visibleFilter(call, pdb.dbAlias, type) : () => true;
    return { data: { list: pdb.model[pick].filter((r) => visible(r.name)).map(routineView) } };
  },
});

export const functionList = routineList('functionList', 'functions');
export const procedureList = routineList('procedureList', 'procedures');
export const sequenceList = routineList('sequenceList', 'sequences');
