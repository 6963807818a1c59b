/**
 * SQL Server: [bracketed] names, `@pN` placeholders, OFFSET .. FETCH pagination (which needs an
 * ORDER BY), OUTPUT INSERTED.* instead of RETURNING, bit booleans, NULLS ordering emulated.
 */
import type { Delete, FnName, Insert, Select, SqlValue, Update } from '../ast';
import { BaseCompiler, Params, quoteWith } from '../compiler';
import { MSSQL_SPELLINGS } from './formula-functions';

export class MssqlCompiler extends BaseCompiler {
  override formulaSpellings = MSSQL_SPELLINGS;
  quoteId = quoteWith('[', ']');
  placeholder(n: number): string {
    return `@p${n}`;
  }
  override bindValue(v: SqlValue): SqlValue {
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (typeof v === 'bigint') return v.toString();
    return v;
  }
  /** A backslash makes the next character literal (`\\%`), as PostgreSQL's and MySQL's LIKE read it by default. */
  override like(left: string, pattern: string, not: boolean): string {
    return `LOWER(${left}) ${not ? 'NOT LIKE' : 'LIKE'} LOWER(${pattern}) ESCAPE '\\'`;
  }
  override trueLiteral(): string {
    return '1';
  }
  override fn(name: FnName, args: string[], distinct: boolean): string {
    const map: Partial<Record<FnName, string>> = { length: 'LEN', ceil: 'CEILING', substr: 'SUBSTRING', ln: 'LOG' };
    if (name === 'mod') return `(${args[0]} % ${args[1]})`;
    if (map[name]) return `${map[name]}(${distinct ? 'DISTINCT ' : ''}${args.join(', ')})`;
    return super.fn(name, args, distinct);
  }
  override nullsOrder(e: string, dir: string, nulls: 'first' | 'last'): string {
    return `CASE WHEN ${e} IS NULL THEN ${nulls === 'first' ? 0 : 1} ELSE ${nulls === 'first' ? 1 : 0} END, ${e}${dir}`;
  }
  override condAsValue(c: Parameters<BaseCompiler['condAsValue']>[0], p: Params): string {
    return `(CASE WHEN ${this.cond(c, p)} THEN 1 ELSE 0 END)`;
  }
  override select(q: Select, p: Params): string {
    // FETCH NEXT 0 ROWS is an error in SQL Server: an empty page is TOP (0).
    if (q.limit === 0) return this.selectBody(q, p).replace(/^SELECT (DISTINCT )?/, 'SELECT $1TOP (0) ');
    let sql = this.selectBody(q, p);
    const paged = q.limit !== undefined || !!q.offset;
    if (q.orderBy?.length) sql += ` ORDER BY ${this.orderBy(q.orderBy, p)}`;
    // With DISTINCT the ORDER BY must name a selected column: the first one, by position.
    else if (paged) sql += q.distinct ? ' ORDER BY 1' : ' ORDER BY (SELECT NULL)';
    if (paged) {
      sql += ` OFFSET ${this.value(q.offset ?? 0, p)} ROWS`;
      if (q.limit !== undefined) sql += ` FETCH NEXT ${this.value(q.limit, p)} ROWS ONLY`;
    }
    return sql;
  }
  private output(cols: string[] | undefined, from = 'INSERTED'): string {
    if (!cols?.length) return '';
    return ` OUTPUT ${cols.map((c) => `${from}.${this.quoteId(c)}`).join(', ')}`;
  }
  override delete(q: Delete, p: Params): string {
    return `DELETE FROM ${this.table(q.table)}${this.output(q.returning, 'DELETED')}${q.where ? ` WHERE ${this.cond(q.where, p)}` : ''}`;
  }
  override insert(q: Insert, p: Params): string {
    if (q.columns.length === 0) return `INSERT INTO ${this.table(q.table)}${this.output(q.returning)} DEFAULT VALUES`;
    const cols = q.columns.map((c) => this.quoteId(c)).join(', ');
    const rows = q.rows.map((r) => `(${r.map((v) => this.expr(v, p)).join(', ')})`).join(', ');
    return `INSERT INTO ${this.table(q.table)} (${cols})${this.output(q.returning)} VALUES ${rows}`;
  }
  override update(q: Update, p: Params): string {
    const set = q.set.map((s) => `${this.quoteId(s.column)} = ${this.expr(s.value, p)}`).join(', ');
    // The row before comes with OUTPUT DELETED, beside the row after (OUTPUT INSERTED).
    const items = [
      ...(q.returning ?? []).map((c) => `INSERTED.${this.quoteId(c)}`),
      ...(q.old?.columns ?? []).map((c, i) => `DELETED.${this.quoteId(c)} AS ${this.quoteId(`__old_${i}`)}`),
    ];
    const output = items.length ? ` OUTPUT ${items.join(', ')}` : '';
    return `UPDATE ${this.table(q.table)} SET ${set}${output}${q.where ? ` WHERE ${this.cond(q.where, p)}` : ''}`;
  }
}
