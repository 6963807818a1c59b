/**
 * PostgreSQL through `postgres`: a bounded pool, every statement with bound parameters
 * (`sql.unsafe(text, params)`), int8/numeric and dates returned as text so nothing loses
 * precision or shifts time zone. The pool reconnects by itself when the server comes back.
 * note: reads are prepared statements; a pooler in front of PostgreSQL must support them
 * (PgBouncer 1.21+ with max_prepared_statements in transaction mode).
 */
import postgres from 'postgres';
import type { Compiled } from '../ast';
import type { ConnectionOptions, Driver, ExecResult, Executor } from '../dialect';
import { guard, isNetworkError, type ErrorClass } from '../driver-errors';
import { LIMITS } from '../../config/limits';
import { PreparedTexts } from './prepared-texts';

export function classifyPostgres(e: unknown): ErrorClass {
  const err = e as { code?: string; message?: string; detail?: string; constraint_name?: string; table_name?: string };
  // detail: 'Key (code)=(A1) already exists.' / 'Key (id)=(1) is still referenced from table "x".'
  const keyCols = /^Key \((.+?)\)=/.exec(err.detail ?? '')?.[1];
  switch (err.code) {
    case '28P01':
    case '28000':
      return { kind: 'credentials' };
    case '42501':
      return { kind: 'permission' };
    case '23505':
      return { kind: 'unique', what: keyCols ?? err.constraint_name ?? 'key' };
    case '23503': {
      const referrer = /referenced from table "(.+)"/.exec(err.detail ?? '')?.[1];
      return referrer
        ? { kind: 'foreignKey', what: `table ${referrer}`, missingParent: false }
        : { kind: 'foreignKey', what: keyCols ?? err.constraint_name ?? 'the foreign key', missingParent: true };
    }
    case '57014':
      return { kind: 'timeout' };
    case '57P01':
    case '57P03':
    case '08000':
    case '08003':
    case '08006':
    case '08001':
    case '3D000':
      return err.code === '3D000' ? { kind: 'statement', message: err.message ?? 'Database does not exist' } : { kind: 'unreachable' };
  }
  if (isNetworkError(e)) return { kind: 'unreachable' };
  if (typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code)) return { kind: 'statement', message: err.message ?? 'Invalid statement' };
  return { kind: 'unknown' };
}

/** Distinct SQL texts a pool prepares at most (see prepared-texts.ts). */
export const PREPARED_TEXTS_MAX = 1000;

const asText = { to: 25, from: [1082, 1083, 1114, 1184, 1266], serialize: (x: unknown) => x, parse: (x: string) => x };

/**
 * json / jsonb parameters: the data core hands JSON already written as text, which goes as it is
 * (postgres.js's own serializer would stringify it again and store a JSON string instead of the object).
 * Text that is not JSON (a filter value) still goes as a JSON string.
 */
const jsonParam = (x: unknown): string => {
  if (typeof x !== 'string') return JSON.stringify(x);
  try {
    JSON.parse(x);
    return x;
  } catch {
    return JSON.stringify(x);
  }
};
const asJson = { to: 3802, from: [114, 3802], serialize: jsonParam, parse: (x: string) => JSON.parse(x) };

export function openPostgresDriver(c: ConnectionOptions, poolMax: number = LIMITS.poolMax, statementTimeoutMs = 0): Driver {
  const ssl = !c.ssl || c.ssl.mode === 'No'
    ? false
    : c.ssl.mode === 'Preferred'
      ? 'prefer'
      : { rejectUnauthorized: c.ssl.mode !== 'Required', ca: c.ssl.ca, key: c.ssl.key, cert: c.ssl.cert };
  const sql = postgres({
    host: c.host,
    port: c.port,
    user: c.user,
    password: c.password ?? '',
    database: c.database,
    max: poolMax,
    connect_timeout: Math.ceil(LIMITS.connectTimeoutMs / 1000),
    idle_timeout: 30,
    ssl: ssl as any,
    onnotice: () => {},
    types: { tablo_dates: asText, tablo_json: asJson } as any,
    connection: {
      application_name: 'tablo',
      ...(c.schema ? { search_path: c.schema } : {}),
      // The server ends a statement past the limit (57014 -> 504), also when nobody waits for it any more.
      ...(statementTimeoutMs > 0 ? { statement_timeout: Math.floor(statementTimeoutMs) } : {}),
    },
  });

  // A text seen again runs as a named prepared statement, kept per connection: one round trip (bind,
  // execute) with no parse. At most PREPARED_TEXTS_MAX distinct texts are ever prepared, so neither the
  // driver's statement map nor the server's plans grow without bound; the others run unnamed. A write
  // asked to stay prepared (`q.prepare`: the chunks of a bulk insert) is so from its second chunk on.
  const texts = new PreparedTexts(PREPARED_TEXTS_MAX);
  // Texts whose prepared plan a schema change invalidated ('cached plan must not change result type',
  // e.g. RETURNING of a retyped column): they run unnamed from then on.
  const stale = new Set<string>();
  const run = async (s: postgres.Sql | postgres.TransactionSql, q: Compiled, inTx: boolean) => {
    const prepare = !stale.has(q.sql) && texts.admit(q.sql);
    try {
      return await s.unsafe(q.sql, q.params as any[], { prepare });
    } catch (e) {
      if (!prepare || (e as { code?: string }).code !== '0A000') throw e;
      stale.add(q.sql);
      // Outside a transaction the statement is simply run again unnamed; inside one the transaction is
      // already aborted, so the caller's error stands (its next attempt runs unnamed).
      if (inTx) throw e;
      return await s.unsafe(q.sql, q.params as any[], { prepare: false });
    }
  };
  const executor = (s: postgres.Sql | postgres.TransactionSql, inTx = false): Executor => ({
    ...(inTx ? { savepoint: <T>(fn: (exec: Executor) => Promise<T>) => guard(classifyPostgres, () => (s as postgres.TransactionSql).savepoint((sp) => fn(executor(sp, true))) as Promise<T>) } : {}),
    query: <T>(q: Compiled) => guard(classifyPostgres, async () => [...(await run(s, q, inTx))] as T[]),
    execute: (q: Compiled): Promise<ExecResult> =>
      guard(classifyPostgres, async () => {
        const r = await run(s, q, inTx);
        return { affected: r.count ?? 0 };
      }),
  });
  const base = executor(sql);

  const transaction: Driver['transaction'] = (fn) => guard(classifyPostgres, () => sql.begin((tx) => fn(executor(tx, true))) as Promise<any>);
  return {
    ...base,
    queryTimed: <T>(q: Compiled, timeoutMs: number) =>
      transaction(async (tx) => {
        // An integer we computed, not caller text: SET does not take bound parameters.
        await tx.execute({ sql: `SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`, params: [] });
        return tx.query<T>(q);
      }),
    transaction,
    ping: async () => {
      await base.query({ sql: 'SELECT 1', params: [] });
    },
    close: () => sql.end({ timeout: 2 }),
  };
}
