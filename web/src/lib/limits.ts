/** Every limit and duration of the web app, in one place (spec sections 5 and 9). */
export const LIMITS = {
  toastMs: { info: 2000, error: 3000, success: 3000, long: 5000 },
  /**
   * Longest address the app sends (a long filter makes it grow): the server answers addresses and
   * headers over 65,536 bytes with 414 (its LIMITS.requestHeadMaxBytes); this leaves room for the headers.
   */
  maxAddressChars: 60_000,
  tokenExpiredToastMs: 5000,
  /** How long a row delete offers Undo (the server sweeps the deleted rows' files only well after: its LIMITS.attachmentSweepAfterWriteMs). */
  deleteUndoMs: 8000,
  passwordMinLength: 8,
  maxTabsDefault: 99,
  maxTablesDefault: 99999,
  treePageSize: 20,
  /** Tables the Roles Management grid shows at a time (each row holds 20 buttons per 4 roles: thousands froze the page). */
  aclPageSize: 50,
  countTimeoutMs: 10_000,
  appBarHeight: 40,
  /** How often a signed-in session is checked with GET /user/me (spec 4: value not given). */
  sessionPollMs: 60_000,
  /** 504 answers in a row to that check before the user is cleared. */
  sessionPollMaxFailures: 3,
  /** How often an open page reads the update status again (spec 9: release check every 600000 ms). */
  releaseCheckMs: 600_000,
  /** Pause in typing before a formula is checked by the server. */
  formulaCheckMs: 300,
  /** Suggestions shown under the formula editor. */
  formulaSuggestions: 8,
  /** Highest value of a Rating column (the server's ratingMax). */
  ratingMax: 10,
  /** Rows of a file an import's preview reads to detect the column types (the server's SAMPLE_ROWS): fewer means the whole file. */
  importSampleRows: 1000,
  /**
   * Largest scroll height of the grid: taller tables scroll on a scaled bar (browsers lay out
   * elements only up to some 17-33 million px).
   */
  gridMaxScrollPx: 15_000_000,
  /** Longest table or column name (the shortest limit of the engines: PostgreSQL's 63). */
  sqlNameMax: 63,
  /** Pause after a change to a saved view before it is saved (a burst of changes makes one call). */
  viewSaveDelayMs: 400,
  /** Cards a kanban lane reads at a time. */
  kanbanLanePage: 25,
  /** Rows a calendar reads per call, and at most per range shown. */
  calendarPage: 500,
  calendarMaxRows: 5000,
  /** Entries a month's day shows before '+n more'. */
  calendarDayEntries: 3,
  /** Rows per page of a gallery or a shared grid. */
  viewPage: 100,
  /** Rows an open group of a grouped grid reads at a time, and the most groups listed. */
  groupPage: 25,
  maxGroups: 1000,
} as const;
