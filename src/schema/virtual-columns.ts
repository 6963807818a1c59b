/**
 * Turns stored virtual columns (table metadata) into the model's VirtualColumnModel: display text
 * with the current aliases, the value's type and kind, and `expr`, the SQL of the value. Formulas
 * may use other virtual columns of their table (expanded in place; a cycle is an error); a
 * virtual column that cannot be computed any more keeps its definition, says why in its error
 * and reads as NULL.
 */
import type { Expr, FormulaFnName } from '../sql/ast';
import { FORMULA_ARG_USES } from '../sql/formula-arg-uses';
import { LIMITS } from '../config/limits';
import type { StoredVirtual, TableUserMeta } from '../meta/models-repo';
import type { ColumnModel, TableModel, ValueKind, VirtualColumnModel } from './model';
import { FormulaError } from './formula/formula-error';
import { parseFormula, type FNode } from './formula/formula-parser';
import { splitRef, toDisplay } from './formula/formula-text';
import { translateFormula } from './formula/formula-translate';
import type { FormulaType, Typed } from './formula/formula-typed';
import { findStoredRelation, lookupExpr, rollupExpr } from './virtual-relations';

const NULL: Expr = { kind: 'dangerousRaw', sql: 'NULL' };
const PARSED_CACHE_MAX = 2000;
const parsed = new Map<string, FNode>();

/** The tree of canonical formula text, cached (stored formulas are parsed once). */
function parseCached(text: string): FNode {
  let n = parsed.get(text);
  if (!n) {
    if (parsed.size >= PARSED_CACHE_MAX) parsed.clear();
    n = parseFormula(text);
    parsed.set(text, n);
  }
  return n;
}

/** The formula type of a column's values. */
export function typeOfKind(kind: ValueKind): FormulaType {
  if (kind === 'integer' || kind === 'bigint' || kind === 'decimal' || kind === 'float') return 'number';
  if (kind === 'boolean') return 'boolean';
  if (kind === 'date' || kind === 'datetime') return 'date';
  return 'string';
}

const KIND_OF_TYPE: Record<FormulaType, ValueKind> = { string: 'string', number: 'float', boolean: 'boolean', date: 'datetime' };

/**
 * How deep a formula's SQL nests (each node of the expression one level; values are leaves) and how
 * large it is once written out: a guard shares one argument node in two places of the tree (SQRT's
 * `CASE WHEN x < 0 .. ELSE SQRT(x)`), and engine spellings write some arguments more than once
 * (FORMULA_ARG_USES), so the text doubles at each level of such nesting. Both are measured over the
 * shared nodes once each (memoised), so measuring costs no more than the tree has nodes.
 */
function exprShape(e: unknown, memo = new Map<object, { depth: number; size: number }>()): { depth: number; size: number } {
  if (!e || typeof e !== 'object') return { depth: 0, size: 0 };
  const known = memo.get(e);
  if (known) return known;
  let shape: { depth: number; size: number };
  if ((e as { kind?: unknown }).kind === 'val') shape = { depth: 1, size: 1 };
  else {
    const uses = (e as { kind?: unknown }).kind === 'formulaFn' ? FORMULA_ARG_USES[(e as { name: FormulaFnName }).name] ?? 1 : 1;
    let depth = 0;
    let size = 0;
    for (const v of Array.isArray(e) ? e : Object.values(e)) {
      const s = exprShape(v, memo);
      depth = Math.max(depth, s.depth);
      size += s.size * uses;
    }
    shape = Array.isArray(e) ? { depth, size } : { depth: depth + 1, size: Math.min(size + 1, Number.MAX_SAFE_INTEGER) };
  }
  memo.set(e, shape);
  return shape;
}

/**
 * A formula whose SQL, the formulas it uses expanded, nests deeper than the limit: SQLite refuses an
 * expression tree deeper than 1000 and MariaDB runs out of its thread stack near 500, on every read
 * of the table, so such a formula is refused when it is written (and a stored one reads as NULL).
 * One whose SQL would be larger than the limit (guards nested in guards) is refused alike: writing it
 * out took seconds and hundreds of megabytes at each read.
 */
function assertDepth(typed: Typed): Typed {
  const { depth, size } = exprShape(typed.expr);
  if (depth > LIMITS.formulaMaxDepth) throw new FormulaError(`The formula nests too deep once the formulas it uses are expanded (at most ${LIMITS.formulaMaxDepth} levels)`);
  if (size > LIMITS.formulaMaxSqlNodes) throw new FormulaError(`The formula is too large once written as SQL (at most ${LIMITS.formulaMaxSqlNodes} parts): nest fewer SQRT, POWER, DATEADD or text-as-date calls in each other`);
  return typed;
}

type Ref = { kind: 'c' | 'v'; name: string };

/** References left to resolve in one translation, formulas used by it included. */
type Budget = { left: number };

