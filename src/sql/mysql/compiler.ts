/**
 * MySQL/MariaDB: backticks, `?` placeholders, RETURNING only where the server has it (MariaDB >= 10.5
 * for INSERT, 10.0.5 for DELETE: the data core asks for it only then, see caps), NULLS ordering
 * emulated, LIMIT/OFFSET bound as strings (mysql2 prepared statements reject numbers there).
 */
import type { FnName, Select, SqlValue, Update } from '../ast';
import { BaseCompiler, Params, quoteWith } from '../compiler';
import { MYSQL_SPELLINGS } from './formula-functions';

export class MysqlCompiler extends BaseCompiler {
  override formulaSpellings = MYSQL_SPELLINGS;
  quoteId = quoteWith('`', '`');
  placeholder(): string {
    return '?';
  }
  override bindValue(v: SqlValue): SqlValue {
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (v instanceof Date) return v.toISOString().slice(0, 23).replace('T', ' ');
    if (typeof v === 'bigint') return v.toString();
    return v;
  }
  override trueLiteral(): string {
    return '1';
  }
  /**
   * CONCAT would answer NULL for any NULL part; CONCAT_WS skips them like the other engines. AVG of
   * whole numbers is a DECIMAL cut to 4 places (265574.2887): over a double it is the full number
   * the other engines give.
   */
  override fn(name: FnName, args: string[], distinct: boolean): string {
    if (name === 'concat') return `CONCAT_WS('', ${args.join(', ')})`;
    if (name === 'avg' && args.length === 1) return super.fn(name, [`(${args[0]}) * 1e0`], distinct);
    return super.fn(name, args, distinct);
  }
  override nullsOrder(e: string, dir: string, nulls: 'first' | 'last'): string {
    return `(${e} IS NULL) ${nulls === 'first' ? 'DESC' : 'ASC'}, ${e}${dir}`;
  }
  override paginate(q: Select, p: Params): string {
    let s = '';
    if (q.limit !== undefined) s += ` LIMIT ${this.value(String(q.limit), p)}`;
    if (q.offset) s += `${q.limit === undefined ? ' LIMIT 18446744073709551615' : ''} OFFSET ${this.value(String(q.offset), p)}`;
    return s;
  }
  /** No server of this family has UPDATE ... RETURNING: the data core reads the row again. */
  override update(q: Update, p: Params): string {
    return super.update({ ...q, returning: undefined }, p);
  }
  override defaultValues(): string {
    return '() VALUES ()';
  }
}
