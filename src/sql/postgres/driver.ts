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
import { guard, isNetworkError } from '../driver-errors';
import { classifyPostgres } from './errors';
import { LIMITS } from '../../config/limits';
import { PreparedTexts } from './prepared-texts';
import { assertSslMaterial } from '../ssl-material';
import { pgAcceptsSsl } from './ssl-probe';

/** Distinct SQL texts a pool prepares at most (see prepared-texts.ts). */
export const PREPARED_TEXTS_MAX = 1000;

const asText = { to: 25, from: [1082, 1083, 1114, 1184, 1266], serialize: (x: unknown) => x, parse: (x: string) => x };
/**
 * json and jsonb travel as JSON text both ways, as on the other engines (the data core checks and
 * parses it): the driver's own serializer would JSON.stringify the text again, storing '{"a":1}'
 * as a JSON string, and its parser would hand the data core values to parse a second time.
 */
const jsonAsText = { to: 3802, from: [114, 3802], serialize: (x: unknown) => (typeof x === 'string' ? x : JSON.stringify(x)), parse: (x: string) => x };

export function openPostgresDriver(c: ConnectionOptions, poolMax: number = LIMITS.poolMax, statementTimeoutMs = 0): Driver {
  if (c.ssl && c.ssl.mode !== 'No') assertSslMaterial(c.ssl);
  const ssl = !c.ssl || c.ssl.mode === 'No'
    ? false
    : c.ssl.mode === 'Preferred'
      ? 'prefer'
      : { rejectUnauthorized: c.ssl.mode !== 'Required', ca: c.ssl.ca, key: c.ssl.key, cert: c.ssl.cert };
  /**
   * Every call's errors as AppErrors. A connection that requires SSL and fails as if the server were
   * down asks the server whether it takes SSL at all, to say so rather than "unreachable".
   */
  const guarded = <T>(run: () => Promise<T>): Promise<T> =>
    guard(classifyPostgres, async () => {
      try {
        return await run();
      } catch (e) {
        if (typeof ssl === 'object' && isNetworkError(e) && (await pgAcceptsSsl(c.host ?? 'localhost', c.port ?? 5432, LIMITS.connectTimeoutMs)) === false) {
          throw Object.assign(new Error('The server does not support SSL'), { sslRefused: true });
        }
        throw e;
      }
    });
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
    types: { tablo_dates: asText, tablo_json: jsonAsText } as any,
    connection: {
      application_name: 'tablo',
      // Date-times are read and written in UTC, as the data core converts zoned values (a database
      // set to another zone stored '10:30Z' as 14:30Z and showed timestamptz in its own zone).
      TimeZone: 'UTC',
      // Quoted as an identifier: unquoted, 'Sales' would name sales and 'sales data' would be refused.
      ...(c.schema ? { search_path: `"${c.schema.replaceAll('"', '""')}"` } : {}),
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
    ...(inTx ? { savepoint: <T>(fn: (exec: Executor) => Promise<T>) => guarded(() => (s as postgres.TransactionSql).savepoint((sp) => fn(executor(sp, true))) as Promise<T>) } : {}),
    query: <T>(q: Compiled) => guarded(async () => [...(await run(s, q, inTx))] as T[]),
    execute: (q: Compiled): Promise<ExecResult> =>
      guarded(async () => {
        const r = await run(s, q, inTx);
        return { affected: r.count ?? 0 };
      }),
  });
  const base = executor(sql);

  const transaction: Driver['transaction'] = (fn) => guarded(() => sql.begin((tx) => fn(executor(tx, true))) as Promise<any>);
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
