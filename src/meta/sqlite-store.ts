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

  const store: MetaStore = {
    kind: 'sqlite',
    all: (sql, params) => lock.run(() => ops.all(sql, params)),
    get: (sql, params) => lock.run(() => ops.get(sql, params)),
    run: (sql, params) => lock.run(() => ops.run(sql, params)),
    exec: (sql) => lock.run(() => ops.exec(sql)),
    transaction<T>(fn: (tx: MetaStore) => Promise<T>) {
      return lock.run(async () => {
        const tx: MetaStore = {
          ...ops,
          root: store,
          transaction: (inner) => inner(tx),
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
      await lock.run(async () => db.close());
    },
  };
  return store;
}
