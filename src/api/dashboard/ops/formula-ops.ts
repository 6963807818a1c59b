/**
 * formulaValidate: checks formula text while the user types (status 200 either way: the type of
 * its value, or the message and position of the first problem). formulaFunctions: the functions
 * the editor suggests.
 */
import { z } from 'zod';
import type { DashboardOp } from '../op';
import { parseArgs } from '../op';
import { notFound } from '../../../lib/errors';
import { LIMITS } from '../../../config/limits';
import { FormulaError } from '../../../schema/formula/formula-error';
import { formulaFunctionList } from '../../../schema/formula/formula-functions';
import { checkFormula } from '../../../schema/virtual-columns';

const Args = z.object({
  tn: z.string().min(1),
  formula: z.string().max(LIMITS.formulaMaxLength),
  /** The virtual column being edited, if any: a formula using it is a cycle. */
  _cn: z.string().optional(),
});

export const formulaValidate: DashboardOp = {
  name: 'formulaValidate',
  // For the formula editor of owners and creators: it names any column of any table with its
  // type, which told other roles about the tables and columns their rights hide.
  access: 'projectAdmin',
  async run({ ctx, projectId, dbAlias, args }) {
    const a = parseArgs(Args, args);
    const pdb = await ctx.projects.get(projectId, dbAlias);
    const t = pdb.table(a.tn);
    if (!t) throw notFound(`Table '${a.tn}' not found`);
    try {
      const typed = checkFormula(t, a.formula, a._cn ? [a._cn] : []);
      return { ok: true, type: typed.type };
    } catch (e) {
      if (!(e instanceof FormulaError)) throw e;
      return e.position === undefined ? { ok: false, msg: e.message } : { ok: false, msg: e.message, position: e.position };
    }
  },
};

export const formulaFunctions: DashboardOp = {
  name: 'formulaFunctions',
  access: 'signedIn',
  async run() {
    return { list: formulaFunctionList() };
  },
};
