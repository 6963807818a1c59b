/**
 * How MySQL / MariaDB errors read: mysql2's codes and errnos to the classes of driver-errors.ts.
 */
import { isNetworkError, msgNoDatabase, MSG_NO_SSL, MSG_ROW_TOO_LARGE, type ErrorClass } from '../driver-errors';

/** What a value must be, by the type MariaDB names in a refusal (the words of the data core's own checks). */
const VALUE_WORDS: Record<string, string> = {
  date: 'a date (YYYY-MM-DD)',
  datetime: 'a date and time (YYYY-MM-DD HH:MM:SS)',
  timestamp: 'a date and time (YYYY-MM-DD HH:MM:SS)',
  time: 'a time (HH:MM:SS)',
  integer: 'a whole number',
  decimal: 'a number',
  double: 'a number',
};

/**
 * "Incorrect datetime value: 'x' for column `shop`.`orders`.`due` at row 1" (a value a column of that
 * type cannot take, as a type change meets it) names the database: said as the data core says it,
 * naming the column alone. Undefined for other messages.
 */
function wrongValue(sqlMessage: string): string | undefined {
  const m = /^Incorrect (\w+) value: '([\s\S]*)' for column (?:`[^`]*`\.)*`([^`]*)` at row \d+$/.exec(sqlMessage);
  if (!m) return undefined;
  const [, type, value, column] = m as unknown as [string, string, string, string];
  return `Column '${column}': ${JSON.stringify(value)} is not ${VALUE_WORDS[type.toLowerCase()] ?? `a valid ${type} value`}`;
}

export function classifyMysql(e: unknown): ErrorClass {
  const err = e as { code?: string; errno?: number; message?: string; sqlMessage?: string; sqlState?: string; fatal?: boolean };
  switch (err.code) {
    case 'ER_ACCESS_DENIED_ERROR':
    // The same refusal when no password was sent (errno 1698).
    case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR':
    case 'ER_DBACCESS_DENIED_ERROR':
    case 'ER_NOT_SUPPORTED_AUTH_MODE':
      return { kind: 'credentials' };
    case 'ER_DUP_ENTRY':
      // "Duplicate entry 'A1' for key 'code'" (MySQL 8 writes 'table.code').
      return { kind: 'unique', what: /for key '(?:[^']*\.)?([^']+)'/.exec(err.sqlMessage ?? '')?.[1] ?? 'key' };
    case 'ER_NO_REFERENCED_ROW':
    case 'ER_NO_REFERENCED_ROW_2':
    case 'ER_ROW_IS_REFERENCED':
    case 'ER_ROW_IS_REFERENCED_2':
    {
      // "... (`db`.`child`, CONSTRAINT `fk` FOREIGN KEY (`col`) REFERENCES `parent` (`id`))"
      const m = /\(`[^`]*`\.`([^`]+)`, CONSTRAINT `[^`]+` FOREIGN KEY \((.+?)\) REFERENCES/.exec(err.sqlMessage ?? '');
      const child = m?.[1] ?? 'another table';
      const cols = m?.[2]?.replace(/`/g, '') ?? 'the foreign key';
      return /child row/.test(err.sqlMessage ?? '') || err.code?.startsWith('ER_NO_REFERENCED')
        ? { kind: 'foreignKey', what: cols, missingParent: true }
        : { kind: 'foreignKey', what: `table ${child}`, missingParent: false };
    }
    case 'PROTOCOL_SEQUENCE_TIMEOUT':
    case 'ER_QUERY_TIMEOUT':
    case 'ER_STATEMENT_TIMEOUT':
    case 'ER_QUERY_INTERRUPTED':
      return { kind: 'timeout' };
    case 'ER_TOO_BIG_ROWSIZE':
      return { kind: 'statement', message: MSG_ROW_TOO_LARGE };
    case 'ER_TRUNCATED_WRONG_VALUE':
    case 'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD': {
      const message = wrongValue(err.sqlMessage ?? '');
      if (message) return { kind: 'statement', message };
      break;
    }
    case 'ER_TABLEACCESS_DENIED_ERROR':
    case 'ER_SPECIFIC_ACCESS_DENIED_ERROR':
      return { kind: 'permission' };
  }
  if (err.errno === 1969) return { kind: 'timeout' };
  if (err.code === 'HANDSHAKE_NO_SSL_SUPPORT') return { kind: 'unreachable', message: MSG_NO_SSL };
  // "Unknown database 'shop'": the database was dropped or renamed (503, as a missing SQLite file).
  if (err.code === 'ER_BAD_DB_ERROR') return { kind: 'unreachable', message: msgNoDatabase(/'(.*)'/.exec(err.sqlMessage ?? '')?.[1] ?? '') };
  if (isNetworkError(e) || err.fatal) return { kind: 'unreachable' };
  if (typeof err.code === 'string' && err.code.startsWith('ER_')) return { kind: 'statement', message: err.sqlMessage ?? err.message ?? 'Invalid statement' };
  // The server refused the statement with a code outside ER_* (MariaDB's HA_WRONG_CREATE_OPTION for a
  // temporary table of too many columns): its SQLSTATE says it is the statement's, as on PostgreSQL.
  if (typeof err.sqlState === 'string' && /^[0-9A-Z]{5}$/.test(err.sqlState) && typeof err.sqlMessage === 'string') return { kind: 'statement', message: err.sqlMessage };
  return { kind: 'unknown' };
}
