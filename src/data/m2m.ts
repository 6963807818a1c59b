/**
 * Many-to-many: rows of the target not yet linked to a parent (the "link a record" picker), and
 * linking / unlinking through the junction table.
 */
import { ONE } from '../sql/ast';
import type { Cond } from '../sql/ast';
import type { RelationModel, TableModel } from '../schema/model';
import { badRequest, conflict, notFound } from '../lib/errors';
import { assertCan, grantCondition } from './access';
import { andCond, readScope } from './read-scope';
import { executorOf, tableOf, type DataAuditEntry, type DataContext } from './data-context';
import { parseFields, parseLimit, parseOffset, parseSort, pick, type Params } from './list-query';
import { parseWhere } from './where-parser';
import { readRaw } from './records-read';
import { selectItems, tableRef } from './select-builder';
import { toApiRow } from './row-maker';
import { defaultNestedFields } from './nested';
import { coerceValue } from './values';
import { recordWrite } from './write-events';

/** The mm relation of `t` named by the target table or the junction table (alias or SQL name). */
export function mmRelation(dc: DataContext, t: TableModel, name: string): RelationModel {
  const rel = t.relations.find((r) => {
    if (r.type !== 'mm') return false;
    const target = tableOf(dc, r.rtn);
    const junction = tableOf(dc, r.junction!.tn);
    return [r.alias, r.rtn, target._tn, junction.tn, junction._tn].includes(name);
  });
  if (!rel) throw notFound(`'${t._tn}' has no many-to-many relation '${name}'`);
  return rel;
}

/** `{ list, info: { count } }`: target rows not linked to the parent row. */
export async function m2mNotChildren(dc: DataContext, t: TableModel, assoc: string, parentId: string, params: Params) {
  const own = readScope(dc, t);
  const rel = mmRelation(dc, t, assoc);
  const full = tableOf(dc, rel.rtn);
  const scope = readScope(dc, full, full.tn);
  const target = scope.table;
  const parent = await readRaw(dc, t, parentId, own.where);
  if (!parent) throw notFound(`Row '${parentId}' of '${t._tn}' not found`);
  const j = rel.junction!;
  const junction = tableOf(dc, j.tn);
  const linkCond: Cond = {
    kind: 'and',
    items: [
      ...j.columns.map((jc, i) => {
        const pcol = t.columns.find((c) => c.cn === j.refColumns[i])!;
        const jcol = junction.columns.find((c) => c.cn === jc)!;
        return { kind: 'cmp', op: '=', left: { kind: 'col', name: jc, table: '__j' }, right: { kind: 'val', value: coerceValue(jcol, parent[pcol._cn]) } } as Cond;
      }),
      ...j.targetColumns.map((jc, i) => ({ kind: 'cmp', op: '=', left: { kind: 'col', name: jc, table: '__j' }, right: { kind: 'col', name: j.targetRefColumns[i]!, table: target.tn } }) as Cond),
    ],
  };
  const notLinked: Cond = { kind: 'exists', not: true, query: { kind: 'select', from: tableRef(junction, '__j'), columns: [{ expr: ONE }], where: linkCond } };
  const extra = parseWhere(pick(params, 'where', 'w'), target, target.tn);
  const where: Cond = andCond(notLinked, extra, scope.where)!;
  // The list's parameters and their aliases (l, o, s, f); a column named in fields that does not exist, or that the caller may not read, is a 400.
  const wanted = pick(params, 'fields', 'f');
  const named = wanted ? parseFields(target, wanted).filter((c) => !c.virtual) : [];
  const fields = named.length ? named : defaultNestedFields(target);
  const { compile } = dc.pdb.db.dialect;
  const exec = executorOf(dc);
  const rows = await exec.query<Record<string, unknown>>(
    compile({ kind: 'select', from: tableRef(target), columns: selectItems(target, fields, [], target.tn), where, orderBy: parseSort(target, pick(params, 'sort', 's'), target.tn), limit: parseLimit(pick(params, 'limit', 'l'), dc.maxLimit), offset: parseOffset(pick(params, 'offset', 'o')) }),
  );
  const [c] = await dc.pdb.db.driver.queryTimed<{ count: unknown }>(
    compile({ kind: 'select', from: tableRef(target), columns: [{ expr: { kind: 'fn', name: 'count', args: [{ kind: 'star' }] }, as: 'count' }], where }),
    dc.countTimeoutMs,
  );
  return { list: rows.map((r) => toApiRow(fields, r)), info: { count: Number(c?.count ?? 0) } };
}

