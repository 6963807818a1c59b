/**
 * Typed SQL pieces of a formula: an expression with the formula type of its value. Booleans keep
 * their condition, so IF, AND and comparisons compile to conditions, not to 0/1 values.
 */
import type { Cond, Expr, FormulaFnName } from '../../sql/ast';
import { FormulaError } from './formula-error';

/** The types a formula can have. */
export type FormulaType = 'string' | 'number' | 'boolean' | 'date';

export interface Typed {
  type: FormulaType;
  expr: Expr;
  /** For booleans: the condition itself. */
  cond?: Cond;
}

/** A call of an engine-spelled formula function. */
export const ffn = (name: FormulaFnName, ...args: Expr[]): Expr => ({ kind: 'formulaFn', name, args });

/** A boolean from a condition. */
export const fromCond = (cond: Cond): Typed => ({ type: 'boolean', cond, expr: { kind: 'cond', cond } });

/** Any value as a condition: booleans as they are, numbers as "not 0", others as "not empty". */
export function asCond(x: Typed): Cond {
  if (x.cond) return x.cond;
  if (x.type === 'boolean') return { kind: 'truthy', expr: x.expr };
  if (x.type === 'number') return { kind: 'cmp', op: '<>', left: x.expr, right: { kind: 'dangerousRaw', sql: '0' } };
  return { kind: 'isNull', not: true, expr: x.expr };
}

/** Any value as text (numbers and dates cast; text literals are typed already). */
export const asText = (x: Typed): Expr => (x.type === 'string' ? x.expr : ffn('text', x.expr));

/** A number, or an error naming the function and the argument. */
export function asNumber(x: Typed, what: string, pos: number): Expr {
  if (x.type !== 'number') throw new FormulaError(`${what} needs a number, not ${article(x.type)}`, pos);
  return x.expr;
}

/** A date (or text holding one: NULL when it holds none), or an error. */
export function asDate(x: Typed, what: string, pos: number): Expr {
  if (x.type !== 'date' && x.type !== 'string') throw new FormulaError(`${what} needs a date, not ${article(x.type)}`, pos);
  return x.type === 'string' ? ffn('toDate', x.expr) : x.expr;
}

export const article = (t: FormulaType) => (t === 'string' ? 'text' : `a ${t}`);
