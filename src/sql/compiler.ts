/**
 * The base compiler: turns the AST into SQL text and bound parameters. Engines override only
 * the hooks that differ (quoting, placeholders, pagination, returning, LIKE, function names).
 */
import type { Compiled, Cond, Delete, Expr, FnName, Insert, OrderItem, Query, Select, SqlValue, TableRef, Update } from './ast';
import { BASE_SPELLINGS, type FormulaSpellings } from './formula-spellings';

/** Per-compilation state: collected parameters. */
export class Params {
  readonly values: SqlValue[] = [];
  push(v: SqlValue): number {
    this.values.push(v);
    return this.values.length;
  }
}

export abstract class BaseCompiler {
  /** Quotes an identifier; quote characters inside the name are doubled. */
  abstract quoteId(name: string): string;
  /** The placeholder of the n-th parameter (1-based). */
  abstract placeholder(n: number): string;

  compile(q: Query): Compiled {
    const p = new Params();
    let sql: string;
    switch (q.kind) {
      case 'select':
        sql = this.select(q, p);
        break;
      case 'insert': {
        const many = q.rows.length > 1 ? this.insertOfValues(q) : undefined;
        if (many) return many;
        sql = this.insert(q, p);
        break;
      }
      case 'update':
        sql = this.update(q, p);
        break;
      case 'delete':
        sql = this.delete(q, p);
        break;
    }
    return { sql, params: p.values };
  }

  /** INSERT texts of many rows of bound values, by shape (table, columns, row count, returning). */
  private readonly insertTexts = new Map<string, string>();

  /**
   * A multi-row INSERT whose cells are all bound values (bulk creates, imports): its text depends on its
   * shape alone, so it is made once per shape and only the values are bound anew. Undefined for other inserts.
   */
  private insertOfValues(q: Insert): Compiled | undefined {
    const n = q.columns.length;
    if (n === 0) return undefined;
    const params: SqlValue[] = new Array(q.rows.length * n);
    let k = 0;
    for (const row of q.rows) {
      if (row.length !== n) return undefined;
      for (const e of row) {
        if (e.kind !== 'val') return undefined;
        params[k++] = this.bindValue(e.value);
      }
    }
    const t = q.table;
    const key = `${t.schema ?? ''}\u0000${t.name}\u0000${t.alias ?? ''}\u0000${q.columns.join('\u0000')}\u0000${q.rows.length}\u0000${q.returning?.join('\u0000') ?? '-'}`;
    let sql = this.insertTexts.get(key);
    if (sql === undefined) {
      sql = this.insert(q, new Params());
      if (this.insertTexts.size >= INSERT_TEXTS_MAX) this.insertTexts.delete(this.insertTexts.keys().next().value!);
      this.insertTexts.set(key, sql);
    }
    return { sql, params };
  }

  table(t: TableRef): string {
    const name = t.schema ? `${this.quoteId(t.schema)}.${this.quoteId(t.name)}` : this.quoteId(t.name);
    return t.alias ? `${name} ${this.aliasKeyword()}${this.quoteId(t.alias)}` : name;
  }

  /** `AS ` before table aliases (Oracle-style engines would drop it). */
  aliasKeyword(): string {
    return 'AS ';
  }

  value(v: SqlValue, p: Params): string {
    return this.placeholder(p.push(this.bindValue(v)));
  }

  /** Converts a value for the driver (booleans for engines without them, dates). */
  bindValue(v: SqlValue): SqlValue {
    return v;
  }

  /** Spellings of the formula functions; engines supply their own table. */
  formulaSpellings: FormulaSpellings = BASE_SPELLINGS;

  fnName(name: FnName): string {
    return FN_NAMES[name];
  }

  /** Engine spelling of a function call; override for functions that differ. */
  fn(name: FnName, args: string[], distinct: boolean): string {
    if (name === 'now') return 'CURRENT_TIMESTAMP';
    if (name === 'concat') return `CONCAT(${args.join(', ')})`;
    return `${this.fnName(name)}(${distinct ? 'DISTINCT ' : ''}${args.join(', ')})`;
  }