async function junctionRow(dc: DataContext, t: TableModel, id: string, targetName: string, targetId: string) {
  const rel = t.relations.find((r) => r.type === 'mm' && (r.alias === targetName || r.rtn === targetName || tableOf(dc, r.rtn)._tn === targetName));
  if (!rel) throw notFound(`'${t._tn}' has no many-to-many relation '${targetName}'`);
  const target = tableOf(dc, rel.rtn);
  const junction = tableOf(dc, rel.junction!.tn);
  assertCan(dc.actor, junction, 'create', dc.acl);
  const parent = await readRaw(dc, t, id, grantCondition(assertCan(dc.actor, t, 'update', dc.acl), t));
  if (!parent) throw notFound(`Row '${id}' of '${t._tn}' not found`);
  const child = await readRaw(dc, target, targetId, readScope(dc, target).where);
  if (!child) throw notFound(`Row '${targetId}' of '${target._tn}' not found`);
  const j = rel.junction!;
  const values: [string, unknown][] = [
    ...j.columns.map((jc, i) => [jc, parent[t.columns.find((c) => c.cn === j.refColumns[i])!._cn]] as [string, unknown]),
    ...j.targetColumns.map((jc, i) => [jc, child[target.columns.find((c) => c.cn === j.targetRefColumns[i])!._cn]] as [string, unknown]),
  ];
  const bound = values.map(([cn, v]) => [cn, coerceValue(junction.columns.find((c) => c.cn === cn)!, v)] as const);
  return { junction, bound, target, parent, child };
}

/**
 * The audit entries of a link made or removed: one on each of the two rows (so each row's history
 * names it), holding the other row's table, id and display value.
 */
function linkEntries(t: TableModel, id: string, parent: Record<string, unknown>, target: TableModel, targetId: string, child: Record<string, unknown>, op: 'link' | 'unlink'): DataAuditEntry[] {
  const other = (tbl: TableModel, rowId: string, row: Record<string, unknown>) => {
    const display = tbl.columns.find((c) => c.cn === tbl.displayColumn);
    const label = display ? row[display._cn] : undefined;
    return JSON.stringify({ tn: tbl.tn, id: rowId, ...(label === undefined || label === null ? {} : { label: String(label) }) });
  };
  return [
    { tn: t.tn, cn: null, pk: id, value: other(target, targetId, child), prevValue: null, op },
    { tn: target.tn, cn: null, pk: targetId, value: other(t, id, parent), prevValue: null, op },
  ];
}

/** The junction row's linking values by display name (what write events carry). */
const junctionData = (junction: TableModel, bound: readonly (readonly [string, unknown])[]) =>
  Object.fromEntries(bound.map(([cn, v]) => [junction.columns.find((c) => c.cn === cn)?._cn ?? cn, v]));

export async function link(dc: DataContext, t: TableModel, id: string, targetName: string, targetId: string): Promise<{ msg: string }> {
  const { junction, bound, target, parent, child } = await junctionRow(dc, t, id, targetName, targetId);
  const where: Cond = { kind: 'and', items: bound.map(([cn, v]) => ({ kind: 'cmp', op: '=', left: { kind: 'col', name: cn }, right: { kind: 'val', value: v } }) as Cond) };
  const { compile } = dc.pdb.db.dialect;
  const exec = executorOf(dc);
  if ((await exec.query(compile({ kind: 'select', from: tableRef(junction), columns: [{ expr: ONE, as: 'one' }], where, limit: 1 }))).length) {
    throw conflict('These rows are already linked');
  }
  await exec.execute(compile({ kind: 'insert', table: tableRef(junction), columns: bound.map(([cn]) => cn), rows: [bound.map(([, v]) => ({ kind: 'val', value: v }) as const)] }));
  await dc.audit?.(linkEntries(t, id, parent, target, targetId, child, 'link'), dc.actor);
  recordWrite(dc, junction.tn, 'insert', { data: junctionData(junction, bound) });
  return { msg: 'The rows are linked' };
}

export async function unlink(dc: DataContext, t: TableModel, id: string, targetName: string, targetId: string): Promise<{ msg: string }> {
  const { junction, bound, target, parent, child } = await junctionRow(dc, t, id, targetName, targetId);
  if (junction.pks.length === 0) throw badRequest(`'${junction._tn}' has no primary key`);
  const where: Cond = { kind: 'and', items: bound.map(([cn, v]) => ({ kind: 'cmp', op: '=', left: { kind: 'col', name: cn }, right: { kind: 'val', value: v } }) as Cond) };
  const res = await executorOf(dc).execute(dc.pdb.db.dialect.compile({ kind: 'delete', table: tableRef(junction), where }));
  if (res.affected === 0) throw notFound('These rows are not linked');
  await dc.audit?.(linkEntries(t, id, parent, target, targetId, child, 'unlink'), dc.actor);
  recordWrite(dc, junction.tn, 'delete', { data: junctionData(junction, bound) });
  return { msg: 'The rows are unlinked' };
}

