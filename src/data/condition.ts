/**
 * JSON filters: `condition` ({ col: { eq|neq|like|nlike|gt|ge|lt|le|in|nin: v }, _or: [...],
 * _and: [...], _not: {...} }) and `conditionGraph`, which filters by related rows
 * ({ City: { relationType: 'hm', city_id: { eq: 1 } } } becomes an EXISTS over the relation).
 */
import { ONE } from '../sql/ast';
import type { Cond, Expr, Select } from '../sql/ast';
import type { RelationModel, TableModel } from '../schema/model';
import { badRequest } from '../lib/errors';
import { LIMITS } from '../config/limits';
import { buildTerm, inTerm } from './where-parser';
import { resolveColumn } from './columns';

const OPS = new Set(['eq', 'neq', 'ne', 'like', 'nlike', 'gt', 'ge', 'lt', 'le', 'gte', 'lte', 'in', 'nin', 'is', 'isnot', 'btw', 'nbtw', 'blank', 'notblank', 'checked', 'notchecked']);

function parseJson(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest(`${name} is not valid JSON`);
  }
}

/** One value as the where language's text; an object as its JSON (String() would say [object Object]). */
const oneText = (x: unknown) => (x === null ? 'null' : typeof x === 'object' ? JSON.stringify(x) : String(x));
const asText = (v: unknown) => (Array.isArray(v) ? v.map(oneText).join(',') : oneText(v));

/** Operators whose value is ignored or must be null: a JSON null passes to them as the word null. */
const NULL_OK = new Set(['is', 'isnot', 'blank', 'notblank', 'checked', 'notchecked']);

/**
 * The flag operators and their opposites: `{ blank: false }` asks for the rows that are not blank
 * (it answered the blank ones, the value being ignored as the where language's `(col,blank)` ignores it).
 */
const FLAG_OPPOSITE: Record<string, string> = { blank: 'notblank', notblank: 'blank', checked: 'notchecked', notchecked: 'checked' };

/**
 * One `{ col: { op: v } }` entry. JSON null is SQL NULL: `eq: null` is IS NULL, `neq: null` IS NOT
 * NULL, a null in an `in` / `nin` array matches (or leaves out) the rows without a value, and an
 * ordering or pattern against null is a 400 (the text 'null' is never compared). Array elements of
 * `in` / `nin` are values each, commas and all.
 */
function jsonTerm(t: TableModel, key: string, op: string, v: unknown, table?: string): Cond {
  if ((op === 'in' || op === 'nin') && Array.isArray(v)) {
    return inTerm(resolveColumn(t, key), op === 'nin', v.map((x) => (x === null ? null : typeof x === 'object' ? JSON.stringify(x) : String(x))), table);
  }
  if (FLAG_OPPOSITE[op] && (v === false || v === 'false')) return buildTerm(t, key, FLAG_OPPOSITE[op]!, undefined, table);
  if (v === null && !NULL_OK.has(op)) {
    if (op === 'eq') return buildTerm(t, key, 'is', 'null', table);
    if (op === 'neq' || op === 'ne') return buildTerm(t, key, 'isnot', 'null', table);
    throw badRequest(`Column '${resolveColumn(t, key)._cn}': ${op} cannot compare with null`);
  }
  return buildTerm(t, key, op, asText(v), table);
}

/** A condition object for one table. */
export function conditionToCond(obj: unknown, t: TableModel, table?: string, depth = 0): Cond | undefined {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw badRequest('condition must be a JSON object');
  if (depth > LIMITS.whereMaxDepth) throw badRequest(`condition nests _and, _or and _not deeper than ${LIMITS.whereMaxDepth} levels`);
  const items: Cond[] = [];
  for (const [key, value] of Object.entries(obj)) {
    if (key === '_or' || key === '_and') {
      if (!Array.isArray(value)) throw badRequest(`condition ${key} must be an array`);
      const parts = value.map((v) => conditionToCond(v, t, table, depth + 1)).filter((c): c is Cond => !!c);
      if (parts.length) items.push({ kind: key === '_or' ? 'or' : 'and', items: parts });
    } else if (key === '_not') {
      const inner = conditionToCond(value, t, table, depth + 1);
      if (inner) items.push({ kind: 'not', item: inner });
    } else {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest(`condition on '${key}' must be an object like { "eq": value }`);
      for (const [op, v] of Object.entries(value)) {
        if (!OPS.has(op)) throw badRequest(`${op} : Invalid comparison operator`);
        items.push(jsonTerm(t, key, op, v, table));
      }
    }
  }
  return items.length === 0 ? undefined : items.length === 1 ? items[0] : { kind: 'and', items };
}

