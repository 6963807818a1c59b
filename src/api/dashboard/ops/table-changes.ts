/** tableCreate, tableRename, tableDelete: table changes from the dashboard, recorded as migrations. */
import { z } from 'zod';
import { schemaChangeOp } from './schema-change-op';
import { Alias, ColumnInputArgs, Preview, SqlName } from './ddl-args';
import { planTableCreate, planTableDelete, planTableRename } from '../../../schema/table-changes';
import { tableOf, type ChangePlan } from '../../../schema/change-plan';
import { badRequest } from '../../../lib/errors';
import { checkDefault } from './default-check';
import { choicesOf } from './column-changes';

/** Most columns of a new table: 500 besides its key (an import's widest file, 500 columns, gets an id column). */
const MAX_NEW_TABLE_COLUMNS = 501;

/** Creates a table (`{ tn, _tn?, columns? }`; default columns without a list). */
export const tableCreate = schemaChangeOp(
  'tableCreate',
  z.object({ tn: SqlName, _tn: Alias.optional(), columns: z.array(ColumnInputArgs).min(1).max(MAX_NEW_TABLE_COLUMNS).optional(), ...Preview }),
  async (ctx, a) => {
    if (a._tn && ctx.pdb.model.tables.some((t) => t._tn === a._tn)) throw badRequest(`Another table is already shown as '${a._tn}'`);
    for (const c of a.columns ?? []) if (c.uidt !== 'ID') checkDefault(ctx.engine, { ...c, options: c.options ?? choicesOf(c.meta) }, c.default);
    return planTableCreate(ctx, a);
  },
);

/** Renames a table: `_tn` the display name (metadata), `newTn` the SQL name. */
export const tableRename = schemaChangeOp(
  'tableRename',
  z.object({ tn: z.string().min(1), _tn: Alias.optional(), newTn: SqlName.optional(), ...Preview }),
  async (ctx, a) => {
    if (!a._tn && !a.newTn) throw badRequest('Give a new display name (_tn) or a new SQL name (newTn)');
    const t = tableOf(ctx.pdb, a.tn);
    if (a._tn && ctx.pdb.model.tables.some((x) => x !== t && x._tn === a._tn)) throw badRequest(`Another table is already shown as '${a._tn}'`);
    const renamed: ChangePlan = a.newTn ? await planTableRename(ctx, { tn: t.tn, newTn: a.newTn }) : { title: `Rename table '${t.tn}'`, up: [], down: [], table: t.tn };
    const tn = renamed.table!;
    const alias = a._tn;
    if (!alias) return renamed;
    return {
      ...renamed,
      meta: async (edits) => {
        await renamed.meta?.(edits);
        await edits.set(tn, { ...(await edits.get(tn)), _tn: alias });
      },
    };
  },
);

/** Deletes a table (`{ tn }`). */
export const tableDelete = schemaChangeOp('tableDelete', z.object({ tn: z.string().min(1), ...Preview }), planTableDelete);
