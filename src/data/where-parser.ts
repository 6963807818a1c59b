/**
 * The where language of api-contract section 2, parsed into the query AST.
 *
 *   (col,op,value)~and(col,op,value)~or((a,eq,1)~or(b,eq,2))
 *
 * AND binds tighter than OR (`~not` and `~andnot` mean AND NOT, `~ornot` OR NOT); double
 * parentheses group. A term ends at a `)` followed by `~`, another `)` or the end: the first one
 * that leaves the value's own parentheses balanced ('Live (Disc 1)'), else the first one (a value
 * '%(%'); so a value may hold commas and parentheses, but not `)~` (nor `) ~`: spaces may stand
 * between terms and joiners, `(a,eq,1) ~and (b,eq,2)`). `in`, `nin`, `btw` and
 * `nbtw` split their value on commas. Values are compared as the column's type and bound as
 * parameters; nothing the caller sends becomes SQL text.
 */
import type { Cond, Expr } from '../sql/ast';
import type { ColumnModel, TableModel } from '../schema/model';
import { badRequest } from '../lib/errors';
import { LIMITS } from '../config/limits';
import { columnExpr, resolveColumn } from './columns';
import { coerceValue } from './values';

type Joiner = 'and' | 'or' | 'andnot' | 'ornot';
const JOINERS: Record<string, Joiner> = { and: 'and', or: 'or', not: 'andnot', andnot: 'andnot', ornot: 'ornot' };

const OPS: Record<string, string> = {
  eq: 'eq', neq: 'neq', ne: 'neq', not: 'neq', lt: 'lt', le: 'le', lte: 'le', gt: 'gt', ge: 'ge', gte: 'ge',
  like: 'like', nlike: 'nlike', in: 'in', nin: 'nin', is: 'is', isnot: 'isnot', btw: 'btw', nbtw: 'nbtw',
  blank: 'blank', notblank: 'notblank', empty: 'blank', notempty: 'notblank', checked: 'checked', notchecked: 'notchecked',
};

/** Kinds where '' is blank as NULL is (JSON cannot hold '': PostgreSQL refused the comparison). */
const STRINGY = new Set(['string']);

/**
 * Whether a column can hold '' (blank is then NULL or ''): text columns, but not a native enum that
 * has no '' among its values (a PostgreSQL enum type, a MySQL ENUM): PostgreSQL refused the
 * comparison ('invalid input value for enum mood: ""', a 400 from the database), and a MySQL ENUM in
 * strict mode holds no ''. A Tablo select over a text column keeps it.
 */
function holdsEmptyText(c: ColumnModel): boolean {
  if (!STRINGY.has(c.kind)) return false;
  const nativeEnum = !!c.enumValues?.length && !/char|text|string|clob/i.test(c.dt ?? '');
  return !nativeEnum || c.enumValues!.includes('');
}
const col = (c: ColumnModel, table?: string): Expr => columnExpr(c, table);

/** A filter value as the column's type; a date alone is accepted for date-time columns. */
function filterValue(c: ColumnModel, v: string): Expr {
  if (c.kind === 'datetime' && /^\d{4}-\d{2}-\d{2}$/.test(v.trim())) return { kind: 'val', value: coerceValue(c, `${v.trim()} 00:00:00`) };
  return { kind: 'val', value: coerceValue(c, v) };
}

/**
 * `in` / `nin` over a list of values, each compared as the column's type. SQL's NOT IN drops NULLs;
 * `nin` keeps them, as `neq` does. A null among the values (a JSON condition's `[1, null]`) names the
 * rows without a value: `in` adds IS NULL, `nin` IS NOT NULL.
 */
export function inTerm(c: ColumnModel, not: boolean, values: readonly (string | null)[], table?: string): Cond {
  const left = col(c, table);
  const given = values.filter((x): x is string => x !== null);
  const cond: Cond = { kind: 'in', not, left, values: given.map((x) => filterValue(c, x)) };
  if (given.length === values.length) return not && given.length > 0 ? { kind: 'or', items: [cond, { kind: 'isNull', expr: left }] } : cond;
  const isNull: Cond = { kind: 'isNull', not, expr: left };
  if (given.length === 0) return isNull;
  return not ? { kind: 'and', items: [cond, isNull] } : { kind: 'or', items: [cond, isNull] };
}