export function parseCondition(text: string | undefined, t: TableModel, table?: string): Cond | undefined {
  if (!text || !text.trim()) return undefined;
  return conditionToCond(parseJson(text, 'condition'), t, table);
}

const colsEq = (a: string[], aTable: string, b: string[], bTable: string): Cond[] =>
  a.map((c, i) => ({ kind: 'cmp', op: '=', left: { kind: 'col', name: c, table: aTable }, right: { kind: 'col', name: b[i]!, table: bTable } }) as Cond);

/** EXISTS over one relation of `t` (referenced as `outer`), filtered by `cond` on the related rows. */
export function relationExists(rel: RelationModel, outer: string, related: TableModel, cond: Cond | undefined, schema?: string): Select {
  const inner = '__rel';
  const where = (links: Cond[]): Cond => ({ kind: 'and', items: [...links, ...(cond ? [cond] : [])] });
  if (rel.type === 'hm') {
    return { kind: 'select', from: { name: rel.childTable, schema, alias: inner }, columns: [{ expr: ONE }], where: where(colsEq(rel.childColumns, inner, rel.parentColumns, outer)) };
  }
  if (rel.type === 'bt') {
    return { kind: 'select', from: { name: rel.parentTable, schema, alias: inner }, columns: [{ expr: ONE }], where: where(colsEq(rel.parentColumns, inner, rel.childColumns, outer)) };
  }
  const j = rel.junction!;
  return {
    kind: 'select',
    from: { name: j.tn, schema, alias: '__j' },
    joins: [{ type: 'inner', table: { name: related.tn, schema, alias: inner }, on: { kind: 'and', items: colsEq(j.targetRefColumns, inner, j.targetColumns, '__j') } }],
    columns: [{ expr: ONE }],
    where: where(colsEq(j.columns, '__j', j.refColumns, outer)),
  };
}

/** A related table as a filter may use it: its (readable) columns and the row condition on the filter's alias. */
export type FilterTable = (tn: string, alias: string) => { table: TableModel; where?: Cond } | undefined;

/**
 * Filters by related rows. `tables` decides what of each related table the filter may use: a
 * table it answers nothing for is unknown (400 as a missing relation), its hidden columns are
 * unknown columns, and its row condition applies inside the EXISTS.
 */
export function parseConditionGraph(
  text: string | undefined,
  t: TableModel,
  tables: FilterTable,
  table?: string,
): Cond | undefined {
  if (!text || !text.trim()) return undefined;
  const obj = parseJson(text, 'conditionGraph');
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw badRequest('conditionGraph must be a JSON object');
  const items: Cond[] = [];
  for (const [name, spec] of Object.entries(obj as Record<string, unknown>)) {
    if (spec === null || typeof spec !== 'object') throw badRequest(`conditionGraph entry '${name}' must be an object`);
    const { relationType, ...rest } = spec as Record<string, unknown>;
    const type = (relationType ?? 'hm') as string;
    const rel = t.relations.find((r) => r.type === type && (r.alias === name || r.rtn === name));
    const related = rel && tables(rel.rtn, '__rel');
    if (!rel || !related) throw badRequest(`'${t._tn}' has no ${type} relation '${name}'`);
    const inner = conditionToCond(rest, related.table, '__rel');
    const cond = inner && related.where ? { kind: 'and' as const, items: [inner, related.where] } : (inner ?? related.where);
    items.push({ kind: 'exists', query: relationExists(rel, table ?? t.tn, related.table, cond, t.schema) });
  }
  return items.length === 0 ? undefined : items.length === 1 ? items[0] : { kind: 'and', items };
}