  expr(e: Expr, p: Params): string {
    switch (e.kind) {
      case 'col':
        return e.table ? `${this.quoteId(e.table)}.${this.quoteId(e.name)}` : this.quoteId(e.name);
      case 'val':
        return this.value(e.value, p);
      case 'star':
        return e.table ? `${this.quoteId(e.table)}.*` : '*';
      case 'fn':
        return this.fn(e.name, e.args.map((a) => this.expr(a, p)), !!e.distinct);
      case 'binary':
        if (e.op === '||') return this.fn('concat', [this.expr(e.left, p), this.expr(e.right, p)], false);
        if (e.op === '%') return this.fn('mod', [this.expr(e.left, p), this.expr(e.right, p)], false);
        // True division on every engine (PostgreSQL and SQLite would truncate two integers).
        if (e.op === '/') return `(${this.expr(e.left, p)} * 1.0 / ${this.expr(e.right, p)})`;
        return this.arith(e.op, this.expr(e.left, p), this.expr(e.right, p));
      case 'case': {
        const whens = e.whens.map((w) => `WHEN ${this.cond(w.when, p)} THEN ${this.expr(w.then, p)}`).join(' ');
        return `CASE ${whens}${e.else ? ` ELSE ${this.expr(e.else, p)}` : ''} END`;
      }
      case 'cond':
        return this.condAsValue(e.cond, p);
      case 'rowNumber': {
        const part = e.partitionBy.length ? `PARTITION BY ${e.partitionBy.map((x) => this.expr(x, p)).join(', ')} ` : '';
        return `ROW_NUMBER() OVER (${part}ORDER BY ${this.orderBy(e.orderBy, p)})`;
      }
      case 'subquery':
        return `(${this.select(e.query, p)})`;
      case 'formulaFn':
        return this.formulaSpellings[e.name]((i) => this.expr(e.args[i] ?? { kind: 'val', value: null }, p), e.args.length, e.unit ?? 'day');
      case 'dangerousRaw': {
        let i = 0;
        const params = e.params ?? [];
        return e.sql.replace(/\?/g, () => this.value(params[i++] ?? null, p));
      }
    }
  }

  /** `+`, `-` or `*` of two compiled operands; engines whose integers fail on overflow widen them. */
  arith(op: '+' | '-' | '*', left: string, right: string): string {
    return `(${left} ${op} ${right})`;
  }

  /** A condition used where a value is expected. */
  condAsValue(c: Cond, p: Params): string {
    return `(CASE WHEN ${this.cond(c, p)} THEN 1 ELSE 0 END)`;
  }

  /** Case-insensitive LIKE; the base lowers both sides. */
  like(left: string, pattern: string, not: boolean): string {
    return `LOWER(${left}) ${not ? 'NOT LIKE' : 'LIKE'} LOWER(${pattern})`;
  }

  /** Tests a boolean column for truth. */
  truthy(expr: string): string {
    return `${expr} = ${this.trueLiteral()}`;
  }

  trueLiteral(): string {
    return 'TRUE';
  }

  /** An operand of a comparison (=, <, IN, BETWEEN); engines that type a bare parameter by the other side override it. */
  compared(e: Expr, p: Params): string {
    return this.expr(e, p);
  }

  cond(c: Cond, p: Params): string {
    switch (c.kind) {
      case 'cmp':
        return `${this.compared(c.left, p)} ${c.op} ${this.compared(c.right, p)}`;
      case 'like':
        return this.like(this.expr(c.left, p), this.expr(c.pattern, p), !!c.not);
      case 'in':
        if (c.values.length === 0) return c.not ? '1 = 1' : '1 = 0';
        return `${this.expr(c.left, p)} ${c.not ? 'NOT IN' : 'IN'} (${c.values.map((v) => this.compared(v, p)).join(', ')})`;
      case 'inSelect': {
        const left = c.left.length === 1 ? this.expr(c.left[0]!, p) : `(${c.left.map((x) => this.expr(x, p)).join(', ')})`;
        return `${left} ${c.not ? 'NOT IN' : 'IN'} (${this.select(c.query, p)})`;
      }
      case 'isNull':
        return `${this.expr(c.expr, p)} IS ${c.not ? 'NOT ' : ''}NULL`;
      case 'between':
        return `${this.expr(c.expr, p)} ${c.not ? 'NOT BETWEEN' : 'BETWEEN'} ${this.compared(c.low, p)} AND ${this.compared(c.high, p)}`;
      case 'and':
        if (c.items.length === 0) return '1 = 1';
        return c.items.length === 1 ? this.cond(c.items[0]!, p) : `(${c.items.map((x) => this.cond(x, p)).join(' AND ')})`;
      case 'or':
        if (c.items.length === 0) return '1 = 0';
        return c.items.length === 1 ? this.cond(c.items[0]!, p) : `(${c.items.map((x) => this.cond(x, p)).join(' OR ')})`;
      case 'not':
        return `NOT (${this.cond(c.item, p)})`;
      case 'exists':
        return `${c.not ? 'NOT ' : ''}EXISTS (${this.select(c.query, p)})`;
      case 'truthy':
        return this.truthy(this.expr(c.expr, p));
      case 'const':
        return c.value ? '1 = 1' : '1 = 0';
    }
  }

  orderItem(o: OrderItem, p: Params): string {
    const e = this.expr(o.expr, p);
    const dir = o.desc ? ' DESC' : '';
    if (!o.nulls) return e + dir;
    return this.nullsOrder(e, dir, o.nulls);
  }

  /** NULLS FIRST/LAST; engines without it emulate with a CASE key. */
  nullsOrder(e: string, dir: string, nulls: 'first' | 'last'): string {
    return `${e}${dir} NULLS ${nulls.toUpperCase()}`;
  }

  orderBy(items: OrderItem[], p: Params): string {
    return items.map((o) => this.orderItem(o, p)).join(', ');
  }