/** A reference of a formula of `t` as typed SQL; `stack` holds the formulas being expanded. */
function resolveRef(t: TableModel, r: Ref, pos: number, table: string | undefined, stack: string[], budget: Budget): Typed {
  if (--budget.left < 0) throw new FormulaError(`The formula is too large once the formulas it uses are expanded (at most ${LIMITS.formulaExpandedRefs} column references)`, pos);
  if (r.kind === 'c') {
    const c = t.columns.find((x) => x.cn === r.name);
    if (!c) throw new FormulaError(`Column '${r.name}' no longer exists`, pos);
    return { type: typeOfKind(c.kind), expr: { kind: 'col', name: c.cn, table } };
  }
  const v = t.virtuals?.find((x) => x._cn === r.name);
  if (!v) throw new FormulaError(`Column '${r.name}' not found`, pos);
  if (stack.includes(v._cn)) throw new FormulaError(`The formula refers to itself: ${[...stack, v._cn].join(' -> ')}`, pos);
  if (v.uidt === 'Formula') {
    if (!v.formula?.expr) throw new FormulaError(`Formula '${v._cn}' is empty`, pos);
    try {
      return formulaTyped(t, v.formula.expr, table, [...stack, v._cn], budget);
    } catch (e) {
      // A problem inside the formula used is shown at the reference to it.
      throw e instanceof FormulaError ? new FormulaError(e.message, pos) : e;
    }
  }
  if (!v.expr || v.error) throw new FormulaError(`'${v._cn}' cannot be computed: ${v.error ?? 'it is not ready'}`, pos);
  return { type: v.type ?? 'string', expr: v.expr(table) };
}

/** The typed SQL of a stored (canonical) formula of `t`, with `t` known as `table`. */
export function formulaTyped(t: TableModel, canonical: string, table: string | undefined, stack: string[] = [], budget: Budget = { left: LIMITS.formulaExpandedRefs }): Typed {
  return translateFormula(parseCached(canonical), (ref, pos) => {
    const r = splitRef(ref);
    if (!r) throw new FormulaError(`Column '${ref}' not found`, pos);
    return resolveRef(t, r, pos, table, stack, budget);
  });
}

/** Checks formula text as the user writes it (columns by alias); errors point into that text. */
export function checkFormula(t: TableModel, text: string, stack: string[] = []): Typed {
  const budget = { left: LIMITS.formulaExpandedRefs };
  return assertDepth(translateFormula(parseFormula(text), (name, pos) => {
    const key = name.trim();
    const c = t.columns.find((x) => x._cn === key) ?? t.columns.find((x) => x.cn === key);
    if (c) return resolveRef(t, { kind: 'c', name: c.cn }, pos, undefined, stack, budget);
    return resolveRef(t, { kind: 'v', name: key }, pos, undefined, stack, budget);
  }));
}

/** A stored rollup or lookup made usable: its display fields, type, kind and SQL. */
function relational(t: TableModel, s: StoredVirtual, byTn: Map<string, TableModel>): VirtualColumnModel {
  const spec = (s.rollup ?? s.lookup)!;
  const rel = findStoredRelation(t, spec.rel);
  const target = byTn.get(spec.rel.rtn);
  const col: ColumnModel | undefined = target?.columns.find((c) => c.cn === spec.cn);
  const shown = { relation: rel?.alias ?? spec.rel.rtn, column: col?._cn ?? spec.cn, type: spec.rel.type, rtn: spec.rel.rtn };
  const base: VirtualColumnModel = { _cn: s._cn, uidt: s.uidt, ...(s.rollup ? { rollup: { ...shown, fn: s.rollup.fn } } : { lookup: shown }) };
  const error = s.error ?? (!rel ? 'The relation no longer exists' : !col ? `Column '${spec.cn}' no longer exists` : undefined);
  if (error || !rel || !col) return { ...base, error, type: 'string', kind: 'string', expr: () => NULL };
  if (s.rollup) {
    const fn = s.rollup.fn;
    const keepsType = fn === 'min' || fn === 'max';
    const type = keepsType ? typeOfKind(col.kind) : 'number';
    return { ...base, type, kind: keepsType ? col.kind : 'float', expr: (table) => rollupExpr(t, rel, col, fn, table ?? t.tn) };
  }
  const single = rel.type === 'bt';
  return { ...base, type: single ? typeOfKind(col.kind) : 'string', kind: single ? col.kind : 'string', expr: (table) => lookupExpr(t, rel, col, table ?? t.tn) };
}

/** Sets `virtuals` on every table from its stored metadata (tables are updated in place). */
export function attachVirtuals(tables: TableModel[], metas: Map<string, TableUserMeta>): void {
  const byTn = new Map(tables.map((t) => [t.tn, t]));
  // Rollups and lookups first: formulas may use them.
  for (const t of tables) {
    const stored = metas.get(t.tn)?.virtuals;
    if (!stored?.length) continue;
    t.virtuals = stored.map((s) =>
      s.uidt === 'Formula' ? { _cn: s._cn, uidt: 'Formula', formula: { text: '', expr: s.formula?.expr ?? '' } } : relational(t, s, byTn),
    );
  }
  for (const t of tables) {
    const stored = metas.get(t.tn)?.virtuals ?? [];
    for (const v of t.virtuals ?? []) {
      if (v.uidt !== 'Formula') continue;
      const expr = v.formula!.expr!;
      const storedError = stored.find((s) => s._cn === v._cn)?.formula?.error;
      let text = expr;
      try {
        text = toDisplay(expr, t);
      } catch {
        // Unreadable stored text is shown as stored, with its error below.
      }
      try {
        if (storedError) throw new FormulaError(storedError);
        const typed = assertDepth(formulaTyped(t, expr, undefined, [v._cn]));
        Object.assign(v, { formula: { text, expr }, type: typed.type, kind: KIND_OF_TYPE[typed.type], expr: (table?: string) => formulaTyped(t, expr, table, [v._cn]).expr });
      } catch (e) {
        const error = e instanceof FormulaError ? e.message : String(e);
        Object.assign(v, { formula: { text, expr, error }, type: 'string', kind: 'string', expr: () => NULL });
      }
    }
  }
}
