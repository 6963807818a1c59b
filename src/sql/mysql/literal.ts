/**
 * String literals in MySQL/MariaDB DDL (defaults cannot be bound parameters). MySQL reads a
 * backslash inside quotes as an escape unless NO_BACKSLASH_ESCAPES is on, so `x\'` would end the
 * literal early and let the rest run as SQL: backslashes are doubled as well as quotes, and the
 * driver turns NO_BACKSLASH_ESCAPES off for its sessions (driver.ts), so this spelling means the
 * same text on every server.
 */

/** `text` as a single-quoted MySQL string literal. */
export const mysqlString = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** Run on every new connection: backslash escapes on, whatever the server's default sql_mode. */
export const BACKSLASH_ESCAPES_ON = "SET SESSION sql_mode = TRIM(BOTH ',' FROM REPLACE(CONCAT(',', @@SESSION.sql_mode, ','), ',NO_BACKSLASH_ESCAPES,', ','))";
