/**
 * Parses formula text into a small tree. Precedence, loosest first: comparisons
 * (= == != <> < <= > >=), `&` (text concatenation), + -, * / %, unary minus. Bare TRUE/FALSE
 * are booleans; a name must be followed by `(` (a function call).
 */
import { FormulaError } from './formula-error';
import { tokenize, type Token } from './formula-lexer';

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '&' | '=' | '!=' | '<' | '<=' | '>' | '>=';

export type FNode = { pos: number } & (
  | { kind: 'num'; value: number }
  | { kind: 'str'; value: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'ref'; name: string }
  | { kind: 'call'; name: string; args: FNode[] }
  | { kind: 'neg'; arg: FNode }
  | { kind: 'binary'; op: BinaryOp; left: FNode; right: FNode }
);

const LEVELS: string[][] = [['=', '==', '!=', '<>', '<', '<=', '>', '>='], ['&'], ['+', '-'], ['*', '/', '%']];
const CANONICAL_OP: Record<string, BinaryOp> = { '==': '=', '<>': '!=' };

class Parser {
  private i = 0;
  constructor(private toks: Token[]) {}

  private cur(): Token {
    return this.toks[this.i]!;
  }

  parse(): FNode {
    if (this.cur().kind === 'end') throw new FormulaError('The formula is empty', 0);
    const n = this.level(0);
    if (this.cur().kind !== 'end') throw new FormulaError(`Unexpected '${this.cur().text}'`, this.cur().start);
    return n;
  }

  private level(depth: number): FNode {
    if (depth === LEVELS.length) return this.unary();
    let left = this.level(depth + 1);
    while (this.cur().kind === 'op' && LEVELS[depth]!.includes(this.cur().text)) {
      const op = this.cur();
      this.i++;
      const right = this.level(depth + 1);
      left = { kind: 'binary', op: CANONICAL_OP[op.text] ?? (op.text as BinaryOp), left, right, pos: op.start };
    }
    return left;
  }

  private unary(): FNode {
    const t = this.cur();
    if (t.kind === 'op' && (t.text === '-' || t.text === '+')) {
      this.i++;
      const arg = this.unary();
      return t.text === '-' ? { kind: 'neg', arg, pos: t.start } : arg;
    }
    return this.primary();
  }

  private primary(): FNode {
    const t = this.cur();
    switch (t.kind) {
      case 'num':
        this.i++;
        return { kind: 'num', value: Number(t.text), pos: t.start };
      case 'str':
        this.i++;
        return { kind: 'str', value: t.text, pos: t.start };
      case 'ref':
        this.i++;
        return { kind: 'ref', name: t.text, pos: t.start };
      case '(': {
        this.i++;
        const inner = this.level(0);
        this.expect(')', "Missing ')'");
        return inner;
      }
      case 'name': {
        this.i++;
        const upper = t.text.toUpperCase();
        if (this.cur().kind !== '(') {
          if (upper === 'TRUE' || upper === 'FALSE') return { kind: 'bool', value: upper === 'TRUE', pos: t.start };
          throw new FormulaError(`'${t.text}' is not a function call: column names go in braces, like {${t.text}}`, t.start);
        }
        this.i++;
        const args: FNode[] = [];
        if (this.cur().kind !== ')') {
          for (;;) {
            args.push(this.level(0));
            if (this.cur().kind !== ',') break;
            this.i++;
          }
        }
        this.expect(')', `Missing ')' after the arguments of ${upper}`);
        return { kind: 'call', name: upper, args, pos: t.start };
      }
      case 'end':
        throw new FormulaError('The formula ends too early', t.start);
      default:
        throw new FormulaError(`Unexpected '${t.text}'`, t.start);
    }
  }

  private expect(kind: Token['kind'], msg: string): void {
    if (this.cur().kind !== kind) throw new FormulaError(msg, this.cur().start);
    this.i++;
  }
}

/** The tree of a formula; throws FormulaError with the offset of the problem. */
export function parseFormula(src: string): FNode {
  return new Parser(tokenize(src)).parse();
}
