/**
 * Applies user metadata (display names, hidden flags, column aliases and order) on top of an
 * introspected model, then the virtual columns (formulas, rollups, lookups). Metadata of objects
 * that no longer exist is simply not applied.
 */
import type { SchemaModel } from './model';
import type { TableUserMeta } from '../meta/models-repo';
import { attachVirtuals } from './virtual-columns';

export function applyUserMeta(model: SchemaModel, metas: Map<string, TableUserMeta>): SchemaModel {
  const tables = model.tables.map((t) => {
    const m = metas.get(t.tn);
    if (!m) return t;
    const columns = t.columns.map((c) => {
      const cm = m.columns?.[c.cn];
      return cm ? { ...c, _cn: cm._cn ?? c._cn, hidden: cm.hidden ?? c.hidden, order: cm.order ?? c.order } : c;
    });
    return { ...t, _tn: m._tn ?? t._tn, hidden: m.hidden ?? t.hidden, columns };
  });
  // Renamed aliases may point at relations by alias: keep relation aliases in step with table aliases.
  const aliasOf = new Map(tables.map((t) => [t.tn, t._tn]));
  for (const t of tables) {
    t.relations = t.relations.map((r) => ({ ...r, alias: aliasOf.get(r.rtn) ?? r.alias }));
  }
  attachVirtuals(tables, metas);
  return { ...model, tables };
}
