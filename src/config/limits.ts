/** Every named limit of the server, in one place (spec section 9 and api-contract). */
export const LIMITS = {
  /** Default page size of generated list APIs. */
  defaultPageSize: 25,
  /** Upper bound of `limit` unless NC_DB_QUERY_LIMIT_MAX says otherwise. */
  queryLimitMax: 1000,
  /** Most ranges one distribution (REST `/distribute`, GraphQL `TDistribution`) counts: each is a column of one statement. */
  distributeMaxRanges: 1000,
  /** `/count` time-out in ms unless NC_COUNT_TIMEOUT_MS says otherwise. */
  countTimeoutMs: 10_000,
  /** API client requests sent from the server: time limit and most bytes of an answer kept. */
  apiClientTimeoutMs: 30_000,
  apiClientMaxBytes: 5 * 1024 * 1024,
  /** gRPC client: time limit of a call and most messages of a server stream kept. */
  grpcDeadlineMs: 30_000,
  grpcMaxMessages: 1000,
  /** Time limit of every data statement on PostgreSQL, MariaDB and SQL Server, and of cron jobs' SQL statements on SQLite too (NC_QUERY_TIMEOUT_MS; 0 = none). */
  queryTimeoutMs: 30_000,
  /**
   * A request whose address and headers take more bytes than this answers 414 (a long address, such
   * as a long `where`) or 431 with `{msg}` (http/request-head.ts); the web app sends no longer address.
   */
  requestHeadMaxBytes: 64 * 1024,
  /**
   * Bun's own HTTP parser refuses a longer request head with 431 and an empty body before Tablo's code
   * runs: the binary (--compile-exec-argv) and `bun run start` raise its 16 KiB default to this, so
   * heads between requestHeadMaxBytes and it get Tablo's `{msg}`.
   */
  httpParserMaxHeaderBytes: 1024 * 1024,
  /** Request bodies above this many bytes answer 413. */
  bodyLimitBytes: 10 * 1024 * 1024,
  /** JSON bodies nested deeper than this (arrays and objects) answer 400. */
  jsonMaxDepth: 64,
  /** Deepest nesting of groups in a where (or of _and/_or/_not in a JSON condition); deeper is a 400, not a stack overflow. */
  whereMaxDepth: 64,
  /** JWT lifetime. */
  jwtExpiresIn: '10h',
  /** Refresh token lifetime in ms (30 days). */
  refreshTokenTtlMs: 30 * 24 * 3600 * 1000,
  /**
   * A refresh token rotated less than this long ago, whose successor was never used, is a retry (the answer
   * that carried the successor was lost, or two tabs refreshed at once), not a stolen copy: it rotates again.
   */
  refreshRetryGraceMs: 60 * 1000,
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
  /** Wrong shared-view passwords per link and client address per window; past it, 429. */
  sharedViewPasswordRateLimit: { max: 10, windowMs: 60_000 },
  /** Longest where of a saved view: about what the web app can send in an address (LIMITS.maxAddressChars there). */
  viewWhereMaxChars: 60_000,
  /** Largest query_params of a saved view, as JSON text. */
  viewQueryParamsMaxChars: 100_000,
  /** Submissions to one shared form per client address per window; past it, 429. */
  sharedFormSubmitRateLimit: { max: 30, windowMs: 60_000 },
  /** Uploads to one shared form's Attachment fields per client address per window (one request per file); past it, 429. */
  sharedFormUploadRateLimit: { max: 60, windowMs: 60_000 },
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
  /** Rows one SQL Client statement answers at most (the grid is virtualised); the rest are cut. */
  sqlClientMaxRows: 100_000,
  /** SQL Client statement time-out when the run names none, and the longest one a run may ask. */
  sqlClientDefaultTimeoutMs: 60_000,
  sqlClientMaxTimeoutMs: 3_600_000,
  /** Longest name of a saved SQL query. */
  sqlQueryNameMax: 200,
  /** Longest row condition of a data rule, in characters. */
  rowConditionMaxLength: 2000,
  /** UI ability defaults (spec section 3). */
  maxTables: 99999,
  maxTabs: 99,
  /** Longest formula text a virtual column may hold. */
  formulaMaxLength: 4096,
  /** Column references of one formula once the formulas it uses are expanded (guards against doubling chains). */
  formulaExpandedRefs: 1000,
  /** Deepest nesting of a formula's SQL once expanded (SQLite refuses 1000, MariaDB's stack ends near 500). */
  formulaMaxDepth: 256,
  /** Largest SQL of a formula once expanded, in expression parts (guards repeat their arguments; see exprShape). */
  formulaMaxSqlNodes: 20_000,
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
  /** Largest uploaded attachment file unless NC_ATTACHMENT_MAX_BYTES says otherwise. */
  attachmentMaxBytes: 10 * 1024 * 1024 - 64 * 1024,
  /** Interval of the sweep that removes stored files no row holds (NC_ATTACHMENT_SWEEP_MS). */
  attachmentSweepMs: 10 * 60 * 1000,
  /**
   * Delay between a committed update or delete and the sweep of its table's files: well past the
   * web app's Undo of a row delete (its LIMITS.deleteUndoMs), whose row comes back naming the same files.
   */
  attachmentSweepAfterWriteMs: 30_000,
  /** An uploaded file whose cell write never committed is swept after this long. */
  attachmentPendingGraceMs: 60 * 60 * 1000,
  /** Short-lived links to stored files (signed S3 download links too) live this long (seconds) unless NC_ATTACHMENT_LINK_SECONDS says otherwise. */
  attachmentSignedUrlSeconds: 300,
  /** An S3 call (store, read, delete one file) that gets no answer this long fails instead of waiting for good. */
  storageTimeoutMs: 60_000,
  /** Largest branding logo upload. */
  brandingLogoMaxBytes: 512 * 1024,
  /** A PhoneNumber value holds at least this many digits. */
  phoneMinDigits: 3,
  /** Longest table or column name a schema change accepts (MySQL's identifier limit). */
  sqlNameMax: 64,
  /** Terminals one person may have open at once (spec: 'Only 5 terminals can be opened'). */
  terminalsMax: 5,
  /** The newest output of a terminal, replayed to a page that comes back to it after a reload. */
  terminalReplayBytes: 64 * 1024,
  /** A terminal whose socket is gone this long ends (its process group is killed). */
  terminalDetachGraceMs: 30_000,
  /** Terminal output waiting in a socket's buffer above which the pty is paused (XOFF), and resumed below. */
  terminalHighWaterBytes: 1024 * 1024,
  terminalLowWaterBytes: 128 * 1024,
  /** Output kept for a terminal while its socket is gone, replayed when it comes back. */
  terminalBacklogBytes: 256 * 1024,
  /** Webhooks: attempts per delivery, time-out of one attempt, first retry delay (doubles each time). */
  hookMaxAttempts: 5,
  hookTimeoutMs: 10_000,
  hookRetryBaseMs: 10_000,
  /** How often the delivery worker looks for due deliveries (new ones start at once). */
  hookPollMs: 1_000,
  /** Deliveries sent at once by one instance. */
  hookConcurrency: 32,
  /** Longest body template, e-mail text or URL of a hook, in characters. */
  hookTemplateMax: 20_000,
  /** Characters of a receiver's answer or a cron result kept in the logs. */
  automationResultMax: 2_000,
  /** Log lines kept per hook and runs kept per cron job (older ones are deleted). */
  hookLogKeep: 1000,
  /** Next run times a cron job shows. */
  cronNextRuns: 5,
  /**
   * When Tablo stops, how long it waits for cron runs under way before recording them as stopped
   * (within the 10 s a container is given before it is killed).
   */
  cronStopWaitMs: 5_000,
  /**
   * On a shared (PostgreSQL) metadata store, each instance renews its cron liveness lease this often;
   * the lease lasts cronHolderTtlMs. A run still "running" whose instance's lease has lapsed (and that
   * started longer ago than that) was left by an instance that ended abruptly: it is recorded as stopped.
   */
  cronHeartbeatMs: 10_000,
  cronHolderTtlMs: 30_000,
  /** Time limit of a cron job's HTTP call. */
  cronHttpTimeoutMs: 10_000,
  /** Largest file an import uploads (multipart dashboard calls only; streamed to disk). */
  importMaxBytes: 2 * 1024 * 1024 * 1024,
} as const;
