/**
 * Compiled SQL of the plain nested queries kept per shape (relation, query kind, fields and number
 * of keys): a page of 25 rows asks the same `... IN (?, ..., ?)` text on every request, so only
 * the key values (and the trailing cap, when there is one) are bound anew.
 */
import type { Compiled, SqlValue } from '../sql/ast';
import type { RelationModel } from '../schema/model';

/** Shapes kept per relation before the relation's shapes are forgotten. */
const SHAPES_MAX = 64;
/** SQL text by shape; its parameters are the key values, then the tail when there is one. */
const shapes = new WeakMap<RelationModel, Map<string, string>>();

/** Values bound as they are by every driver: no conversion can hide between them and the SQL. */
const plain = (values: SqlValue[]) => values.every((v) => typeof v === 'number' || typeof v === 'string' || typeof v === 'bigint');

/**
 * The compiled query for `values` (the key values, in order) and `tail` (a last parameter, or
 * undefined): from the shape's SQL text when known, else from `build()`, whose result is kept only
 * when its parameters are exactly the key values followed by the tail.
 */
export function shapedCompile(rel: RelationModel, shapeKey: string, values: SqlValue[], tail: number | undefined, build: () => Compiled): Compiled {
  let byKey = shapes.get(rel);
  const key = `${shapeKey}|${values.length}`;
  const known = byKey?.get(key);
  if (known !== undefined && plain(values)) return { sql: known, params: tail === undefined ? values : [...values, tail] };
  const c = build();
  if (!plain(values) || (tail !== undefined && values.includes(tail))) return c;
  const n = values.length;
  if (c.params.length !== n + (tail === undefined ? 0 : 1) || (tail !== undefined && c.params[n] !== tail)) return c;
  for (let i = 0; i < n; i++) if (c.params[i] !== values[i]) return c;
  if (!byKey) shapes.set(rel, (byKey = new Map()));
  if (byKey.size >= SHAPES_MAX) byKey.clear();
  byKey.set(key, c.sql);
  return c;
}
