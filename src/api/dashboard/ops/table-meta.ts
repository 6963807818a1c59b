/**
 * tableMeta: the model of one table or view (columns with types, keys, relations, virtual columns) for the grid,
 * as the caller may see it: hidden columns (and computed columns using them) are left out and `readOnly` says why rows cannot be
 * changed (also when the caller may not read the primary key: then `pks` is empty, as rows have no
 * address for them); `canUpdate` lists the columns the caller may change, `canCreateColumns` those they may
 * set when adding a row (forms offer only these); `canCreate` and `canDelete` say
 * whether the caller may add and delete rows here (each its own right in Roles Management: a role may add
 * rows without changing them, or change them without adding or deleting any).
 */
import { z } from 'zod';
import type { DashboardOp } from '../op';
import { parseArgs } from '../op';
import { notFound } from '../../../lib/errors';
import { assertCan, grantOf, grantsColumn, isUnrestricted, mayComment, restrictTable } from '../../../data/access';
import { scopeVirtuals } from '../../../data/virtual-scope';
import { aclRepo } from '../../../meta/acl-repo';
import { shownTypeMeta } from '../../../schema/column-type-meta';
import type { ColumnTypeMeta, TableModel, VirtualColumnModel } from '../../../sql/model';

const Args = z.object({ tn: z.string().min(1) });

