/** SQLite type names (by declared type) <-> logical types. */
import type { TypeMap } from '../type-map';

export const sqliteTypes: TypeMap = {
  native: [
    { names: ['integer', 'int', 'smallint', 'mediumint', 'tinyint', 'int2', 'int8'], uidt: 'Number', kind: 'integer' },
    { names: ['bigint', 'unsigned big int'], uidt: 'Number', kind: 'bigint' },
    { names: ['real', 'double', 'double precision', 'float'], uidt: 'Decimal', kind: 'float' },
    { names: ['numeric', 'decimal'], uidt: 'Decimal', kind: 'decimal' },
    { names: ['boolean', 'bool'], uidt: 'Checkbox', kind: 'boolean' },
    { names: ['date'], uidt: 'Date', kind: 'date' },
    { names: ['datetime', 'timestamp'], uidt: 'DateTime', kind: 'datetime' },
    { names: ['time'], uidt: 'Time', kind: 'time' },
    { names: ['text', 'clob'], uidt: 'LongText', kind: 'string' },
    { names: ['varchar', 'nvarchar', 'character', 'char', 'nchar', 'varying character', 'native character'], uidt: 'SingleLineText', kind: 'string' },
    { names: ['json'], uidt: 'JSON', kind: 'json' },
    { names: ['blob'], uidt: 'Binary', kind: 'binary' },
  ],
  ddl: {
    ID: 'integer', SingleLineText: 'varchar(255)', LongText: 'text', Number: 'integer', Decimal: 'decimal', Float: 'real',
    Currency: 'decimal', Percent: 'decimal', Rating: 'integer', Duration: 'decimal', Checkbox: 'boolean', Date: 'date',
    DateTime: 'datetime', Time: 'time', Email: 'varchar(255)', URL: 'text', PhoneNumber: 'varchar(255)',
    SingleSelect: 'text', MultiSelect: 'text', JSON: 'json', Attachment: 'text', Binary: 'blob',
  },
};
