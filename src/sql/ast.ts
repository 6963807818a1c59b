/**
 * The one query AST every engine compiles. Identifiers in it come only from the schema model
 * (never from a caller); every `val` node becomes a bound parameter.
 */

/** A value bound as a parameter. */
export type SqlValue = string | number | bigint | boolean | null | Date | Uint8Array;

export type Expr =
  /** A column of the model; `table` is a table name or alias used in the FROM/JOIN. */
  | { kind: 'col'; name: string; table?: string }
  /** A bound value. */
  | { kind: 'val'; value: SqlValue }
  /** `*` or `t.*`. */
  | { kind: 'star'; table?: string }
  /** A function from the engine-neutral list in FnName, compiled per engine. */
  | { kind: 'fn'; name: FnName; args: Expr[]; distinct?: boolean }
  /** Binary arithmetic / concatenation. */
  | { kind: 'binary'; op: '+' | '-' | '*' | '/' | '%' | '||'; left: Expr; right: Expr }
  /** CASE WHEN cond THEN expr ... ELSE expr END */
  | { kind: 'case'; whens: { when: Cond; then: Expr }[]; else?: Expr }
  /** A condition used as a value (e.g. a formula comparing two columns). */
  | { kind: 'cond'; cond: Cond }
  /** ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...): per-parent limits of nested lists. */
  | { kind: 'rowNumber'; partitionBy: Expr[]; orderBy: OrderItem[] }
  /** A scalar sub-select (rollups, lookups, counts of children). */
  | { kind: 'subquery'; query: Select }
  /** A formula function whose spelling differs per engine (`sql/<engine>/formula-functions.ts`). */
  | { kind: 'formulaFn'; name: FormulaFnName; args: Expr[]; unit?: DateUnit }
  /**
   * SQL text written by Tablo's own code (dialect hooks, formula translator), never by a caller.
   * The name warns: nothing a request sends may reach it.
   */
  | { kind: 'dangerousRaw'; sql: string; params?: SqlValue[] };

/** Engine-neutral functions; the compiler maps each to the engine's spelling. */
export type FnName =
  | 'count' | 'min' | 'max' | 'sum' | 'avg'
  | 'lower' | 'upper' | 'trim' | 'length' | 'coalesce' | 'concat'
  | 'abs' | 'round' | 'ceil' | 'floor' | 'mod' | 'power' | 'sqrt'
  | 'replace' | 'substr' | 'now' | 'ln';

/**
 * Functions of the formula language that engines spell differently. `text` casts to text, `int` to a whole number,
 * `strLit`/`numLit` type a bound literal where an engine cannot infer it, `nullIfZero` guards a
 * divisor, `groupConcat` is the aggregate behind lookups over many rows (', ' between values).
 * `count` is a whole number of at least 0 (a length: a negative one counts as 0), `toDate` reads text as
 * a date-time, NULL when it holds none.
 */
export type FormulaFnName =
  | 'concat' | 'len' | 'left' | 'right' | 'mid' | 'search' | 'least' | 'greatest' | 'round'
  | 'dateAdd' | 'datetimeDiff' | 'groupConcat' | 'text' | 'int' | 'strLit' | 'numLit' | 'nullIfZero'
  | 'count' | 'toDate';

/** Units of DATEADD and DATETIME_DIFF. */
export type DateUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

export type CmpOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

export type Cond =
  | { kind: 'cmp'; op: CmpOp; left: Expr; right: Expr }
  /** Case-insensitive LIKE on every engine. */
  | { kind: 'like'; not?: boolean; left: Expr; pattern: Expr }
  | { kind: 'in'; not?: boolean; left: Expr; values: Expr[] }
  | { kind: 'inSelect'; not?: boolean; left: Expr[]; query: Select }
  | { kind: 'isNull'; not?: boolean; expr: Expr }
  | { kind: 'between'; not?: boolean; expr: Expr; low: Expr; high: Expr }
  | { kind: 'and'; items: Cond[] }
  | { kind: 'or'; items: Cond[] }
  | { kind: 'not'; item: Cond }
  | { kind: 'exists'; not?: boolean; query: Select }
  /** A boolean expression (e.g. a Checkbox column) tested for truth. */
  | { kind: 'truthy'; expr: Expr }
  | { kind: 'const'; value: boolean };

export interface TableRef {
  name: string;
  /** Database schema (PostgreSQL / SQL Server), if not the connection's default. */
  schema?: string;
  alias?: string;
}

export interface SelectItem {
  expr: Expr;
  /** Output name; compiled as a quoted identifier. */
  as?: string;
}

export interface OrderItem {
  expr: Expr;
  desc?: boolean;
  /** Where NULLs go; engines without NULLS FIRST/LAST emulate it. */
  nulls?: 'first' | 'last';
}

export interface Join {
  type: 'inner' | 'left';
  table: TableRef;
  on: Cond;
}

export interface Select {
  kind: 'select';
  from: TableRef | { kind: 'subselect'; query: Select; alias: string };
  columns: SelectItem[];
  distinct?: boolean;
  joins?: Join[];
  where?: Cond;
  groupBy?: Expr[];
  having?: Cond;
  orderBy?: OrderItem[];
  limit?: number;
  offset?: number;
  /**
   * The limit is a bound only, not worth planning for. SQLite prepares a statement again for every
   * value bound to a bare `LIMIT ?` (its planner uses the value); given this, it binds `? + 0`.
   */
  limitIsCap?: boolean;
}

export interface Insert {
  kind: 'insert';
  table: TableRef;
  columns: string[];
  rows: Expr[][];
  /** Columns to return; engines without RETURNING/OUTPUT re-select by key (see caps). */
  returning?: string[];
}

export interface Update {
  kind: 'update';
  table: TableRef;
  set: { column: string; value: Expr }[];
  where?: Cond;
  returning?: string[];
  /**
   * The row before the update too, in the same statement (caps.updateReturningOld): `columns` answered
   * as `__old_<n>` (n: the place in `columns`) beside `returning`; `keys` join the row before to the row
   * after (the primary key).
   */
  old?: { columns: string[]; keys: string[] };
}

export interface Delete {
  kind: 'delete';
  table: TableRef;
  where?: Cond;
  /** Columns of the deleted rows to return (caps.deleteReturning). */
  returning?: string[];
}

export type Query = Select | Insert | Update | Delete;

/** Compiled SQL text with its bound parameters, in order. */
export interface Compiled {
  sql: string;
  params: SqlValue[];
  /** Integers must come back exactly (a 64-bit column is selected): drivers that would round them return text. */
  exact?: boolean;
  /** A write run many times with the same text (bulk inserts): drivers that can keep it prepared do. */
  prepare?: boolean;
}

// Small builders, so callers read like SQL.
export const col = (name: string, table?: string): Expr => ({ kind: 'col', name, table });
export const val = (value: SqlValue): Expr => ({ kind: 'val', value });
export const eq = (left: Expr, right: Expr): Cond => ({ kind: 'cmp', op: '=', left, right });
export const and = (...items: Cond[]): Cond => ({ kind: 'and', items });
export const or = (...items: Cond[]): Cond => ({ kind: 'or', items });

/** Literal numbers written by Tablo's own code (EXISTS probes, CASE counters): never parameters. */
export const ONE: Expr = { kind: 'dangerousRaw', sql: '1' };
export const ZERO: Expr = { kind: 'dangerousRaw', sql: '0' };
