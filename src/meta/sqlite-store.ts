/** MetaStore on bun:sqlite: WAL, foreign keys on, busy timeout, one connection serialised by a lock. */
import { Database } from 'bun:sqlite';
import type { MetaStore } from './store';

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

/** At most this long between a runLater write and its commit (sooner when anything else uses the store). */
const LATER_MS = 20;

/** Opens (creating if needed) the metadata database file. `:memory:` works for tests. */
export function openSqliteMetaStore(path: string): MetaStore {
  const db = new Database(path, { create: true, strict: true });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA synchronous = NORMAL');
  const lock = new Lock();
  const ops = makeOps(db, 'sqlite');
  let closed = false;

  // Writes asked for with runLater: committed together, in one transaction, before the next statement
  // anyone asks of the store runs (so every later read sees them) or after LATER_MS at the latest.
  let later: { sql: string; params: Param[] }[] = [];
  let laterTimer: Timer | undefined;
  const flushLater = () => {
    if (later.length === 0) return;
    const batch = later;
    later = [];
    if (laterTimer) clearTimeout(laterTimer), (laterTimer = undefined);
    try {
      db.transaction(() => {
        for (const w of batch) db.query(w.sql).run(...w.params);
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
    runLater(sql, params) {
      if (closed) return;
      later.push({ sql, params: toParams(params) });
      laterTimer ??= setTimeout(() => void locked(async () => {}), LATER_MS);
    },
    transaction<T>(fn: (tx: MetaStore) => Promise<T>) {
      return locked(async () => {
        const tx: MetaStore = {
          ...ops,
          root: store,
          transaction: (inner) => inner(tx),
          runLater: undefined,
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
