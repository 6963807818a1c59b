/** Every named limit of the server, in one place (spec section 9 and api-contract). */
export const LIMITS = {
  /** Default page size of generated list APIs. */
  defaultPageSize: 25,
  /** Upper bound of `limit` unless NC_DB_QUERY_LIMIT_MAX says otherwise. */
  queryLimitMax: 1000,
  /** `/count` time-out in ms unless NC_COUNT_TIMEOUT_MS says otherwise. */
  countTimeoutMs: 10_000,
  /** Request bodies above this many bytes answer 413. */
  bodyLimitBytes: 10 * 1024 * 1024,
  /** JWT lifetime. */
  jwtExpiresIn: '10h',
  /** Refresh token lifetime in ms (30 days). */
  refreshTokenTtlMs: 30 * 24 * 3600 * 1000,
  /** Password reset tokens expire after one hour. */
  passwordResetTtlMs: 3600 * 1000,
  /** Invite links expire after 24 hours. */
  inviteTtlMs: 24 * 3600 * 1000,
  /** A sign-in started with a provider must come back within 10 minutes. */
  oauthStateTtlMs: 10 * 60 * 1000,
  /** Largest uploaded profile picture. */
  pictureMaxBytes: 1024 * 1024,
  /** Longest profile picture URL. */
  pictureUrlMaxLength: 2000,
  /** Minimum password length (spec section 5). */
  passwordMinLength: 8,
  /** Sign-in / reset attempts per window per IP and per email. */
  authRateLimit: { max: 10, windowMs: 60_000 },
  /** Connections per project database pool. */
  poolMax: 10,
  /** How long to wait for a project database connection before answering 503. */
  connectTimeoutMs: 5_000,
  /** Graceful shutdown waits this long for in-flight requests. */
  shutdownGraceMs: 10_000,
  /** Rows a raw SQL statement (SQL Client) answers at most; the rest are cut. */
  rawSqlMaxRows: 1000,
  /** Longest raw SQL statement accepted, in characters. */
  rawSqlMaxLength: 100_000,
  /** Longest row condition of a data rule, in characters. */
  rowConditionMaxLength: 2000,
  /** UI ability defaults (spec section 3). */
  maxTables: 99999,
  maxTabs: 99,
  /** Longest formula text a virtual column may hold. */
  formulaMaxLength: 4096,
  /** Column references of one formula once the formulas it uses are expanded (guards against doubling chains). */
  formulaExpandedRefs: 1000,
  /** Longest display name of a virtual column. */
  virtualColumnAliasMax: 128,
  /** Virtual columns per table. */
  virtualColumnsPerTable: 100,
  /** Highest `max` a Rating column may take. */
  ratingMax: 10,
  /** The `max` of a Rating column that sets none. */
  ratingDefaultMax: 5,
  /** Most decimal places a Decimal or Percent column shows. */
  displayPrecisionMax: 8,
  /** Most files an Attachment column may allow per value (its `maxFiles` is at most this). */
  attachmentMaxFiles: 100,
  /** A PhoneNumber value holds at least this many digits. */
  phoneMinDigits: 3,
  /** Longest table or column name a schema change accepts (MySQL's identifier limit). */
  sqlNameMax: 64,
  /** Largest file an import uploads (multipart dashboard calls only; streamed to disk). */
  importMaxBytes: 2 * 1024 * 1024 * 1024,
} as const;
