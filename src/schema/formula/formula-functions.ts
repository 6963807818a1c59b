/**
 * The functions of the formula language: what the editor suggests (syntax, description, example)
 * and how each becomes engine-neutral SQL (engine spellings live in sql/<engine>/formula-functions.ts).
 */
import type { Cond, DateUnit, Expr } from '../../sql/ast';
import { FormulaError } from './formula-error';
import type { FNode } from './formula-parser';
import { asCond, asDate, asNumber, asText, ffn, fromCond, type FormulaType, type Typed } from './formula-typed';

interface FormulaFunction {
  name: string;
  syntax: string;
  description: string;
  example: string;
  min: number;
  /** Most arguments; Infinity for lists. */
  max: number;
  translate(args: Typed[], node: Extract<FNode, { kind: 'call' }>): Typed;
}

const num = (expr: Expr): Typed => ({ type: 'number', expr });
const str = (expr: Expr): Typed => ({ type: 'string', expr });
const fn = (name: 'abs' | 'ceil' | 'floor' | 'sqrt' | 'power' | 'mod' | 'upper' | 'lower' | 'trim' | 'replace' | 'ln', args: Expr[]): Expr => ({ kind: 'fn', name, args });
const raw = (sql: string): Expr => ({ kind: 'dangerousRaw', sql });
const cmp = (op: '<' | '>' | '=' | '<>', left: Expr, right: Expr): Cond => ({ kind: 'cmp', op, left, right });

/** ln(1.7976931348623157e308), the largest double: a power past it is no number JSON can hold. */
const LN_MAX_DOUBLE = 709.78;
/** Below ln(5e-324), the smallest double: the power is 0 (PostgreSQL fails with 'underflow'). */
const LN_MIN_DOUBLE = -745;

/**
 * POWER that gives NULL where it has no real value or overflows, as SQLite does: PostgreSQL failed
 * every read of the table ('a negative number raised to a non-integer power', 'zero raised to a
 * negative power', 'value overflows numeric format', 'value out of range'), MariaDB too ('DOUBLE
 * value is out of range'). The size of the result is told from exponent * ln|base| before it is
 * computed; the exponent is clamped there so that product cannot overflow either.
 */
function powerGuarded(b: Expr, e: Expr): Expr {
  const NULL = raw('NULL');
  const lnSize: Expr = { kind: 'binary', op: '*', left: ffn('least', ffn('greatest', e, raw('-1000000')), raw('1000000')), right: fn('ln', [ffn('greatest', fn('abs', [b]), raw('1e-300'))]) };
  return {
    kind: 'case',
    whens: [
      // GREATEST and LEAST pass over NULL on PostgreSQL: without this a NULL would reach the size test.
      { when: { kind: 'or', items: [{ kind: 'isNull', expr: b }, { kind: 'isNull', expr: e }] }, then: NULL },
      { when: { kind: 'and', items: [cmp('<', b, raw('0')), cmp('<>', e, fn('floor', [e]))] }, then: NULL },
      { when: { kind: 'and', items: [cmp('=', b, raw('0')), cmp('<', e, raw('0'))] }, then: NULL },
      { when: cmp('>', lnSize, raw(String(LN_MAX_DOUBLE))), then: NULL },
      { when: cmp('<', lnSize, raw(String(LN_MIN_DOUBLE))), then: raw('0') },
    ],
    else: fn('power', [b, e]),
  };
}

/** The numbers of every argument, named in errors by function and position. */
const nums = (f: string, args: Typed[], node: { args: FNode[] }) => args.map((a, i) => asNumber(a, `${f} (argument ${i + 1})`, node.args[i]!.pos));
const sum = (xs: Expr[]): Expr => xs.reduce((l, r) => ({ kind: 'binary', op: '+', left: l, right: r }));

const UNITS: Record<string, DateUnit> = {
  s: 'second', second: 'second', seconds: 'second', minute: 'minute', minutes: 'minute', h: 'hour', hour: 'hour', hours: 'hour',
  d: 'day', day: 'day', days: 'day', w: 'week', week: 'week', weeks: 'week', month: 'month', months: 'month', y: 'year', year: 'year', years: 'year',
};

