/**
 * Turns driver errors into AppErrors with the spec's wording: unreachable -> 503, bad
 * credentials -> 400, unique / foreign-key violations -> 409, time-outs -> 504, other statement
 * errors -> 400 with the database's own message. Each engine supplies a classifier.
 */
import { AppError, badRequest, conflict, timeout, unavailable } from '../lib/errors';

export const MSG_UNREACHABLE = 'Unable to connect to database, please check your database is up.';
export const MSG_BAD_CREDENTIALS = 'Invalid database credentials.';
export const MSG_NO_PERMISSION = 'User does not exist or have sufficient permission to create schema.';
/** SSL usage Required (or stricter) and a server without SSL. */
export const MSG_NO_SSL = 'The database server does not accept SSL connections: set SSL usage to No or Preferred.';
/** The project's database is gone from its server (dropped, renamed), as a missing SQLite file is. */
export const msgNoDatabase = (name: string) => `The database '${name}' does not exist`;
export const MSG_TIMEOUT = 'The statement took too long and was cancelled';
/** MariaDB/MySQL: a table whose row would pass the engine's row size (its varchar columns count whole, long text apart). */
export const MSG_ROW_TOO_LARGE = 'A row of the table would be larger than MariaDB and MySQL allow: make some of its text columns LongText, or use fewer columns';

export type ErrorClass =
  /** `message`: why, when the engine said (no SSL, the database is gone); else MSG_UNREACHABLE. */
  | { kind: 'unreachable'; message?: string }
  | { kind: 'credentials' }
  | { kind: 'permission' }
  /** `what`: the columns (or, failing that, the constraint) the engine named. */
  | { kind: 'unique'; what: string }
  /** `missingParent`: a child points at no row; otherwise a parent still has children. */
  | { kind: 'foreignKey'; what: string; missingParent: boolean }
  | { kind: 'timeout' }
  | { kind: 'statement'; message: string }
  | { kind: 'unknown' };

const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENETUNREACH',
  'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED',
  'PROTOCOL_CONNECTION_LOST', 'ERR_SOCKET_CLOSED', 'ESOCKET', 'ECONNCLOSED', 'ETIMEOUT',
]);

/** True for errors that mean the server could not be reached or the connection dropped. */
export function isNetworkError(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  const msg = String((e as Error)?.message ?? '');
  return /ECONNREFUSED|connect ETIMEDOUT|Connection terminated|socket hang up|Connection lost|closed the connection|Failed to connect/i.test(msg);
}

/** Maps a classified driver error to the AppError the caller sees. */
export function toAppError(e: unknown, cls: ErrorClass): AppError {
  if (e instanceof AppError) return e;
  switch (cls.kind) {
    case 'unreachable':
      return unavailable(cls.message ?? MSG_UNREACHABLE);
    case 'credentials':
      return badRequest(MSG_BAD_CREDENTIALS);
    case 'permission':
      return badRequest(MSG_NO_PERMISSION);
    case 'unique':
      return conflict(`A row with the same ${cls.what} already exists`);
    case 'foreignKey':
      return conflict(
        cls.missingParent
          ? `The value of ${cls.what} does not match any row it refers to`
          : `The row is still referred to by other rows (${cls.what})`,
      );
    case 'timeout':
      return timeout(MSG_TIMEOUT);
    case 'statement':
      return Object.assign(badRequest(cls.message), { fromDatabase: true });
    case 'unknown':
      return new AppError('INTERNAL', 'The database answered with an unexpected error');
  }
}

/** Wraps a driver call so every failure leaves as an AppError. */
export async function guard<T>(classify: (e: unknown) => ErrorClass, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw driverError(classify, e);
  }
}

/** The AppError for a failed driver call (for drivers that call synchronously). */
export function driverError(classify: (e: unknown) => ErrorClass, e: unknown): AppError {
  const cls = classify(e);
  const err = toAppError(e, cls);
  if (cls.kind === 'unknown') (err as AppError & { cause?: unknown }).cause = e;
  return err;
}
