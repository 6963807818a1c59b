/** PostgreSQL: double-quoted names, `$n` placeholders, ILIKE, RETURNING, NULLS FIRST/LAST. */
import type { Cond, Expr, FnName, SqlValue, Update } from '../ast';
import { BaseCompiler, Params, quoteWith } from '../compiler';
import { POSTGRES_SPELLINGS } from './formula-functions';

export class PostgresCompiler extends BaseCompiler {
  override formulaSpellings = POSTGRES_SPELLINGS;
  quoteId = quoteWith('"', '"');
  placeholder(n: number): string {
    return `$${n}`;
  }
  override like(left: string, pattern: string, not: boolean): string {
    return `${left}::text ${not ? 'NOT ILIKE' : 'ILIKE'} ${pattern}`;
  }
  /** A real boolean (formulas compare it with true/false); NULL comparisons read as false, as elsewhere. */
  override condAsValue(c: Cond, p: Params): string {
    return `COALESCE((${this.cond(c, p)}), FALSE)`;
  }
  /** MOD over numeric: PostgreSQL has no MOD of double precision (a float column failed every read of its table). */
  override fn(name: FnName, args: string[], distinct: boolean): string {
    if (name === 'mod') return `MOD(CAST(${args[0]} AS numeric), CAST(${args[1]} AS numeric))`;
    return super.fn(name, args, distinct);
  }
  /**
   * `* 1.0` makes integers numeric and leaves floats as they are: int * int failed every read of the
   * table with 'integer out of range' (bigint likewise), where SQLite and MariaDB answer the product.
   */
  override arith(op: '+' | '-' | '*', left: string, right: string): string {
    return `(${left} * 1.0 ${op} ${right})`;
  }
  /**
   * A whole number beyond 16 bits compared with a column is bound as bigint: PostgreSQL types a bare
   * parameter as the other side, so `int_col = 99999999999` refused the statement ('value
   * "99999999999" is out of range for type integer', a 400 for a row id that is simply not there)
   * where every other engine answers no row. Integer and bigint compare across sizes (indexes too).
   */
  override compared(e: Expr, p: Params): string {
    if (e.kind === 'val' && typeof e.value === 'number' && Number.isSafeInteger(e.value) && (e.value > 32767 || e.value < -32768)) return `${this.value(e.value, p)}::int8`;
    return super.compared(e, p);
  }
  override limitAll(): string {
    return '';
  }
  /**
   * With `old`, the row before comes from a sub-select of the same row that locks it (FOR UPDATE), joined
   * to the updated row on the key: `UPDATE t AS "__new" SET … FROM (SELECT … FOR UPDATE) AS "__old" WHERE
   * keys match RETURNING "__new".…, "__old".… AS "__old_<n>"`. One statement, one round trip.
   */
  override update(q: Update, p: Params): string {
    if (!q.old) return super.update(q, p);
    const { columns, keys } = q.old;
    const set = q.set.map((s) => `${this.quoteId(s.column)} = ${this.expr(s.value, p)}`).join(', ');
    const picked = [...columns, ...keys.filter((k) => !columns.includes(k))].map((c) => this.quoteId(c)).join(', ');
    const before = `SELECT ${picked} FROM ${this.table(q.table)}${q.where ? ` WHERE ${this.cond(q.where, p)}` : ''} FOR UPDATE`;
    const join = keys.map((k) => `"__new".${this.quoteId(k)} = "__old".${this.quoteId(k)}`).join(' AND ');
    const returning = [...(q.returning ?? []).map((c) => `"__new".${this.quoteId(c)}`), ...columns.map((c, i) => `"__old".${this.quoteId(c)} AS "__old_${i}"`)];
    return `UPDATE ${this.table(q.table)} AS "__new" SET ${set} FROM (${before}) AS "__old" WHERE ${join} RETURNING ${returning.join(', ')}`;
  }
  override bindValue(v: SqlValue): SqlValue {
    if (typeof v === 'bigint') return v.toString();
    return v;
  }
}
