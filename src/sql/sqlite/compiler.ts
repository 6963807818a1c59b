/**
 * SQLite: double-quoted names, `?` placeholders, booleans as 0/1, RETURNING (3.35+). CEIL/FLOOR
 * come from the math functions that Bun's bundled SQLite is built with. SQLite's own LOWER/UPPER
 * fold ASCII only: case-insensitive LIKE and lower/upper use tablo_lower/tablo_upper, which the
 * SQLite driver registers on every connection (full Unicode, like the other engines).
 */
import type { SqlValue, FnName, Select } from '../ast';
import { BaseCompiler, quoteWith, type Params } from '../compiler';
import { SQLITE_SPELLINGS } from './formula-functions';

export class SqliteCompiler extends BaseCompiler {
  override formulaSpellings = SQLITE_SPELLINGS;
  quoteId = quoteWith('"', '"');
  placeholder(): string {
    return '?';
  }
  override bindValue(v: SqlValue): SqlValue {
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (v instanceof Date) return v.toISOString();
    return v;
  }
  override trueLiteral(): string {
    return '1';
  }
  override paginate(q: Select, p: Params): string {
    // Still a bound parameter; as an expression SQLite does not prepare the statement again per value.
    if (q.limitIsCap && q.limit !== undefined && !q.offset) return ` LIMIT ${this.value(q.limit, p)} + 0`;
    return super.paginate(q, p);
  }
  /** A backslash makes the next character literal (`\\%`), as PostgreSQL's and MySQL's LIKE read it by default. */
  override like(left: string, pattern: string, not: boolean): string {
    return `tablo_lower(${left}) ${not ? 'NOT LIKE' : 'LIKE'} tablo_lower(${pattern}) ESCAPE '\\'`;
  }
  override fn(name: FnName, args: string[], distinct: boolean): string {
    if (name === 'lower' || name === 'upper') return `tablo_${name}(${args.join(', ')})`;
    if (name === 'concat') return `(${args.map((a) => `COALESCE(${a}, '')`).join(' || ')})`;
    if (name === 'mod') return `(${args[0]} % ${args[1]})`;
    return super.fn(name, args, distinct);
  }
}
