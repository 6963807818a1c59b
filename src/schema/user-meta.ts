/**
 * Applies user metadata (display names, hidden flags, column aliases and order, logical types and
 * their options) on top of an introspected model, then the virtual columns (formulas, rollups,
 * lookups). Metadata of objects that no longer exist is simply not applied.
 */
import type { ColumnModel, SchemaModel, UiType, ValueKind } from './model';

/** JSON-like logical types kept in text columns travel as JSON. */
const kindOf = (uidt: UiType, native: ValueKind): ValueKind =>
  (uidt === 'JSON' || uidt === 'Attachment') && native === 'string' ? 'json' : native;

/** Logical types of text, and the native kinds of numbers. */
const TEXT_TYPES = new Set<UiType>(['SingleLineText', 'LongText', 'Email', 'URL', 'PhoneNumber', 'SingleSelect', 'MultiSelect', 'JSON', 'Attachment']);
const NUMBER_KINDS = new Set<ValueKind>(['integer', 'bigint', 'decimal', 'float']);

/**
 * Whether a stored logical type still fits its column: a text type does not fit a column that now
 * holds numbers (MariaDB's link over a text column makes it the key's type), which shows as the type its
 * native type reads as; undone, the column is text again and shows its stored type again.
 */
const fits = (uidt: UiType, native: ValueKind) => !(TEXT_TYPES.has(uidt) && NUMBER_KINDS.has(native));
import type { TableUserMeta } from '../meta/models-repo';
import { attachVirtuals } from './virtual-columns';

export function applyUserMeta(model: SchemaModel, metas: Map<string, TableUserMeta>): SchemaModel {
  const tables = model.tables.map((t) => {
    const m = metas.get(t.tn);
    if (!m) return t;
    const columns = t.columns.map((c) => {
      const cm = m.columns?.[c.cn];
      if (!cm) return c;
      const typed = cm.uidt && !c.pk && fits(cm.uidt, c.kind) ? { uidt: cm.uidt, kind: kindOf(cm.uidt, c.kind) } : {};
      const options = cm.options?.length && !c.enumValues?.length ? { enumValues: cm.options } : {};
      const meta = cm.meta ? { meta: cm.meta } : {};
      return { ...c, _cn: cm._cn ?? c._cn, hidden: cm.hidden ?? c.hidden, order: cm.order ?? c.order, ...typed, ...options, ...meta };
    });
    // A display order set by the user: ordered columns first, by order; the others keep their place after them.
    if (columns.some((c) => c.order !== undefined)) {
      const pos = new Map(columns.map((c, i) => [c, i]));
      const rank = (c: ColumnModel) => c.order ?? Number.MAX_SAFE_INTEGER;
      columns.sort((a, b) => rank(a) - rank(b) || pos.get(a)! - pos.get(b)!);
    }
    return { ...t, _tn: m._tn ?? t._tn, hidden: m.hidden ?? t.hidden, columns };
  });
  // Renamed aliases may point at relations by alias: keep relation aliases in step with table aliases,
  // still one per relation of a type: two foreign keys to one table stay `Person` and `Person2` (both
  // became `Person`, so REST reached only the first and GraphQL's PersonRead2 had no REST name).
  const aliasOf = new Map(tables.map((t) => [t.tn, t._tn]));
  for (const t of tables) {
    const taken = new Map<string, Set<string>>();
    t.relations = t.relations.map((r) => {
      const base = aliasOf.get(r.rtn);
      if (base === undefined) return r;
      const used = taken.get(r.type) ?? new Set<string>();
      taken.set(r.type, used);
      let alias = base;
      for (let i = 2; used.has(alias); i++) alias = `${base}${i}`;
      used.add(alias);
      return { ...r, alias };
    });
  }
  attachVirtuals(tables, metas);
  return { ...model, tables };
}
