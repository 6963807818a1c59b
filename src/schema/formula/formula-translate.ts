/**
 * Type-checks a parsed formula and turns it into the engine-neutral query AST. Column references
 * are resolved by the caller (`ref`), which also expands referenced formulas; literals become
 * bound parameters (typed where an engine needs it); division by zero gives NULL on every engine.
 */
import type { CmpOp, Expr } from '../../sql/ast';
import { ISO_DATE_TEXT } from '../../sql/formula-spellings';
import { FormulaError } from './formula-error';
import { FORMULA_FUNCTIONS } from './formula-functions';
import type { FNode } from './formula-parser';
import { article, asNumber, asText, ffn, fromCond, type Typed } from './formula-typed';

/** Resolves a reference (as written in the tree) to a typed expression, or throws FormulaError. */
export type RefResolver = (name: string, pos: number) => Typed;

const CMP: Record<string, CmpOp> = { '=': '=', '!=': '<>', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

const ISO_DATE = new RegExp(ISO_DATE_TEXT);

/**
 * One side of a comparison. Text compared with a date is read as a date: a text literal holding an
 * ISO date stays an untyped value (every engine reads it as a date, and an index on the date column
 * still serves), other text becomes a date or NULL (PostgreSQL failed every read of the table on
 * text that holds no date, and on a text column compared with a date: 'operator does not exist').
 */
function compared(x: Typed, node: FNode, other: Typed): Expr {
  if (x.type !== 'string' || other.type !== 'date') return x.expr;
  if (node.kind === 'str' && ISO_DATE.test(node.value)) return { kind: 'val', value: node.value };
  return ffn('toDate', x.expr);
}

/** The typed SQL of a formula tree. */
export function translateFormula(n: FNode, ref: RefResolver): Typed {
  const go = (x: FNode) => translateFormula(x, ref);
  switch (n.kind) {
    case 'num':
      return { type: 'number', expr: ffn('numLit', { kind: 'val', value: n.value }) };
    case 'str':
      return { type: 'string', expr: ffn('strLit', { kind: 'val', value: n.value }) };
    case 'bool':
      return fromCond({ kind: 'const', value: n.value });
    case 'ref':
      return ref(n.name, n.pos);
    case 'neg':
      return { type: 'number', expr: { kind: 'binary', op: '-', left: { kind: 'dangerousRaw', sql: '0' }, right: asNumber(go(n.arg), "'-'", n.pos) } };
    case 'call': {
      const f = FORMULA_FUNCTIONS.get(n.name);
      if (!f) throw new FormulaError(`Unknown function ${n.name}`, n.pos);
      if (n.args.length < f.min || n.args.length > f.max) {
        const want = f.min === f.max ? `${f.min}` : f.max === Infinity ? `at least ${f.min}` : `${f.min} to ${f.max}`;
        throw new FormulaError(`${f.name} takes ${want} argument${want === '1' ? '' : 's'}: ${f.syntax}`, n.pos);
      }
      return f.translate(n.args.map(go), n);
    }
    case 'binary': {
      const l = go(n.left);
      const r = go(n.right);
      if (n.op === '&') return { type: 'string', expr: ffn('concat', asText(l), asText(r)) };
      if (CMP[n.op]) {
        if (l.type !== r.type && !(l.type === 'date' && r.type === 'string') && !(l.type === 'string' && r.type === 'date')) {
          throw new FormulaError(`Cannot compare ${article(l.type)} with ${article(r.type)}`, n.pos);
        }
        return fromCond({ kind: 'cmp', op: CMP[n.op]!, left: compared(l, n.left, r), right: compared(r, n.right, l) });
      }
      const left = asNumber(l, `'${n.op}'`, n.left.pos);
      const right = asNumber(r, `'${n.op}'`, n.right.pos);
      const op = n.op as '+' | '-' | '*' | '/' | '%';
      const expr: Expr = { kind: 'binary', op, left, right: op === '/' || op === '%' ? ffn('nullIfZero', right) : right };
      return { type: 'number', expr };
    }
  }
}