/** Builds one comparison term. */
export function buildTerm(t: TableModel, colName: string, rawOp: string, value: string | undefined, table?: string): Cond {
  const op = OPS[rawOp.trim().toLowerCase()];
  if (!op) throw badRequest(`${rawOp} : Invalid comparison operator`);
  const c = resolveColumn(t, colName);
  const left = col(c, table);
  const v = value ?? '';
  const cmp = (o: '=' | '<>' | '<' | '<=' | '>' | '>='): Cond => ({ kind: 'cmp', op: o, left, right: filterValue(c, v) });
  switch (op) {
    case 'eq':
      return cmp('=');
    case 'neq':
      // SQL's <> drops NULLs; "not equal" in a filter keeps them.
      return { kind: 'or', items: [cmp('<>'), { kind: 'isNull', expr: left }] };
    case 'lt':
      return cmp('<');
    case 'le':
      return cmp('<=');
    case 'gt':
      return cmp('>');
    case 'ge':
      return cmp('>=');
    case 'like':
      return { kind: 'like', left, pattern: { kind: 'val', value: v } };
    case 'nlike':
      return { kind: 'or', items: [{ kind: 'like', not: true, left, pattern: { kind: 'val', value: v } }, { kind: 'isNull', expr: left }] };
    case 'in':
    case 'nin':
      return inTerm(c, op === 'nin', v.split(','), table);
    case 'is':
    case 'isnot':
      if (v.trim().toLowerCase() !== 'null') throw badRequest(`${v} : not a valid value since 'is' & 'isnot' only supports value null`);
      return { kind: 'isNull', not: op === 'isnot', expr: left };
    case 'btw':
    case 'nbtw': {
      const parts = v.split(',');
      if (parts.length !== 2 || parts.some((p) => p.trim() === '')) throw badRequest(`${v} : not a valid value. Between requires 2 values`);
      const between: Cond = { kind: 'between', not: op === 'nbtw', expr: left, low: filterValue(c, parts[0]!), high: filterValue(c, parts[1]!) };
      // SQL's NOT BETWEEN drops NULLs; "not between" in a filter keeps them, as `neq` does.
      return op === 'btw' ? between : { kind: 'or', items: [between, { kind: 'isNull', expr: left }] };
    }
    case 'blank':
    case 'notblank': {
      const blank: Cond = holdsEmptyText(c)
        ? { kind: 'or', items: [{ kind: 'isNull', expr: left }, { kind: 'cmp', op: '=', left, right: { kind: 'val', value: '' } }] }
        : { kind: 'isNull', expr: left };
      return op === 'blank' ? blank : { kind: 'not', item: blank };
    }
    default:
      // checked / notchecked. Other columns have no 'ticked' (PostgreSQL answered "operator does not exist: text = boolean").
      if (c.kind !== 'boolean') throw badRequest(`Column '${c._cn}' is not a checkbox: ${op} compares checkboxes only`);
      if (op === 'checked') return { kind: 'cmp', op: '=', left, right: { kind: 'val', value: true } };
      return { kind: 'or', items: [{ kind: 'cmp', op: '=', left, right: { kind: 'val', value: false } }, { kind: 'isNull', expr: left }] };
  }
}

class Parser {
  private i = 0;
  /** `balanced`: a term ends where its value's parentheses are balanced, when such an end exists. */
  constructor(private s: string, private t: TableModel, private table?: string, private balanced = true) {}

  parse(): Cond {
    const c = this.expr(0);
    if (this.i < this.s.length) throw badRequest(`${this.s.slice(this.i)} : not a valid syntax`);
    return c;
  }

