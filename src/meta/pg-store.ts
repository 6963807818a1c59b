/**
 * MetaStore on PostgreSQL (NC_DB=postgres://...): the same `?` SQL as the SQLite store, rewritten
 * to `$n`; a pool from the `postgres` driver; transactions serialised across every instance that
 * shares the database (a transaction-scoped advisory lock, like SQLite's one writer), and a
 * LISTEN/NOTIFY channel for cache invalidation (see invalidation.ts). When the database cannot be
 * reached a call answers 503 and the next one tries again, so the store recovers by itself.
 *
 * Two things keep an outage quick to answer. The driver waits before opening a connection again,
 * longer after every refused attempt (up to 20 s by default): its wait is kept short here. And a
 * query still waiting for a connection after META_QUERY_DEADLINE_MS answers 503 and is never sent;
 * a query already sent is left to the server (its statement_timeout) and to the connection, since
 * only their answer says whether a write took place.
 */
import postgres from 'postgres';
import { AppError, unavailable } from '../lib/errors';
import type { MetaStore, MetaNotifications } from './store';

/** The message of the 503 answered while the metadata database is unreachable. */
export const MSG_META_UNREACHABLE = 'The metadata database is unreachable; try again in a moment.';
/** Key of the advisory lock every metadata transaction takes (one writer at a time, as on SQLite). */
const TX_LOCK = 7_410_253;
/** How long a query may wait for a connection before it answers 503 unsent (the store does not answer). */
export const META_QUERY_DEADLINE_MS = 5_000;
/** The longest wait, in seconds, before a connection is opened again after a failed attempt. */
const RECONNECT_WAIT_MAX_SEC = 0.5;
/** The wait before the n-th attempt in a row: 50 ms doubling, at most RECONNECT_WAIT_MAX_SEC. */
const reconnectWait = (attempts: number) => Math.min(0.05 * 2 ** attempts, RECONNECT_WAIT_MAX_SEC);

/** Rewrites `?` placeholders to `$1, $2, ...`, leaving quoted text, identifiers and `--` comments alone. */
export function toDollarParams(sql: string): string {
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (quote) {
      if (c === quote) quote = null;
      out += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      out += c;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end < 0 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === '?') out += `$${++n}`;
    else out += c;
  }
  return out;
}

const NETWORK = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EHOSTUNREACH|CONNECT_TIMEOUT|CONNECTION_CLOSED|CONNECTION_ENDED|CONNECTION_DESTROYED|Connection terminated|Failed to connect|socket/i;
/** 57P01-57P03: the server is shutting down or starting; 53300: too many connections. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08006']);

/** True for errors that mean the metadata database could not be reached or dropped the connection. */
export function isUnreachable(e: unknown): boolean {
  const code = String((e as { code?: unknown })?.code ?? '');
  if (UNAVAILABLE_STATES.has(code) || NETWORK.test(code)) return true;
  return NETWORK.test(String((e as Error)?.message ?? '')) && !(e instanceof AppError);
}

const wrap = (e: unknown): unknown => (isUnreachable(e) ? Object.assign(unavailable(MSG_META_UNREACHABLE), { cause: e }) : e);

const toParams = (params: unknown[] = []) =>
  params.map((p) => (p === undefined ? null : p instanceof Date ? p.toISOString() : typeof p === 'boolean' ? (p ? 1 : 0) : typeof p === 'bigint' ? p.toString() : p)) as postgres.ParameterOrJSON<never>[];

type Sql = postgres.Sql | postgres.TransactionSql;

/** The driver's fields of a query read here: `state` is set once the query is written to a connection. */
interface DriverQuery {
  state: unknown;
  strings: string[];
  args: unknown[];
  options: { simple?: boolean; prepare?: boolean };
}

/**
 * Answers the query's result, or a 503 when the query has not been sent within `deadlineMs` (no
 * connection could be opened meanwhile). The late query is made harmless rather than cancelled: the
 * driver may already have given it to a connection still opening, which would wait for it forever if
 * it were cancelled; it runs `SELECT 1` there instead once the store is back, and frees the connection.
 */
