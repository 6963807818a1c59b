/** PostgreSQL: double-quoted names, `$n` placeholders, ILIKE, RETURNING, NULLS FIRST/LAST. */
import type { Cond, SqlValue } from '../ast';
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
  override limitAll(): string {
    return '';
  }
  override bindValue(v: SqlValue): SqlValue {
    if (typeof v === 'bigint') return v.toString();
    return v;
  }
}
