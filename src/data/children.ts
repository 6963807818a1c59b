/**
 * Rows of a has-many child seen through one parent row: list, create with the foreign key set,
 * and read / update / delete a child only when it belongs to that parent.
 */
import type { Cond } from '../sql/ast';
import type { RelationModel, TableModel } from '../schema/model';
import { notFound } from '../lib/errors';
import { tableOf, type DataContext } from './data-context';
import { list, readRaw, listQueryOf, runList } from './records-read';
import { andCond, readScope } from './read-scope';
import { create, remove, update } from './records-write';
import { idCondition } from './row-id';
import { coerceValue } from './values';
import type { Params } from './list-query';

export function hmRelation(dc: DataContext, parent: TableModel, childName: string): RelationModel {
  const rel = parent.relations.find((r) => r.type === 'hm' && (r.alias === childName || r.rtn === childName || tableOf(dc, r.rtn)._tn === childName));
  if (!rel) throw notFound(`'${parent._tn}' has no has-many relation '${childName}'`);
  return rel;
}

/**
 * `/{Parent}/has/{Child}` and `/{Child}/belongs/{Parent}`: the list with that relation nested. The
 * relation is part of the route, so an unknown one is 404 (as for `/{Parent}/{id}/{Child}`).
 */
export function listWithRelation(dc: DataContext, t: TableModel, type: 'hm' | 'bt', name: string, params: Params) {
  readScope(dc, t);
  if (!t.relations.some((r) => r.type === type && (r.alias === name || r.rtn === name || tableOf(dc, r.rtn)._tn === name))) {
    throw notFound(`'${t._tn}' has no ${type === 'hm' ? 'has-many' : 'belongs-to'} relation '${name}'`);
  }
  return list(dc, t, { ...params, [type]: name });
}

/** The child's foreign-key values for one parent row. */
async function fkValues(dc: DataContext, parent: TableModel, parentId: string, rel: RelationModel, where?: Cond): Promise<[string, unknown][]> {
  const row = await readRaw(dc, parent, parentId, where);
  if (!row) throw notFound(`Row '${parentId}' of '${parent._tn}' not found`);
  const child = tableOf(dc, rel.childTable);
  return rel.childColumns.map((cn, i) => {
    const pcol = parent.columns.find((c) => c.cn === rel.parentColumns[i])!;
    return [cn, coerceValue(child.columns.find((c) => c.cn === cn)!, row[pcol._cn])];
  });
}

const fkCond = (fks: [string, unknown][]): Cond => ({
  kind: 'and',
  items: fks.map(([cn, v]) => ({ kind: 'cmp', op: '=', left: { kind: 'col', name: cn }, right: { kind: 'val', value: v as never } }) as Cond),
});

export async function listChildren(dc: DataContext, parent: TableModel, parentId: string, childName: string, params: Params) {
  readScope(dc, parent);
  const rel = hmRelation(dc, parent, childName);
  const child = tableOf(dc, rel.childTable);
  const fks = await fkValues(dc, parent, parentId, rel, readScope(dc, parent).where);
  const q = listQueryOf(dc, child, params);
  return runList(dc, child, { ...q, where: q.where ? { kind: 'and', items: [fkCond(fks), q.where] } : fkCond(fks) });
}

export async function createChild(dc: DataContext, parent: TableModel, parentId: string, childName: string, body: unknown) {
  const rel = hmRelation(dc, parent, childName);
  const child = tableOf(dc, rel.childTable);
  const fks = await fkValues(dc, parent, parentId, rel, readScope(dc, parent).where);
  const values = { ...((body && typeof body === 'object' ? body : {}) as Record<string, unknown>) };
  for (const [cn, v] of fks) {
    const c = child.columns.find((x) => x.cn === cn)!;
    delete values[c._cn];
    values[cn] = v;
  }
  return create(dc, child, values);
}

/** Throws 404 unless the child row exists and belongs to the parent row. */
async function ownedChild(dc: DataContext, parent: TableModel, parentId: string, childName: string, id: string) {
  const rel = hmRelation(dc, parent, childName);
  const child = tableOf(dc, rel.childTable);
  const fks = await fkValues(dc, parent, parentId, rel, readScope(dc, parent).where);
  const q = listQueryOf(dc, child, {});
  const [row] = await runList(dc, child, { ...q, nested: [], where: andCond(idCondition(child, id), fkCond(fks), q.where), limit: 1, offset: 0 });
  if (!row) throw notFound(`Row '${id}' of '${child._tn}' not found under '${parent._tn}' ${parentId}`);
  return { child, row };
}

export async function readChild(dc: DataContext, parent: TableModel, parentId: string, childName: string, id: string) {
  return (await ownedChild(dc, parent, parentId, childName, id)).row;
}

export async function updateChild(dc: DataContext, parent: TableModel, parentId: string, childName: string, id: string, body: unknown) {
  const { child } = await ownedChild(dc, parent, parentId, childName, id);
  return update(dc, child, id, body);
}

export async function deleteChild(dc: DataContext, parent: TableModel, parentId: string, childName: string, id: string) {
  const { child } = await ownedChild(dc, parent, parentId, childName, id);
  return remove(dc, child, id);
}
