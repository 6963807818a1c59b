/**
 * The metadata store: a small async interface filled by bun:sqlite (the default, sqlite-store.ts)
 * and PostgreSQL (NC_DB, pg-store.ts). SQL uses `?` placeholders and portable types.
 */
export interface MetaStore {
  readonly kind: 'sqlite' | 'pg';
  all<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T | undefined>;
  run(sql: string, params?: unknown[]): Promise<{ changes: number }>;
  /**
   * Rows inserted without anyone waiting (the audit log's records): written soon, the rows of many
   * calls in a few multi-row INSERTs and one commit, and before any statement asked of the store after
   * this call, so every later read sees them. Failures are logged. `table` and `columns` are trusted
   * names. Only stores that can keep that order offer it (SQLite: one connection); the others `run`.
   */
  insertLater?(table: string, columns: readonly string[], rows: unknown[][]): void;
  /** Runs several statements of trusted SQL text (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs fn in one transaction; other callers wait until it ends. */
  transaction<T>(fn: (tx: MetaStore) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Inside a transaction: the store it belongs to (caches are kept per root store). */
  readonly root?: MetaStore;
}

/** Messages between instances sharing one store (PostgreSQL LISTEN/NOTIFY). */
export interface MetaNotifications {
  /** Sends `payload` on `channel`; through `via` (a transaction) it is delivered when that commits. */
  notify(channel: string, payload: string, via?: MetaStore): Promise<void>;
  /**
   * Delivers every payload sent on `channel`; `onResync` is called after the connection came back
   * (messages may have been lost meanwhile). Answers a function that stops listening.
   */
  listen(channel: string, onPayload: (payload: string) => void, onResync: () => void): Promise<() => Promise<void>>;
}

/** The store's notifications, when it has them (PostgreSQL). */
export const notificationsOf = (meta: MetaStore): MetaNotifications | undefined => {
  const root = (meta.root ?? meta) as MetaStore & Partial<MetaNotifications>;
  return root.notify && root.listen ? (root as MetaNotifications) : undefined;
};