  /** A sequence of terms joined by ~and/~or; AND binds tighter. */
  private expr(depth: number): Cond {
    if (depth > LIMITS.whereMaxDepth) throw badRequest(`The where nests groups deeper than ${LIMITS.whereMaxDepth} levels`);
    const orGroups: Cond[][] = [[]];
    let pendingNot = false;
    if (this.s.startsWith('~not', this.i) && this.s[this.i + 4] === '(') {
      this.i += 4;
      pendingNot = true;
    }
    for (;;) {
      const term = this.term(depth);
      orGroups[orGroups.length - 1]!.push(pendingNot ? { kind: 'not', item: term } : term);
      pendingNot = false;
      this.skipSpaces();
      if (this.i >= this.s.length || this.s[this.i] === ')') break;
      if (this.s[this.i] !== '~') throw badRequest(`${this.s.slice(this.i)} : not a valid syntax`);
      const m = /^~([a-zA-Z]+)/.exec(this.s.slice(this.i));
      const word = m?.[1] ?? '';
      const joiner = JOINERS[word.toLowerCase()];
      if (!joiner) throw badRequest(`~${word} Invalid operation.`);
      this.i += 1 + word.length;
      this.skipSpaces();
      if (joiner === 'or' || joiner === 'ornot') orGroups.push([]);
      pendingNot = joiner === 'andnot' || joiner === 'ornot';
    }
    const ands = orGroups.map((g) => (g.length === 1 ? g[0]! : ({ kind: 'and', items: g } as Cond)));
    return ands.length === 1 ? ands[0]! : { kind: 'or', items: ands };
  }

  /** Spaces between terms and joiners (`(a,eq,1) ~and (b,eq,2)`), as a person types them. */
  private skipSpaces(): void {
    while (this.s[this.i] === ' ') this.i++;
  }

  private term(depth: number): Cond {
    const start = this.i;
    if (this.s[this.i] !== '(') throw badRequest(`${this.s.slice(this.i) || this.s} : not a valid syntax`);
    if (this.s[this.i + 1] === '(' || this.s.startsWith('~not(', this.i + 1)) {
      // A group: ( expr ), also one that starts with ~not
      this.i++;
      const inner = this.expr(depth + 1);
      if (this.s[this.i] !== ')') throw badRequest(`${this.s.slice(start)} : Closing bracket not found`);
      this.i++;
      return inner;
    }
    let end = -1;
    let firstEnd = -1;
    // Brackets opened inside the value and not closed yet.
    let open = 0;
    for (let j = this.i + 1; j < this.s.length; j++) {
      if (this.s[j] === '(') open++;
      if (this.s[j] !== ')') continue;
      let k = j + 1;
      while (this.s[k] === ' ') k++;
      const next = this.s[k];
      if (next === undefined || next === '~' || next === ')') {
        if (firstEnd < 0) firstEnd = j;
        if (!this.balanced || open === 0) {
          end = j;
          break;
        }
      }
      if (open > 0) open--;
    }
    if (end < 0) end = firstEnd;
    if (end < 0) throw badRequest(`${this.s.slice(start)} : Closing bracket not found`);
    const body = this.s.slice(this.i + 1, end);
    this.i = end + 1;
    const first = body.indexOf(',');
    if (first < 0) throw badRequest(`(${body}) : not a valid syntax`);
    const second = body.indexOf(',', first + 1);
    const colName = body.slice(0, first);
    const op = second < 0 ? body.slice(first + 1) : body.slice(first + 1, second);
    const value = second < 0 ? undefined : body.slice(second + 1);
    if (!colName.trim() || !op.trim()) throw badRequest(`(${body}) : not a valid syntax`);
    return buildTerm(this.t, colName, op, value, this.table);
  }
}

/** Parses a where string for a table; undefined for an empty string. */
export function parseWhere(where: string | undefined, t: TableModel, table?: string): Cond | undefined {
  if (where === undefined || where.trim() === '') return undefined;
  try {
    return new Parser(where.trim(), t, table).parse();
  } catch {
    // Read term by term with the first possible end (a group closing right after a value such as
    // '%(%'); its error is the one answered when that fails too.
    return new Parser(where.trim(), t, table, false).parse();
  }
}
