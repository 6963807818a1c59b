/**
 * The metadata store: a small async interface that bun:sqlite fills today and PostgreSQL
 * (NC_DB) can fill later. SQL uses `?` placeholders and portable types.
 */
export interface MetaStore {
  readonly kind: 'sqlite' | 'pg';
  all<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T | undefined>;
  run(sql: string, params?: unknown[]): Promise<{ changes: number }>;
  /** Runs several statements of trusted SQL text (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs fn in one transaction; other callers wait until it ends. */
  transaction<T>(fn: (tx: MetaStore) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Inside a transaction: the store it belongs to (caches are kept per root store). */
  readonly root?: MetaStore;
}
