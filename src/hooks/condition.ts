/**
 * A hook's condition: the where language, parsed with the data core's parser into the query AST
 * and evaluated here in code against the written row's values (never evaluated as code, never a
 * query: a deleted row can no longer be read back). Only the table's own columns may be named.
 */
import type { Cond, Expr } from '../sql/ast';
import type { TableModel } from '../schema/model';
import { badRequest } from '../lib/errors';
import { parseWhere } from '../data/where-parser';

type Row = Record<string, unknown>;

/** Parses and checks a condition for a table (400 naming the problem); undefined when empty. */
export function parseHookCondition(where: string | null | undefined, t: TableModel): Cond | undefined {
  const cond = parseWhere(where ?? undefined, t);
  if (cond) checkExprs(cond, t);
  return cond;
}

function checkExprs(c: Cond, t: TableModel): void {
  const ok = (e: Expr) => {
    if (e.kind !== 'col' && e.kind !== 'val') throw badRequest('A hook condition may only name columns of the table itself, not computed columns');
  };
  switch (c.kind) {
    case 'cmp':
      return (ok(c.left), ok(c.right));
    case 'like':
      return (ok(c.left), ok(c.pattern));
    case 'in':
      return (ok(c.left), c.values.forEach(ok));
    case 'isNull':
      return ok(c.expr);
    case 'between':
      return (ok(c.expr), ok(c.low), ok(c.high));
    case 'and':
    case 'or':
      return c.items.forEach((i) => checkExprs(i, t));
    case 'not':
      return checkExprs(c.item, t);
    default:
      throw badRequest('This condition cannot be used by a hook');
  }
}

/** Values made comparable: dates and date-times as epoch ms, numeric text as numbers, booleans as 1/0. */
function norm(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') {
    const s = v.trim();
    if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s);
    if (/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(s)) {
      const ms = Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s.replace(' ', 'T') + (/[Z+-]\d*:?\d*$/.test(s.slice(10)) ? '' : 'Z'));
      if (!Number.isNaN(ms)) return ms;
    }
    if (s === 'true') return 1;
    if (s === 'false') return 0;
    return v;
  }
  if (typeof v === 'object') return JSON.stringify(v);
  return v;
}

function compare(a: unknown, b: unknown): number | null {
  const x = norm(a);
  const y = norm(b);
  if (x === null || y === null) return null;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const sx = String(x).toLowerCase();
  const sy = String(y).toLowerCase();
  return sx < sy ? -1 : sx > sy ? 1 : 0;
}

const likeRegex = (pattern: string) =>
  new RegExp('^' + pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '[\\s\\S]*').replace(/_/g, '[\\s\\S]') + '$', 'i');

/** True when the row (values by display name) matches the parsed condition. */
export function rowMatches(cond: Cond | undefined, row: Row, t: TableModel): boolean {
  if (!cond) return true;
  const byCn = new Map(t.columns.map((c) => [c.cn, c._cn]));
  const value = (e: Expr): unknown => (e.kind === 'col' ? row[byCn.get(e.name) ?? e.name] : e.kind === 'val' ? e.value : null);
  const test = (c: Cond): boolean => {
    switch (c.kind) {
      case 'cmp': {
        const d = compare(value(c.left), value(c.right));
        if (d === null) return false;
        return c.op === '=' ? d === 0 : c.op === '<>' ? d !== 0 : c.op === '<' ? d < 0 : c.op === '<=' ? d <= 0 : c.op === '>' ? d > 0 : c.op === '>=' ? d >= 0 : false;
      }
      case 'like': {
        const v = value(c.left);
        if (v === null || v === undefined) return false;
        return likeRegex(String(value(c.pattern) ?? '')).test(String(v)) !== !!c.not;
      }
      case 'in': {
        const v = value(c.left);
        if (v === null || v === undefined) return false;
        return c.values.some((x) => compare(v, value(x)) === 0) !== !!c.not;
      }
      case 'isNull': {
        const v = value(c.expr);
        return (v === null || v === undefined) !== !!c.not;
      }
      case 'between': {
        const lo = compare(value(c.expr), value(c.low));
        const hi = compare(value(c.expr), value(c.high));
        if (lo === null || hi === null) return false;
        return (lo >= 0 && hi <= 0) !== !!c.not;
      }
      case 'and':
        return c.items.every(test);
      case 'or':
        return c.items.some(test);
      case 'not':
        return !test(c.item);
      default:
        return false;
    }
  };
  return test(cond);
}
