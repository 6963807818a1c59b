/**
 * The SQL name of a result column's type as MySQL and MariaDB announce it: the protocol's type code
 * read with the column's flags and character set (INT, BIGINT UNSIGNED, DECIMAL, VARCHAR, TEXT,
 * BLOB...), not the protocol's own names (LONG, LONGLONG, NEWDECIMAL, VAR_STRING).
 */
const NAMES: Record<number, string> = {
  0: 'DECIMAL', 1: 'TINYINT', 2: 'SMALLINT', 3: 'INT', 4: 'FLOAT', 5: 'DOUBLE', 6: 'NULL', 7: 'TIMESTAMP', 8: 'BIGINT', 9: 'MEDIUMINT',
  10: 'DATE', 11: 'TIME', 12: 'DATETIME', 13: 'YEAR', 14: 'DATE', 15: 'VARCHAR', 16: 'BIT', 242: 'VECTOR', 245: 'JSON', 246: 'DECIMAL',
  247: 'ENUM', 248: 'SET', 249: 'TINYTEXT', 250: 'MEDIUMTEXT', 251: 'LONGTEXT', 252: 'TEXT', 253: 'VARCHAR', 254: 'CHAR', 255: 'GEOMETRY',
};
/** Text types whose values are bytes when the character set is `binary`. */
const BINARY_NAMES: Record<string, string> = { TINYTEXT: 'TINYBLOB', MEDIUMTEXT: 'MEDIUMBLOB', LONGTEXT: 'LONGBLOB', TEXT: 'BLOB', VARCHAR: 'VARBINARY', CHAR: 'BINARY' };
const NUMERIC = new Set(['TINYINT', 'SMALLINT', 'MEDIUMINT', 'INT', 'BIGINT', 'DECIMAL', 'FLOAT', 'DOUBLE']);
const BINARY_CHARSET = 63;
const UNSIGNED_FLAG = 32;
const ENUM_FLAG = 256;
const SET_FLAG = 2048;

export interface MysqlField {
  columnType?: number;
  type?: number;
  flags?: number;
  characterSet?: number;
}

export function mysqlFieldType(f: MysqlField): string {
  const code = f.columnType ?? f.type;
  if (code === undefined) return '';
  const flags = f.flags ?? 0;
  if (flags & ENUM_FLAG) return 'ENUM';
  if (flags & SET_FLAG) return 'SET';
  const name = NAMES[code];
  if (!name) return String(code);
  if (f.characterSet === BINARY_CHARSET && BINARY_NAMES[name]) return BINARY_NAMES[name]!;
  return flags & UNSIGNED_FLAG && NUMERIC.has(name) ? `${name} UNSIGNED` : name;
}
