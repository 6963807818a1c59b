/**
 * Roles Management: data rights per table and role.
 *
 * - `aclList` `{ tn? }` -> `{ roles, list: [{ tn, _tn, type, columns: [{ cn, _cn }], rules: { role: { read,
 *   create, update, delete, where, stored } } }] }`: the rule in force for each role (stored, or the
 *   role's default with `stored: false`); column lists hold SQL column names.
 * - `aclSave` `{ tn, role, rule }`: stores a rule (`read`/`create`/`update`: true, false or a list of
 *   columns by SQL name or alias; `delete`: boolean; `where`: a row condition in the where language
 *   with `$user.id` / `$user.email`); `rule: null` restores the role's default.
 * Owners and creators only; owners and creators themselves always have every right.
 */
import { z } from 'zod';
import type { DashboardOp } from '../op';
import { parseArgs } from '../op';
import { badRequest, isAppError, notFound } from '../../../lib/errors';
import { LIMITS } from '../../../config/limits';
import { aclRepo, type ColumnGrant, type TableRule } from '../../../meta/acl-repo';
import { RULE_ROLES, bindUserPlaceholders, defaultRule } from '../../../data/access';
import { findColumn } from '../../../data/columns';
import { parseWhere } from '../../../data/where-parser';
import type { TableModel } from '../../../schema/model';
import { followAclSchemaEvents } from '../acl-schema-events';

followAclSchemaEvents();

const Grant = z.union([z.boolean(), z.array(z.string().min(1)).min(1, 'Choose at least one column, or allow none')]);
const Rule = z.object({
  read: Grant,
  create: Grant,
  update: Grant,
  delete: z.boolean(),
  where: z.string().max(LIMITS.rowConditionMaxLength).nullish(),
});
const SaveArgs = z.object({ tn: z.string().min(1), role: z.enum(RULE_ROLES as [string, ...string[]], { error: `Roles with rules are ${RULE_ROLES.join(', ')}` }), rule: Rule.nullable() });
const ListArgs = z.object({ tn: z.string().min(1).optional() });

/** Column names (SQL name or alias) -> SQL names; unknown names answer 400. */
function columnsOf(t: TableModel, g: ColumnGrant, op: string): ColumnGrant {
  if (typeof g === 'boolean') return g;
  return [...new Set(g.map((name) => {
    const c = findColumn(t, name);
    if (!c) throw badRequest(`${op}: column '${name}' not found in '${t._tn}'`);
    return c.cn;
  }))];
}

/** Checks a row condition parses for this table (with sample user values). */
function checkCondition(t: TableModel, where: string): void {
  const text = bindUserPlaceholders(where, { userId: 'id', email: 'user@example.com' }) ?? where;
  try {
    parseWhere(text, t);
  } catch (e) {
    throw badRequest(`Row condition: ${isAppError(e) ? e.message : 'not valid'}`);
  }
}

export const aclList: DashboardOp = {
  name: 'aclList',
  access: 'projectAdmin',
  async run({ ctx, projectId, dbAlias, env, args }) {
    const { tn } = parseArgs(ListArgs, args);
    const pdb = await ctx.projects.get(projectId, dbAlias, env);
    const stored = await aclRepo(ctx.meta).rules(projectId, pdb.dbAlias);
    const tables = pdb.model.tables.filter((t) => !t.isJunction && (!tn || t.tn === tn || t._tn === tn));
    if (tn && tables.length === 0) throw notFound(`Table '${tn}' not found`);
    return {
      roles: RULE_ROLES,
      list: tables.map((t) => ({
        tn: t.tn,
        _tn: t._tn,
        type: t.type,
        columns: t.columns.map((c) => ({ cn: c.cn, _cn: c._cn })),
        rules: Object.fromEntries(
          RULE_ROLES.map((role) => {
            const rule = stored.get(t.tn)?.[role];
            return [role, { ...(rule ?? defaultRule(role)), where: rule?.where ?? null, stored: !!rule }];
          }),
        ),
      })),
    };
  },
};

export const aclSave: DashboardOp = {
  name: 'aclSave',
  access: 'projectAdmin',
  async run({ ctx, projectId, dbAlias, env, args }) {
    const { tn, role, rule } = parseArgs(SaveArgs, args);
    const pdb = await ctx.projects.get(projectId, dbAlias, env);
    const t = pdb.table(tn);
    if (!t) throw notFound(`Table '${tn}' not found`);
    let clean: TableRule | null = null;
    if (rule) {
      const where = rule.where?.trim() || null;
      if (where) checkCondition(t, where);
      clean = { read: columnsOf(t, rule.read, 'read'), create: columnsOf(t, rule.create, 'create'), update: columnsOf(t, rule.update, 'update'), delete: rule.delete, where };
    }
    await aclRepo(ctx.meta).save(projectId, pdb.dbAlias, t.tn, role, clean);
    return { tn: t.tn, role, rule: clean ?? defaultRule(role), stored: !!clean };
  },
};
