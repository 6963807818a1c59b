/**
 * The input of virtualColumnCreate / virtualColumnUpdate (zod) and its conversion to the stored
 * form: formulas made canonical, relations and columns resolved to SQL names. A relation is named
 * by its alias (`relations[].alias` of tableMeta) or as `{ type, rtn }` (rtn: SQL name or alias).
 */
import { z } from 'zod';
import { LIMITS } from '../../../config/limits';
import { badRequest } from '../../../lib/errors';
import type { StoredVirtual } from '../../../meta/models-repo';
import type { RelationModel, TableModel } from '../../../schema/model';
import type { ProjectDb } from '../../../schema/project-db';
import { FormulaError } from '../../../schema/formula/formula-error';
import { toCanonical } from '../../../schema/formula/formula-text';
import { relationKey } from '../../../schema/virtual-relations';

export const ALIAS = z
  .string()
  .trim()
  .min(1, 'A column name cannot be empty')
  .max(LIMITS.virtualColumnAliasMax)
  .regex(/^[^\u0000-\u001f]+$/, 'A column name cannot hold control characters');

const Relation = z.union([z.string().min(1), z.object({ type: z.enum(['hm', 'bt', 'mm']), rtn: z.string().min(1) })]);
const ROLLUP_FNS = ['count', 'min', 'max', 'avg', 'sum', 'countDistinct'] as const;

export const VirtualColumnInput = z.object({
  _cn: ALIAS,
  uidt: z.enum(['Formula', 'Rollup', 'Lookup']),
  formula: z.string().max(LIMITS.formulaMaxLength).optional(),
  rollup: z.object({ relation: Relation, column: z.string().min(1), fn: z.enum(ROLLUP_FNS) }).optional(),
  lookup: z.object({ relation: Relation, column: z.string().min(1) }).optional(),
});
export type VirtualColumnInput = z.infer<typeof VirtualColumnInput>;

const TYPE_PREFERENCE = { Rollup: ['hm', 'mm'], Lookup: ['bt', 'hm', 'mm'] } as const;

/** The relation an input names, or 400. */
function relationOf(pdb: ProjectDb, t: TableModel, name: z.infer<typeof Relation>, uidt: 'Rollup' | 'Lookup'): RelationModel {
  const allowed: readonly string[] = TYPE_PREFERENCE[uidt];
  const candidates =
    typeof name === 'string'
      ? t.relations.filter((r) => r.alias === name)
      : t.relations.filter((r) => r.type === name.type && (r.rtn === name.rtn || pdb.table(name.rtn)?.tn === r.rtn));
  const label = typeof name === 'string' ? name : `${name.type} ${name.rtn}`;
  if (candidates.length === 0) throw badRequest(`'${t._tn}' has no relation '${label}'`);
  const fit = candidates.filter((r) => allowed.includes(r.type)).sort((a, b) => allowed.indexOf(a.type) - allowed.indexOf(b.type));
  if (fit.length === 0) throw badRequest(`A rollup needs a has-many or many-to-many relation; '${label}' is belongs-to`);
  return fit[0]!;
}

/** The stored form of a virtual column input, checked against the model (400 on any problem). */
export function storedVirtual(pdb: ProjectDb, t: TableModel, input: VirtualColumnInput): StoredVirtual {
  const { _cn, uidt } = input;
  if (uidt === 'Formula') {
    if (!input.formula?.trim()) throw badRequest('A formula column needs a formula');
    try {
      return { _cn, uidt, formula: { expr: toCanonical(input.formula, t) } };
    } catch (e) {
      if (e instanceof FormulaError) throw badRequest(e.message);
      throw e;
    }
  }
  const spec = uidt === 'Rollup' ? input.rollup : input.lookup;
  if (!spec) throw badRequest(`A ${uidt.toLowerCase()} column needs ${uidt === 'Rollup' ? 'rollup: { relation, column, fn }' : 'lookup: { relation, column }'}`);
  const rel = relationOf(pdb, t, spec.relation, uidt);
  const target = pdb.model.tables.find((x) => x.tn === rel.rtn)!;
  const col = target.columns.find((c) => c._cn === spec.column) ?? target.columns.find((c) => c.cn === spec.column);
  if (!col) throw badRequest(`Column '${spec.column}' not found in '${target._tn}'`);
  if (uidt === 'Rollup') {
    const fn = input.rollup!.fn;
    const numeric = ['integer', 'bigint', 'decimal', 'float'].includes(col.kind);
    if ((fn === 'sum' || fn === 'avg') && !numeric) throw badRequest(`Column '${col._cn}' is not a number: it cannot be summed or averaged`);
    return { _cn, uidt, rollup: { rel: relationKey(rel), cn: col.cn, fn } };
  }
  return { _cn, uidt, lookup: { rel: relationKey(rel), cn: col.cn } };
}

/** 400 when the alias is taken by a column or another virtual column of the table. */
export function assertFreeAlias(t: TableModel, alias: string, except?: string): void {
  const taken = t.columns.some((c) => c._cn === alias || c.cn === alias) || (t.virtuals ?? []).some((v) => v._cn === alias && v._cn !== except);
  if (taken) throw badRequest(`Another column is already shown as '${alias}'`);
}
