/** MySQL/MariaDB type names (information_schema DATA_TYPE) <-> logical types. */
import type { TypeMap } from '../type-map';

export const mysqlTypes: TypeMap = {
  native: [
    { names: ['int', 'integer', 'smallint', 'mediumint', 'year'], uidt: 'Number', kind: 'integer' },
    { names: ['bigint'], uidt: 'Number', kind: 'bigint' },
    { names: ['tinyint', 'bit', 'bool', 'boolean'], uidt: 'Checkbox', kind: 'boolean' },
    { names: ['decimal', 'numeric'], uidt: 'Decimal', kind: 'decimal' },
    { names: ['float', 'double', 'real'], uidt: 'Decimal', kind: 'float' },
    { names: ['date'], uidt: 'Date', kind: 'date' },
    { names: ['datetime', 'timestamp'], uidt: 'DateTime', kind: 'datetime' },
    { names: ['time'], uidt: 'Time', kind: 'time' },
    { names: ['text', 'mediumtext', 'longtext', 'tinytext'], uidt: 'LongText', kind: 'string' },
    { names: ['varchar', 'char'], uidt: 'SingleLineText', kind: 'string' },
    { names: ['json'], uidt: 'JSON', kind: 'json' },
    { names: ['enum'], uidt: 'SingleSelect', kind: 'string' },
    { names: ['set'], uidt: 'MultiSelect', kind: 'string' },
    { names: ['blob', 'mediumblob', 'longblob', 'tinyblob', 'binary', 'varbinary'], uidt: 'Binary', kind: 'binary' },
  ],
  ddl: {
    ID: 'int', SingleLineText: 'varchar(255)', LongText: 'text', Number: 'bigint', Decimal: 'decimal(20,6)', Float: 'double',
    Currency: 'decimal(19,4)', Percent: 'decimal(10,4)', Rating: 'smallint', Duration: 'decimal(20,3)', Checkbox: 'tinyint(1)', Date: 'date',
    DateTime: 'datetime', Time: 'time', Email: 'varchar(255)', URL: 'text', PhoneNumber: 'varchar(255)',
    SingleSelect: 'text', MultiSelect: 'text', JSON: 'json', Attachment: 'json', Binary: 'blob',
  },
};
