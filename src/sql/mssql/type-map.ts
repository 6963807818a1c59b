/** SQL Server type names <-> logical types. */
import type { TypeMap } from '../type-map';

export const mssqlTypes: TypeMap = {
  native: [
    { names: ['int', 'smallint', 'tinyint'], uidt: 'Number', kind: 'integer' },
    { names: ['bigint'], uidt: 'Number', kind: 'bigint' },
    { names: ['bit'], uidt: 'Checkbox', kind: 'boolean' },
    { names: ['decimal', 'numeric', 'money', 'smallmoney'], uidt: 'Decimal', kind: 'decimal' },
    { names: ['float', 'real'], uidt: 'Decimal', kind: 'float' },
    { names: ['date'], uidt: 'Date', kind: 'date' },
    { names: ['datetime', 'datetime2', 'smalldatetime', 'datetimeoffset'], uidt: 'DateTime', kind: 'datetime' },
    { names: ['time'], uidt: 'Time', kind: 'time' },
    { names: ['text', 'ntext'], uidt: 'LongText', kind: 'string' },
    { names: ['varchar', 'nvarchar', 'char', 'nchar', 'uniqueidentifier'], uidt: 'SingleLineText', kind: 'string' },
    { names: ['varbinary', 'binary', 'image'], uidt: 'Binary', kind: 'binary' },
  ],
  ddl: {
    ID: 'int', SingleLineText: 'nvarchar(255)', LongText: 'nvarchar(max)', Number: 'bigint', Decimal: 'decimal(20,6)', Float: 'float',
    Currency: 'decimal(19,4)', Percent: 'decimal(10,4)', Rating: 'smallint', Duration: 'decimal(20,3)', Checkbox: 'bit', Date: 'date',
    DateTime: 'datetime2', Time: 'time', Email: 'nvarchar(255)', URL: 'nvarchar(max)', PhoneNumber: 'nvarchar(255)',
    SingleSelect: 'nvarchar(max)', MultiSelect: 'nvarchar(max)', JSON: 'nvarchar(max)', Attachment: 'nvarchar(max)', Binary: 'varbinary(max)',
  },
};
