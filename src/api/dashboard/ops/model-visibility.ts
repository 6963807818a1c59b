/**
 * Meta Management: which tables, views, functions and procedures each role sees in the tree. Kept
 * apart from data rights: hiding a table from a role's tree does not change what it may read.
 *
 * - `modelVisibilityList` -> `{ roles, list: [{ type, name, title, enabled: { role: boolean } }] }`
 * - `disableOrEnableModel` `{ type: 'table'|'view'|'function'|'procedure', name, role, enabled }`
 * Owners and creators only; they always see everything (unless previewing a role).
 */
import { z } from 'zod';
import type { DashboardOp, OpCall } from '../op';
import { parseArgs } from '../op';
import { notFound } from '../../../lib/errors';
import { aclRepo, modelKey, MODEL_TYPES, type ModelType } from '../../../meta/acl-repo';
import { RULE_ROLES, effectiveRoles, isUnrestricted } from '../../../data/access';
import type { SchemaModel } from '../../../schema/model';

const Args = z.object({
  type: z.enum(MODEL_TYPES, { error: `type is one of ${MODEL_TYPES.join(', ')}` }),
  name: z.string().min(1),
  role: z.enum(RULE_ROLES as [string, ...string[]], { error: `role is one of ${RULE_ROLES.join(', ')}` }),
  enabled: z.boolean(),
});

/** The tree objects of a project database, by type. */
function objectsOf(model: SchemaModel): { type: ModelType; name: string; title: string }[] {
  return [
    ...model.tables.filter((t) => t.type === 'table' && !t.isJunction).map((t) => ({ type: 'table' as const, name: t.tn, title: t._tn })),
    ...model.tables.filter((t) => t.type === 'view').map((t) => ({ type: 'view' as const, name: t.tn, title: t._tn })),
    ...model.functions.map((f) => ({ type: 'function' as const, name: f.name, title: f.name })),
    ...model.procedures.map((p) => ({ type: 'procedure' as const, name: p.name, title: p.name })),
  ];
}

/**
 * A filter keeping the objects of `type` the caller's tree shows: all for owners, creators, the
 * Super Admin and the master key; otherwise those enabled for at least one of the caller's roles.
 */
export async function visibleFilter(call: OpCall, dbAlias: string, type: ModelType): Promise<(name: string) => boolean> {
  const actor = { ...call.actor, roles: [...new Set([...call.actor.roles, ...call.projectRoles])] };
  if (isUnrestricted(actor)) return () => true;
  const disabled = await aclRepo(call.ctx.meta).disabled(call.projectId, dbAlias);
  const roles = effectiveRoles(actor).filter((r) => RULE_ROLES.includes(r));
  return (name) => {
    const off = disabled.get(modelKey(type, name));
    return !off || roles.some((r) => !off.has(r));
  };
}

export const modelVisibilityList: DashboardOp = {
  name: 'modelVisibilityList',
  access: 'projectAdmin',
  async run({ ctx, projectId, dbAlias, env }) {
    const pdb = await ctx.projects.get(projectId, dbAlias, env);
    const disabled = await aclRepo(ctx.meta).disabled(projectId, pdb.dbAlias);
    return {
      roles: RULE_ROLES,
      list: objectsOf(pdb.model).map((o) => {
        const off = disabled.get(modelKey(o.type, o.name));
        return { ...o, enabled: Object.fromEntries(RULE_ROLES.map((r) => [r, !off?.has(r)])) };
      }),
    };
  },
};

export const disableOrEnableModel: DashboardOp = {
  name: 'disableOrEnableModel',
  access: 'projectAdmin',
  async run({ ctx, projectId, dbAlias, env, args }) {
    const a = parseArgs(Args, args);
    const pdb = await ctx.projects.get(projectId, dbAlias, env);
    if (!objectsOf(pdb.model).some((o) => o.type === a.type && o.name === a.name)) throw notFound(`No ${a.type} '${a.name}' in this database`);
    await aclRepo(ctx.meta).setEnabled(projectId, pdb.dbAlias, a.type, a.name, a.role, a.enabled);
    return { ...a };
  },
};
