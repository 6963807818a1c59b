/**
 * Typed errors with stable codes. Every layer throws these; the HTTP edge maps them to
 * `{ msg }` with the status of api-contract section 1. Anything else becomes a 500 without details.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'INTERNAL'
  | 'UNAVAILABLE'
  | 'BAD_GATEWAY'
  | 'TIMEOUT';

const STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  BAD_GATEWAY: 502,
  TIMEOUT: 504,
};

/** An error whose message is safe to show to the caller. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra headers for the answer (e.g. Retry-After). */
  readonly headers?: Record<string, string>;
  /** The message is the database's own words (shown to owners and creators only, see data/masked-db.ts). */
  fromDatabase?: boolean;
  constructor(code: ErrorCode, msg: string, headers?: Record<string, string>) {
    super(msg);
    this.name = 'AppError';
    this.code = code;
    this.status = STATUS[code];
    this.headers = headers;
  }
}

export const badRequest = (msg: string) => new AppError('BAD_REQUEST', msg);
export const unauthorized = (msg = 'Not signed in') => new AppError('UNAUTHORIZED', msg);
export const forbidden = (msg = 'Not allowed') => new AppError('FORBIDDEN', msg);
export const notFound = (msg = 'Not found') => new AppError('NOT_FOUND', msg);
export const conflict = (msg: string) => new AppError('CONFLICT', msg);
export const unavailable = (msg: string) => new AppError('UNAVAILABLE', msg);
export const timeout = (msg: string) => new AppError('TIMEOUT', msg);
/** Another server (one the caller asked Tablo to reach) failed or answered nothing usable. */
export const badGateway = (msg: string) => new AppError('BAD_GATEWAY', msg);
export const rateLimited = (msg = 'Too many attempts, please try again later', retryAfterSec = 60) =>
  new AppError('RATE_LIMITED', msg, { 'retry-after': String(retryAfterSec) });

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
