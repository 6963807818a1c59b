/** PostgreSQL: double-quoted names, `$n` placeholders, ILIKE, RETURNING, NULLS FIRST/LAST. */
import type { SqlValue } from '../ast';
import { BaseCompiler, quoteWith } from '../compiler';
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
  override limitAll(): string {
    return '';
  }
  override bindValue(v: SqlValue): SqlValue {
    if (typeof v === 'bigint') return v.toString();
    return v;
  }
}