  selectColumns(q: Select, p: Params): string {
    if (q.columns.length === 0) return '*';
    return q.columns.map((c) => (c.as ? `${this.expr(c.expr, p)} AS ${this.quoteId(c.as)}` : this.expr(c.expr, p))).join(', ');
  }

  from(q: Select, p: Params): string {
    const f = q.from;
    if ('kind' in f) return `(${this.select(f.query, p)}) ${this.aliasKeyword()}${this.quoteId(f.alias)}`;
    return this.table(f);
  }

  /** SELECT without pagination; `paginate` adds it. */
  selectBody(q: Select, p: Params): string {
    let sql = `SELECT ${q.distinct ? 'DISTINCT ' : ''}${this.selectColumns(q, p)} FROM ${this.from(q, p)}`;
    for (const j of q.joins ?? []) sql += ` ${j.type === 'left' ? 'LEFT JOIN' : 'INNER JOIN'} ${this.table(j.table)} ON ${this.cond(j.on, p)}`;
    if (q.where) sql += ` WHERE ${this.cond(q.where, p)}`;
    if (q.groupBy?.length) sql += ` GROUP BY ${q.groupBy.map((g) => this.expr(g, p)).join(', ')}`;
    if (q.having) sql += ` HAVING ${this.cond(q.having, p)}`;
    return sql;
  }

  select(q: Select, p: Params): string {
    let sql = this.selectBody(q, p);
    if (q.orderBy?.length) sql += ` ORDER BY ${this.orderBy(q.orderBy, p)}`;
    return sql + this.paginate(q, p);
  }

  /** LIMIT/OFFSET as bound parameters. */
  paginate(q: Select, p: Params): string {
    let s = '';
    if (q.limit !== undefined) s += ` LIMIT ${this.value(q.limit, p)}`;
    if (q.offset) s += `${q.limit === undefined ? this.limitAll() : ''} OFFSET ${this.value(q.offset, p)}`;
    return s;
  }

  /** What stands for "no limit" before an OFFSET. */
  limitAll(): string {
    return ' LIMIT -1';
  }

  returning(cols: string[] | undefined): string {
    if (!cols?.length) return '';
    return ` RETURNING ${cols.map((c) => this.quoteId(c)).join(', ')}`;
  }

  insert(q: Insert, p: Params): string {
    const cols = q.columns.map((c) => this.quoteId(c)).join(', ');
    if (q.columns.length === 0) return `INSERT INTO ${this.table(q.table)} ${this.defaultValues()}${this.returning(q.returning)}`;
    const rows = q.rows.map((r) => `(${r.map((v) => this.expr(v, p)).join(', ')})`).join(', ');
    return `INSERT INTO ${this.table(q.table)} (${cols}) VALUES ${rows}${this.returning(q.returning)}`;
  }

  defaultValues(): string {
    return 'DEFAULT VALUES';
  }

  update(q: Update, p: Params): string {
    if (q.old) throw new Error('This engine answers no row before an update (caps.updateReturningOld)');
    const set = q.set.map((s) => `${this.quoteId(s.column)} = ${this.expr(s.value, p)}`).join(', ');
    return `UPDATE ${this.table(q.table)} SET ${set}${q.where ? ` WHERE ${this.cond(q.where, p)}` : ''}${this.returning(q.returning)}`;
  }

  delete(q: Delete, p: Params): string {
    return `DELETE FROM ${this.table(q.table)}${q.where ? ` WHERE ${this.cond(q.where, p)}` : ''}${this.returning(q.returning)}`;
  }
}

const FN_NAMES: Record<FnName, string> = {
  count: 'COUNT', min: 'MIN', max: 'MAX', sum: 'SUM', avg: 'AVG',
  lower: 'LOWER', upper: 'UPPER', trim: 'TRIM', length: 'LENGTH', coalesce: 'COALESCE', concat: 'CONCAT',
  abs: 'ABS', round: 'ROUND', ceil: 'CEIL', floor: 'FLOOR', mod: 'MOD', power: 'POWER', sqrt: 'SQRT',
  replace: 'REPLACE', substr: 'SUBSTR', now: 'CURRENT_TIMESTAMP', ln: 'LN',
};

/** Multi-row INSERT texts kept per compiler (each up to some 20 KB for 1,000 rows). */
const INSERT_TEXTS_MAX = 100;

/** Quoted identifiers remembered per quoting style (names come from models, so the set stays small). */
const QUOTED_MAX = 10_000;

/** Doubles the quote character inside an identifier; each name is quoted once and remembered. */
export const quoteWith = (open: string, close: string) => {
  const quoted = new Map<string, string>();
  return (name: string): string => {
    let q = quoted.get(name);
    if (q === undefined) {
      q = `${open}${name.split(close).join(close + close)}${close}`;
      if (quoted.size >= QUOTED_MAX) quoted.clear();
      quoted.set(name, q);
    }
    return q;
  };
};