function sentWithin<T>(query: postgres.PendingQuery<postgres.Row[]>, deadlineMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const q = query as unknown as DriverQuery;
      if (q.state) return;
      q.strings = ['SELECT 1'];
      q.args = [];
      q.options.simple = true;
      q.options.prepare = false;
      reject(unavailable(MSG_META_UNREACHABLE));
    }, deadlineMs);
    query.then(
      (rows) => {
        clearTimeout(timer);
        resolve(rows as T);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

function ops(sql: Sql, deadlineMs: number) {
  const q = (text: string, params?: unknown[]) =>
    sentWithin<postgres.RowList<postgres.Row[]>>(sql.unsafe(toDollarParams(text), toParams(params), { prepare: true }), deadlineMs);
  return {
    kind: 'pg' as const,
    async all<T>(text: string, params?: unknown[]): Promise<T[]> {
      try {
        return [...(await q(text, params))] as T[];
      } catch (e) {
        throw wrap(e);
      }
    },
    async get<T>(text: string, params?: unknown[]): Promise<T | undefined> {
      try {
        return ((await q(text, params))[0] ?? undefined) as T | undefined;
      } catch (e) {
        throw wrap(e);
      }
    },
    async run(text: string, params?: unknown[]) {
      try {
        const r = await q(text, params);
        return { changes: r.count ?? 0 };
      } catch (e) {
        throw wrap(e);
      }
    },
    async exec(text: string) {
      try {
        await sentWithin(sql.unsafe(text), deadlineMs);
      } catch (e) {
        throw wrap(e);
      }
    },
  };
}

/** Integers (COUNT, SUM, BIGINT) and numerics come back as numbers, as from SQLite. */
const NUMBER_TYPES = {
  int8: { to: 20, from: [20], serialize: (x: unknown) => String(x), parse: (x: string) => Number(x) },
  numeric: { to: 1700, from: [1700], serialize: (x: unknown) => String(x), parse: (x: string) => Number(x) },
};

/** Opens a pooled store on a `postgres://` URL (the database must exist; tables come from migrateMeta). */
export function openPgMetaStore(
  url: string,
  opts: { max?: number; connectTimeoutSec?: number; queryDeadlineMs?: number } = {},
): MetaStore & MetaNotifications {
  const deadlineMs = opts.queryDeadlineMs ?? META_QUERY_DEADLINE_MS;
  const common = {
    connect_timeout: opts.connectTimeoutSec ?? 5,
    backoff: reconnectWait,
    onnotice: () => {},
    types: NUMBER_TYPES as any,
    fetch_types: false,
    connection: { application_name: 'tablo-meta' },
  };
  const sql = postgres(url, { ...common, max: opts.max ?? 10, idle_timeout: 60 });
  const base = ops(sql, deadlineMs);
  let closed = false;
  const listeners: Array<() => Promise<void>> = [];

  const store: MetaStore & MetaNotifications = {
    ...base,
    async transaction<T>(fn: (tx: MetaStore) => Promise<T>): Promise<T> {
      try {
        return (await sql.begin(async (t) => {
          await t.unsafe(`SELECT pg_advisory_xact_lock(${TX_LOCK})`);
          const tx: MetaStore = { ...ops(t, deadlineMs), root: store, transaction: (inner) => inner(tx), close: async () => {} };
          return fn(tx);
        })) as T;
      } catch (e) {
        throw wrap(e);
      }
    },
    async notify(channel: string, payload: string, via?: MetaStore) {
      // A closed store belongs to an instance that stopped: nothing of it is owed to the others.
      if (closed) return;
      await (via ?? store).get('SELECT pg_notify(?, ?) AS sent', [channel, payload]);
    },
    async listen(channel, onPayload, onResync) {
      const { stop, ready } = listenSupervised(url, common, channel, onPayload, onResync);
      listeners.push(stop);
      await ready;
      return stop;
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(listeners.splice(0).map((s) => s()));
      await sql.end({ timeout: 2 });
    },
  };
  return store;
}

/** The application name of the listening connection (an operator tells it from the pool's). */
export const LISTEN_APPLICATION_NAME = 'tablo-meta-listen';

/**
 * LISTEN on a connection of its own, kept alive: when the connection drops (or a ping fails) it
 * is opened again every half second until LISTEN succeeds, and then `onResync` says that messages
 * may have been missed in between.
 */
function listenSupervised(url: string, common: object, channel: string, onPayload: (p: string) => void, onResync: () => void) {
  let listening = false;
  let stopped = false;
  let first = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const conn = postgres(url, {
    ...common,
    connection: { application_name: LISTEN_APPLICATION_NAME },
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    onnotify: (c: string, payload: string) => c === channel && onPayload(payload),
    onclose: () => {
      listening = false;
      if (stopped) return;
      clearTimeout(timer);
      timer = setTimeout(loop, 100);
    },
  } as postgres.Options<{}>);
  const quoted = '"' + channel.replace(/"/g, '""') + '"';
  const tick = async () => {
    if (stopped) return;
    try {
      if (!listening) {
        await conn.unsafe(`LISTEN ${quoted}`);
        listening = true;
        if (!first) onResync();
        first = false;
      } else await conn.unsafe('SELECT 1');
    } catch {
      listening = false;
    }
  };
  const loop = async () => {
    clearTimeout(timer);
    await tick();
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(loop, listening ? 2000 : 500);
  };
  /** Settles after the first attempt to listen (whether it worked or not). */
  const ready = loop();
  const stop = async () => {
    stopped = true;
    clearTimeout(timer);
    await conn.end({ timeout: 1 }).catch(() => {});
  };
  return { stop, ready };
}