export const tableMeta: DashboardOp = {
  name: 'tableMeta',
  access: 'projectMember',
  async run({ ctx, actor, projectRoles, projectId, dbAlias, env, args }) {
    const { tn } = parseArgs(Args, args);
    const pdb = await ctx.projects.get(projectId, dbAlias, env);
    const t = pdb.table(tn);
    if (!t) throw notFound(`Table '${tn}' not found`);
    const merged = { ...actor, roles: [...new Set([...actor.roles, ...projectRoles])] };
    const acl = isUnrestricted(merged) ? undefined : await aclRepo(ctx.meta).rules(projectId, pdb.dbAlias);
    const read = assertCan(merged, t, 'read', acl);
    const write = grantOf(merged, acl, t, 'update');
    const create = grantOf(merged, acl, t, 'create');
    const remove = grantOf(merged, acl, t, 'delete');
    // Why rows cannot be changed, in the caller's terms: a role that adds rows, or one that only reads (and may comment).
    const writeRefusal = write
      ? null
      : create
        ? `Not allowed to update rows of '${t._tn}'`
        : mayComment(merged)
          ? `Not allowed to update rows of '${t._tn}' (your role may read and comment)`
          : `Not allowed to update rows of '${t._tn}' (your role reads only)`;
    // Computed columns the caller may not read (they use a hidden column or table) are left out too.
    const cut = isUnrestricted(merged) ? t : restrictTable(t, read);
    // Computed columns and relations that depend on a hidden column are left out too.
    const virtuals = isUnrestricted(merged) ? t.virtuals : scopeVirtuals({ pdb, actor: merged, acl }, t, cut).virtuals;
    // A key the caller may not read leaves rows without an address: for them the table has no key.
    const keyHidden = t.pks.some((pk) => !grantsColumn(read, t.columns.find((c) => c.cn === pk)!));
    // A relation to a table (or through a junction) the caller may not read is left out: the grid would ask for its rows and be refused.
    const readable = (name: string) => {
      const x = pdb.model.tables.find((y) => y.tn === name);
      return !x || !!grantOf(merged, acl, x, 'read');
    };
    const relationReadable = (r: TableModel['relations'][number]) => readable(r.rtn) && (!r.junction || readable(r.junction.tn));
    /** A table's display column as the caller may read it (another one when theirs is hidden). */
    const shownDisplay = (x: TableModel) => {
      const g = isUnrestricted(merged) ? null : grantOf(merged, acl, x, 'read');
      const shown = g ? restrictTable(x, g) : x;
      return shown.columns.find((c) => c.cn === shown.displayColumn)?._cn ?? null;
    };
    const aliasOf = (name: string) => pdb.model.tables.find((x) => x.tn === name)?._tn ?? name;
    return {
      tn: t.tn,
      _tn: t._tn,
      type: t.type,
      pks: keyHidden ? [] : t.pks.map((pk) => t.columns.find((c) => c.cn === pk)!._cn),
      displayColumn: cut.columns.find((c) => c.cn === cut.displayColumn)?._cn ?? null,
      readOnly:
        t.type === 'view'
          ? 'SQL views are read-only'
          : t.pks.length === 0
            ? 'This table has no primary key, so its rows cannot be edited'
            : keyHidden
              ? `Your role may not read the primary key of '${t._tn}', so its rows cannot be edited here`
              : writeRefusal,
      canUpdate: t.columns.filter((c) => write && grantsColumn(write, c)).map((c) => c._cn),
      // Rows are added and deleted only where they have an address the caller reads (as they are changed).
      canCreate: t.type === 'table' && t.pks.length > 0 && !keyHidden && !!create,
      canCreateColumns: t.columns.filter((c) => create && grantsColumn(create, c) && grantsColumn(read, c)).map((c) => c._cn),
      canDelete: t.type === 'table' && t.pks.length > 0 && !keyHidden && !!remove,
      columns: t.columns.filter((c) => grantsColumn(read, c)).map((c) => ({
        cn: c.cn, _cn: c._cn, uidt: c.uidt, kind: c.kind, dt: c.dtx ?? c.dt, pk: c.pk, ai: c.ai, nullable: c.nullable,
        default: c.default, enumValues: c.enumValues ?? null, length: c.length ?? null, hidden: !!c.hidden, unique: !!c.unique,
        /** Options of the logical type with its defaults (null for types without options). */
        meta: shownTypeMeta(c),
      })),
      relations: cut.relations.filter((r) => isUnrestricted(merged) || relationReadable(r)).map((r) => {
        const target = pdb.model.tables.find((x) => x.tn === r.rtn)!;
        const alias = (tn: string, cn: string) => pdb.model.tables.find((x) => x.tn === tn)?.columns.find((c) => c.cn === cn)?._cn ?? cn;
        return {
          type: r.type,
          alias: r.alias,
          table: aliasOf(r.rtn),
          /**
           * For belongs-to: this table's foreign-key columns and the parent's key columns (aliases);
           * for has-many: the child's foreign-key columns and this table's columns they refer to.
           */
          columns: r.type === 'bt' || r.type === 'hm' ? r.childColumns.map((c) => alias(r.childTable, c)) : [],
          refColumns: r.type === 'bt' || r.type === 'hm' ? r.parentColumns.map((c) => alias(r.parentTable, c)) : [],
          targetPks: target.pks.map((pk) => alias(target.tn, pk)),
          targetDisplay: shownDisplay(target),
          /** A has-many towards a junction table (its many-to-many relation shows the same links). */
          targetIsJunction: !!target.isJunction,
        };
      }),
      /** Formula, rollup and lookup columns: rows carry their values under `_cn`. */
      virtuals: (virtuals ?? []).map((v) => ({
        _cn: v._cn,
        uidt: v.uidt,
        type: v.type ?? 'string',
        ...(v.formula ? { formula: { text: v.formula.text, ...(v.formula.error ? { error: v.formula.error } : {}) } } : {}),
        ...(v.rollup ? { rollup: { relation: v.rollup.relation, column: v.rollup.column, fn: v.rollup.fn, type: v.rollup.type, rtn: v.rollup.rtn } } : {}),
        ...(v.lookup ? { lookup: { relation: v.lookup.relation, column: v.lookup.column, type: v.lookup.type, rtn: v.lookup.rtn } } : {}),
        ...(v.error ? { error: v.error } : {}),
        ...shownAs(pdb.model.tables, v),
      })),
    };
  },
};

const FORMATTED = new Set(['Currency', 'Percent', 'Decimal', 'Duration']);

/**
 * How a rollup or lookup shows its numbers: a sum, average, minimum or maximum of a Currency (Percent,
 * Decimal, Duration) column, or a belongs-to lookup of one, is formatted as that column is.
 */
function shownAs(tables: TableModel[], v: VirtualColumnModel): { shows?: { uidt: string; meta: ColumnTypeMeta | null } } {
  const spec = v.rollup ?? v.lookup;
  if (!spec || v.error || v.type !== 'number' || (v.rollup && !['sum', 'avg', 'min', 'max'].includes(v.rollup.fn))) return {};
  const col = tables.find((x) => x.tn === spec.rtn)?.columns.find((c) => c._cn === spec.column);
  return col && FORMATTED.has(col.uidt) ? { shows: { uidt: col.uidt, meta: shownTypeMeta(col) } } : {};
}
