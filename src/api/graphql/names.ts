/**
 * GraphQL-safe names: every character outside [_0-9A-Za-z] becomes `_`, a leading digit gets a
 * `_` prefix, and names starting with `__` (reserved by introspection) get a `T` prefix.
 *
 * Clashes are resolved deterministically, in model order (tables in catalogue order, columns by
 * position, relations in model order): the second `Foo` becomes `Foo2`, the third `Foo3`.
 * - Object types take their table alias first, for all tables, avoiding the built-in names.
 * - Then each table's input `TInput` and condition `ConditionT` take their name, or the next free
 *   numbered form (`TInput2`) when a table already took it.
 * - Column fields avoid nothing but each other; relation fields (`CList`, `CCount`, `PRead`,
 *   `MMMList`) avoid the table's column fields and each other.
 * Root fields (`TList`, `TRead`, ...) cannot clash once type names are unique, because no root
 * suffix is a suffix of another; a table called `m2mNotChildren` becomes `m2mNotChildren2` so its
 * `TCount` leaves the common `m2mNotChildrenCount` alone.
 * The same schema model therefore always gives the same names.
 */
export function gqlSafe(name: string): string {
  let s = name.replace(/[^_0-9A-Za-z]/g, '_');
  if (/^[0-9]/.test(s)) s = `_${s}`;
  if (s.startsWith('__')) s = `T${s}`;
  return s || '_';
}

/** Assigns unique safe names to a list of raw names, in order, avoiding `reserved`. */
export function uniqueNames(raw: string[], reserved: Set<string> = new Set()): string[] {
  const taken = new Set(reserved);
  return raw.map((r) => {
    const base = gqlSafe(r);
    let out = base;
    for (let i = 2; taken.has(out); i++) out = `${base}${i}`;
    taken.add(out);
    return out;
  });
}

/** Type names built into every schema; no table takes them. */
export const BUILT_IN_TYPES = new Set(['Query', 'Mutation', 'Subscription', 'JSON', 'DateTime', 'BigInt', 'Decimal', 'String', 'Int', 'Float', 'Boolean', 'ID', 'ConditionField', 'm2mNotChildren']);

/** The GraphQL type names of one table. */
export interface TableTypeNames {
  object: string;
  input: string;
  condition: string;
}

/** Object, input and condition type names for tables given by alias, unique across the schema. */
export function tableTypeNames(aliases: string[]): TableTypeNames[] {
  const objects = uniqueNames(aliases, BUILT_IN_TYPES);
  const taken = new Set([...BUILT_IN_TYPES, ...objects]);
  const claim = (base: string) => {
    let out = base;
    for (let i = 2; taken.has(out); i++) out = `${base}${i}`;
    taken.add(out);
    return out;
  };
  return objects.map((object) => ({ object, input: claim(`${object}Input`), condition: claim(`Condition${object}`) }));
}
