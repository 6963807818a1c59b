/** MetaStore on bun:sqlite: WAL, foreign keys on, busy timeout, one connection serialised by a lock. */
import { Database } from 'bun:sqlite';
import type { MetaStore } from './store';
import { registerUnicodeCase } from '../lib/unicode-case';

type Param = string | number | bigint | boolean | null | Uint8Array;

class Lock {
  private tail: Promise<void> = Promise.resolve();
  /** Runs fn after every earlier holder has finished. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn, fn);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

const toParams = (params: unknown[] = []): Param[] =>
  params.map((p) => (p === undefined ? null : p instanceof Date ? p.toISOString() : (p as Param)));

function makeOps(db: Database, kind: 'sqlite') {
  return {
    kind,
    async all<T>(sql: string, params?: unknown[]) {
      return db.query(sql).all(...toParams(params)) as T[];
    },
    async get<T>(sql: string, params?: unknown[]) {
      return (db.query(sql).get(...toParams(params)) ?? undefined) as T | undefined;
    },
    async run(sql: string, params?: unknown[]) {
      const r = db.query(sql).run(...toParams(params));
      return { changes: r.changes };
    },
    async exec(sql: string) {
      db.exec(sql);
    },
  };
}

/** At most this long between an insertLater row and its commit (sooner when anything else uses the store). */
const LATER_MS = 50;
/** Rows per multi-row INSERT of the deferred rows: chunks of these sizes, so few statement texts are prepared. */
const LATER_CHUNKS = [256, 64, 16, 4, 1];

/** The rows of one table and column list waiting for the next commit. */
interface LaterRows {
  table: string;
  columns: readonly string[];
  rows: Param[][];
}

/** Opens (creating if needed) the metadata database file. `:memory:` works for tests. */
export function openSqliteMetaStore(path: string): MetaStore {
  const db = new Database(path, { create: true, strict: true });
  // The wait first: setting the journal mode waits for a connection that holds the file too.
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA synchronous = NORMAL');
  // tablo_lower: searches fold non-ASCII text too, as PostgreSQL's lower() does.
  registerUnicodeCase(db);
  const lock = new Lock();
  const ops = makeOps(db, 'sqlite');
  let closed = false;

  // Rows asked for with insertLater: committed together, in one transaction, before the next statement
  // anyone asks of the store runs (so every later read sees them) or after LATER_MS at the latest.
  let later = new Map<string, LaterRows>();
  let laterTimer: Timer | undefined;
  const insertText = new Map<string, string>();
  /** INSERT INTO table (columns) VALUES (?, ...) x n, made once per table, columns and n. */
  const insertOf = (l: LaterRows, n: number) => {
    const key = `${l.table}\u0000${l.columns.join(',')}\u0000${n}`;
    let sql = insertText.get(key);
    if (!sql) {
      const row = `(${l.columns.map(() => '?').join(', ')})`;
      insertText.set(key, (sql = `INSERT INTO ${l.table} (${l.columns.join(', ')}) VALUES ${Array.from({ length: n }, () => row).join(', ')}`));
    }
    return sql;
  };
  const flushLater = () => {
    if (later.size === 0) return;
    const batch = later;
    later = new Map();
    if (laterTimer) clearTimeout(laterTimer), (laterTimer = undefined);
    try {
      db.transaction(() => {
        for (const l of batch.values()) {
          let at = 0;
          for (const size of LATER_CHUNKS) {
            for (; l.rows.length - at >= size; at += size) db.query(insertOf(l, size)).run(...l.rows.slice(at, at + size).flat());
          }
        }
      })();
    } catch (e) {
      console.error('meta store: deferred writes failed', e);
    }
  };
  /** Runs fn after every earlier holder, the deferred writes first. */
  const locked = <T>(fn: () => Promise<T>) =>
    lock.run(() => {
      flushLater();
      return fn();
    });

  const store: MetaStore = {
    kind: 'sqlite',
    all: (sql, params) => locked(() => ops.all(sql, params)),
    get: (sql, params) => locked(() => ops.get(sql, params)),
    run: (sql, params) => locked(() => ops.run(sql, params)),
    exec: (sql) => locked(() => ops.exec(sql)),
    insertLater(table, columns, rows) {
      if (closed || rows.length === 0) return;
      const key = `${table}\u0000${columns.join(',')}`;
      let l = later.get(key);
      if (!l) later.set(key, (l = { table, columns, rows: [] }));
      for (const r of rows) l.rows.push(toParams(r));
      laterTimer ??= setTimeout(() => void locked(async () => {}), LATER_MS);
    },
    transaction<T>(fn: (tx: MetaStore) => Promise<T>) {
      return locked(async () => {
        const tx: MetaStore = {
          ...ops,
          root: store,
          transaction: (inner) => inner(tx),
          insertLater: undefined,
          close: async () => {},
        };
        db.exec('BEGIN IMMEDIATE');
        try {
          const out = await fn(tx);
          db.exec('COMMIT');
          return out;
        } catch (e) {
          db.exec('ROLLBACK');
          throw e;
        }
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await locked(async () => db.close());
    },
  };
  return store;
}
