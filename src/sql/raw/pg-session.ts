/**
 * PostgreSQL raw session: its own connection (not the pool's), whose backend pid is read at open.
 * The time limit is `statement_timeout` of that connection; cancel is `pg_cancel_backend(pid)`
 * sent from another connection, so the statement stops in the server, and a cursor still being
 * read is closed.
 */
import postgres from 'postgres';
import type { ConnectionOptions, Executor } from '../dialect';
import { isNetworkError } from '../driver-errors';
import { LIMITS } from '../../config/limits';
import { completeStream, makeStream, RawSqlError, STREAM_BATCH, timeLimit, type RawSession, type RawStream } from './types';

const asText = { to: 25, from: [1082, 1083, 1114, 1184, 1266], serialize: (x: unknown) => x, parse: (x: string) => x };

/** Statements read through a cursor (the first rows shown while the rest are read). */
const CURSOR_READS = /^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*\(?\s*(select|with|values|table)\b/i;

/**
 * Maps a postgres error to a RawSqlError. PostgreSQL's `position` is 1-based and counts characters;
 * the offset given is in UTF-16 units of `text`, as the editor counts (an emoji is two there).
 */
function rawError(e: unknown, cancelled: boolean, text?: string): RawSqlError {
  const err = e as { code?: string; message?: string; position?: string | number };
  if (err.code === '57014') return cancelled ? new RawSqlError('The statement was cancelled', 'cancelled', undefined, undefined, err.code) : new RawSqlError('The statement took too long and was cancelled (statement time-out)', 'timeout', undefined, undefined, err.code);
  if (isNetworkError(e)) return new RawSqlError(cancelled ? 'The statement was cancelled' : 'The connection to the database was lost', cancelled ? 'cancelled' : 'unreachable');
  const pos = Number(err.position);
  const offset = Number.isFinite(pos) && pos > 0 ? (text === undefined ? pos - 1 : [...text].slice(0, pos - 1).join('').length) : undefined;
  return new RawSqlError(err.message ?? String(e), 'statement', offset, undefined, err.code);
}

/** Opens a dedicated connection and learns its pid; `pool` sends the cancel. */
export async function openPgSession(c: ConnectionOptions, pool: Executor): Promise<RawSession> {
  const ssl = !c.ssl || c.ssl.mode === 'No' ? false : c.ssl.mode === 'Preferred' ? 'prefer' : { rejectUnauthorized: c.ssl.mode !== 'Required', ca: c.ssl.ca, key: c.ssl.key, cert: c.ssl.cert };
  const sql = postgres({
    host: c.host,
    port: c.port,
    user: c.user,
    password: c.password ?? '',
    database: c.database,
    max: 1,
    connect_timeout: Math.ceil(LIMITS.connectTimeoutMs / 1000),
    ssl: ssl as any,
    onnotice: () => {},
    types: { tablo_dates: asText } as any,
    connection: { application_name: 'tablo-sql-client', ...(c.schema ? { search_path: c.schema } : {}) },
  });
  let pid: number;
  try {
    pid = Number((await sql`SELECT pg_backend_pid() AS pid`)[0]!.pid);
  } catch (e) {
    await sql.end({ timeout: 1 }).catch(() => {});
    throw rawError(e, false);
  }
  const typeNames = new Map<number, string>();
  let cancelled = false;
  let running = false;

  const namesOf = async (oids: number[]) => {
    const missing = [...new Set(oids.filter((o) => !typeNames.has(o)))];
    if (!missing.length) return;
    const rows = await sql.unsafe('SELECT oid::int AS oid, format_type(oid, NULL) AS name FROM pg_type WHERE oid = ANY($1::int[])', [missing as any]);
    for (const r of rows) typeNames.set(Number(r.oid), String(r.name));
  };

  return {
    connectionId: pid,
    async run(text, timeoutMs, maxRows): Promise<RawStream> {
      cancelled = false;
      running = true;
      try {
        // An integer we computed, not caller text: SET does not take bound parameters.
        await sql.unsafe(`SET statement_timeout = ${timeLimit(timeoutMs)}`);
        // Described first (not run): whether it answers rows, and their columns and types.
        const described = (await sql.unsafe(text).describe()) as unknown as { columns?: { name: string; type: number }[] | null };
        const cols = described.columns ?? [];
        if (!cols.length || !CURSOR_READS.test(text)) {
          // No rows (DDL, writes) or a utility statement (EXPLAIN, SHOW) a cursor cannot page: read at once.
          const r = await sql.unsafe(text).values();
          await namesOf(cols.map((col) => col.type)).catch(() => {});
          running = false;
          const columns = cols.map((col) => ({ name: col.name, type: typeNames.get(col.type) ?? String(col.type) }));
          return completeStream({ columns, rows: cols.length ? [...(r as unknown as unknown[][])] : [], rowCount: cols.length ? r.length : 0, affected: cols.length ? 0 : (r.count ?? 0), truncated: false }, maxRows);
        }
        await namesOf(cols.map((col) => col.type)).catch(() => {});
        const feed = makeStream(maxRows);
        feed.stream.columns = cols.map((col) => ({ name: col.name, type: typeNames.get(col.type) ?? String(col.type) }));
        const first = Promise.withResolvers<void>();
        void (async () => {
          try {
            // A cursor: the first rows are shown while the rest are read.
            for await (const batch of sql.unsafe(text).values().cursor(STREAM_BATCH)) {
              // Between fetches the server waits for us (no statement to cancel there): the cursor is
              // closed from this side too.
              if (cancelled) break;
              feed.push(batch as unknown as unknown[][]);
              // The row limit is reached: the cursor is closed, the rest are not produced.
              if (feed.stream.truncated) break;
              // A full batch: more may follow, so the first rows are answered now.
              if (batch.length >= STREAM_BATCH) first.resolve();
            }
            if (cancelled) throw new RawSqlError('The statement was cancelled', 'cancelled');
            feed.finish();
          } catch (e) {
            feed.fail(e instanceof RawSqlError ? e : rawError(e, cancelled, text));
          } finally {
            running = false;
            first.resolve();
          }
        })();
        await first.promise;
        if (feed.stream.error && !feed.stream.rows.length) throw feed.stream.error;
        return feed.stream;
      } catch (e) {
        running = false;
        throw e instanceof RawSqlError ? e : rawError(e, cancelled, text);
      }
    },
    async cancel() {
      if (!running) return;
      cancelled = true;
      await pool.query({ sql: 'SELECT pg_cancel_backend($1)', params: [pid] });
    },
    close: () => sql.end({ timeout: 1 }).catch(() => {}),
  };
}