/** A unit given as a text literal. */
function unitOf(node: FNode | undefined, allowed: DateUnit[], dflt?: DateUnit): DateUnit {
  if (!node && dflt) return dflt;
  const u = node?.kind === 'str' ? UNITS[node.value.trim().toLowerCase()] : undefined;
  if (!u || !allowed.includes(u)) throw new FormulaError(`The unit must be one of ${allowed.map((x) => `'${x}s'`).join(', ')}`, node?.pos);
  return u;
}

/** The common type of alternative results (IF, SWITCH): equal types, else text. */
function common(xs: Typed[]): { type: FormulaType; exprs: Expr[] } {
  const type = xs.every((x) => x.type === xs[0]!.type) ? xs[0]!.type : 'string';
  return { type, exprs: xs.map((x) => (type === 'string' ? asText(x) : x.expr)) };
}

const F: FormulaFunction[] = [
  { name: 'ADD', syntax: 'ADD(value1, [value2, ...])', description: 'Sum of the numbers', example: 'ADD({Price}, {Tax})', min: 1, max: Infinity, translate: (a, n) => num(sum(nums('ADD', a, n))) },
  { name: 'AVG', syntax: 'AVG(value1, [value2, ...])', description: 'Average of the numbers', example: 'AVG({Q1}, {Q2}, {Q3})', min: 1, max: Infinity,
    translate: (a, n) => num({ kind: 'binary', op: '/', left: sum(nums('AVG', a, n)), right: { kind: 'dangerousRaw', sql: String(a.length) } }) },
  { name: 'MIN', syntax: 'MIN(value1, [value2, ...])', description: 'The smallest of the numbers', example: 'MIN({Price}, 100)', min: 1, max: Infinity,
    translate: (a, n) => (a.length === 1 ? num(nums('MIN', a, n)[0]!) : num(ffn('least', ...nums('MIN', a, n)))) },
  { name: 'MAX', syntax: 'MAX(value1, [value2, ...])', description: 'The largest of the numbers', example: 'MAX({Price}, 0)', min: 1, max: Infinity,
    translate: (a, n) => (a.length === 1 ? num(nums('MAX', a, n)[0]!) : num(ffn('greatest', ...nums('MAX', a, n)))) },
  { name: 'CEILING', syntax: 'CEILING(value)', description: 'Rounds up to a whole number', example: 'CEILING({Price})', min: 1, max: 1, translate: (a, n) => num(fn('ceil', nums('CEILING', a, n))) },
  { name: 'FLOOR', syntax: 'FLOOR(value)', description: 'Rounds down to a whole number', example: 'FLOOR({Price})', min: 1, max: 1, translate: (a, n) => num(fn('floor', nums('FLOOR', a, n))) },
  { name: 'ROUND', syntax: 'ROUND(value, [digits])', description: 'Rounds to a number of decimal places (0 by default)', example: 'ROUND({Price} * 1.2, 2)', min: 1, max: 2,
    translate: (a, n) => {
      const [x, d] = nums('ROUND', a, n);
      return num(d ? ffn('round', x!, ffn('int', d)) : ffn('round', x!));
    } },
  { name: 'MOD', syntax: 'MOD(value, divisor)', description: 'Remainder of a division', example: 'MOD({Quantity}, 12)', min: 2, max: 2, translate: (a, n) => {
    // A zero divisor gives NULL, as `%` does: PostgreSQL would fail every read of the table with 'division by zero'.
    const [x, y] = nums('MOD', a, n);
    return num(fn('mod', [x!, ffn('nullIfZero', y!)]));
  } },
  { name: 'POWER', syntax: 'POWER(base, exponent)', description: 'A number raised to a power (empty when it has no real value or is too large)', example: 'POWER({Side}, 2)', min: 2, max: 2,
    translate: (a, n) => {
      const [b, e] = nums('POWER', a, n);
      return num(powerGuarded(b!, e!));
    } },
  { name: 'SQRT', syntax: 'SQRT(value)', description: 'Square root (empty for a negative number)', example: 'SQRT({Area})', min: 1, max: 1,
    translate: (a, n) => {
      const [x] = nums('SQRT', a, n);
      // Some engines fail on a negative number, others answer NULL: NULL everywhere.
      return num({ kind: 'case', whens: [{ when: { kind: 'cmp', op: '<', left: x!, right: { kind: 'dangerousRaw', sql: '0' } }, then: { kind: 'dangerousRaw', sql: 'NULL' } }], else: fn('sqrt', [x!]) });
    } },
  { name: 'ABS', syntax: 'ABS(value)', description: 'Absolute value', example: 'ABS({Balance})', min: 1, max: 1, translate: (a, n) => num(fn('abs', nums('ABS', a, n))) },
  { name: 'CONCAT', syntax: 'CONCAT(text1, [text2, ...])', description: 'Joins texts (empty values count as empty text)', example: "CONCAT({First Name}, ' ', {Last Name})", min: 1, max: Infinity,
    translate: (a) => str(ffn('concat', ...a.map(asText))) },
  { name: 'TRIM', syntax: 'TRIM(text)', description: 'Removes spaces at both ends', example: 'TRIM({Name})', min: 1, max: 1, translate: (a) => str(fn('trim', [asText(a[0]!)])) },
  { name: 'UPPER', syntax: 'UPPER(text)', description: 'Text in capital letters', example: 'UPPER({Name})', min: 1, max: 1, translate: (a) => str(fn('upper', [asText(a[0]!)])) },
  { name: 'LOWER', syntax: 'LOWER(text)', description: 'Text in small letters', example: 'LOWER({Email})', min: 1, max: 1, translate: (a) => str(fn('lower', [asText(a[0]!)])) },
  { name: 'LEN', syntax: 'LEN(text)', description: 'Number of characters', example: 'LEN({Title})', min: 1, max: 1, translate: (a) => num(ffn('len', asText(a[0]!))) },
  { name: 'REPLACE', syntax: 'REPLACE(text, search, replacement)', description: 'Replaces every occurrence of search', example: "REPLACE({Title}, 'Mr', 'Mx')", min: 3, max: 3,
    translate: (a) => str(fn('replace', a.map(asText))) },
  { name: 'SEARCH', syntax: 'SEARCH(text, search)', description: 'Position of search in text (1 for the first character), 0 when absent', example: "SEARCH({Email}, '@')", min: 2, max: 2,
    translate: (a) => num(ffn('search', asText(a[0]!), asText(a[1]!))) },
  { name: 'LEFT', syntax: 'LEFT(text, count)', description: 'The first characters of a text', example: 'LEFT({Name}, 3)', min: 2, max: 2,
    translate: (a, n) => str(ffn('left', asText(a[0]!), ffn('count', asNumber(a[1]!, 'LEFT (argument 2)', n.args[1]!.pos)))) },
  { name: 'RIGHT', syntax: 'RIGHT(text, count)', description: 'The last characters of a text', example: 'RIGHT({Phone}, 4)', min: 2, max: 2,
    translate: (a, n) => str(ffn('right', asText(a[0]!), ffn('count', asNumber(a[1]!, 'RIGHT (argument 2)', n.args[1]!.pos)))) },
  { name: 'MID', syntax: 'MID(text, start, count)', description: 'Characters from a position (1 for the first)', example: 'MID({Code}, 2, 3)', min: 3, max: 3,
    translate: (a, n) => {
      const [start, count] = nums('MID', a.slice(1), { args: n.args.slice(1) });
      return str(ffn('mid', asText(a[0]!), ffn('int', start!), ffn('count', count!)));
    } },
  { name: 'NOW', syntax: 'NOW()', description: 'The current date and time', example: 'NOW()', min: 0, max: 0, translate: () => ({ type: 'date', expr: { kind: 'fn', name: 'now', args: [] } }) },
  { name: 'DATEADD', syntax: "DATEADD(date, count, 'days')", description: "A date moved by a number of seconds, minutes, hours, days, weeks, months or years", example: "DATEADD({Invoice Date}, 30, 'days')", min: 3, max: 3,
    translate: (a, n) => ({
      type: 'date',
      expr: { kind: 'formulaFn', name: 'dateAdd', args: [asDate(a[0]!, 'DATEADD (argument 1)', n.args[0]!.pos), asNumber(a[1]!, 'DATEADD (argument 2)', n.args[1]!.pos)], unit: unitOf(n.args[2], ['second', 'minute', 'hour', 'day', 'week', 'month', 'year']) },
    }) },
  { name: 'DATETIME_DIFF', syntax: "DATETIME_DIFF(date1, date2, ['seconds'])", description: 'date1 minus date2 in whole seconds, minutes, hours, days or weeks', example: "DATETIME_DIFF({Shipped}, {Ordered}, 'days')", min: 2, max: 3,
    translate: (a, n) => num({
      kind: 'formulaFn', name: 'datetimeDiff',
      args: [asDate(a[0]!, 'DATETIME_DIFF (argument 1)', n.args[0]!.pos), asDate(a[1]!, 'DATETIME_DIFF (argument 2)', n.args[1]!.pos)],
      unit: unitOf(n.args[2], ['second', 'minute', 'hour', 'day', 'week'], 'second'),
    }) },
  { name: 'IF', syntax: 'IF(condition, value_if_true, [value_if_false])', description: 'One value or another depending on a condition', example: "IF({Total} > 10, 'big', 'small')", min: 2, max: 3,
    translate: (a) => {
      const { type, exprs } = common(a.slice(1));
      return { type, expr: { kind: 'case', whens: [{ when: asCond(a[0]!), then: exprs[0]! }], else: exprs[1] } };
    } },
  { name: 'SWITCH', syntax: 'SWITCH(expression, value1, result1, [value2, result2, ...], [default])', description: 'The result paired with the first value equal to the expression', example: "SWITCH({Status}, 'A', 'Active', 'I', 'Inactive', 'Unknown')", min: 3, max: Infinity,
    translate: (a) => {
      const [subject, ...rest] = a;
      const pairs = Math.floor(rest.length / 2);
      const results = rest.filter((_, i) => i % 2 === 1 || i === rest.length - 1 && rest.length % 2 === 1);
      const { type, exprs } = common(results);
      const whens = Array.from({ length: pairs }, (_, i) => ({ when: { kind: 'cmp' as const, op: '=' as const, left: subject!.expr, right: rest[2 * i]!.expr }, then: exprs[i]! }));
      return { type, expr: { kind: 'case', whens, else: rest.length % 2 === 1 ? exprs[pairs] : undefined } };
    } },
  { name: 'AND', syntax: 'AND(condition1, [condition2, ...])', description: 'True when every condition is true', example: "AND({Total} > 10, {Country} = 'USA')", min: 1, max: Infinity,
    translate: (a) => fromCond({ kind: 'and', items: a.map(asCond) }) },
  { name: 'OR', syntax: 'OR(condition1, [condition2, ...])', description: 'True when any condition is true', example: "OR({Country} = 'USA', {Country} = 'Canada')", min: 1, max: Infinity,
    translate: (a) => fromCond({ kind: 'or', items: a.map(asCond) }) },
  { name: 'NOT', syntax: 'NOT(condition)', description: 'True when the condition is false', example: "NOT({Country} = 'USA')", min: 1, max: 1, translate: (a) => fromCond({ kind: 'not', item: asCond(a[0]!) }) },
];

/** Functions by upper-case name. */
export const FORMULA_FUNCTIONS = new Map(F.map((f) => [f.name, f]));

/** What the formula editor suggests, in catalogue order. */
export const formulaFunctionList = () => F.map(({ name, syntax, description, example }) => ({ name, syntax, description, example }));
