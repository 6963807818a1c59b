/** PostgreSQL type names (information_schema data_type / udt_name) <-> logical types. */
import type { TypeMap } from '../type-map';

export const postgresTypes: TypeMap = {
  native: [
    { names: ['integer', 'int', 'int4', 'smallint', 'int2', 'serial', 'smallserial'], uidt: 'Number', kind: 'integer' },
    { names: ['bigint', 'int8', 'bigserial'], uidt: 'Number', kind: 'bigint' },
    { names: ['numeric', 'decimal', 'money'], uidt: 'Decimal', kind: 'decimal' },
    { names: ['real', 'float4', 'double precision', 'float8'], uidt: 'Decimal', kind: 'float' },
    { names: ['boolean', 'bool'], uidt: 'Checkbox', kind: 'boolean' },
    { names: ['date'], uidt: 'Date', kind: 'date' },
    { names: ['timestamp without time zone', 'timestamp with time zone', 'timestamp', 'timestamptz'], uidt: 'DateTime', kind: 'datetime' },
    { names: ['time without time zone', 'time with time zone', 'time', 'timetz'], uidt: 'Time', kind: 'time' },
    { names: ['text'], uidt: 'LongText', kind: 'string' },
    { names: ['character varying', 'varchar', 'character', 'char', 'bpchar', 'citext', 'uuid', 'name'], uidt: 'SingleLineText', kind: 'string' },
    { names: ['json', 'jsonb'], uidt: 'JSON', kind: 'json' },
    { names: ['bytea'], uidt: 'Binary', kind: 'binary' },
    { names: ['user-defined', 'enum'], uidt: 'SingleSelect', kind: 'string' },
  ],
  ddl: {
    ID: 'serial', SingleLineText: 'varchar(255)', LongText: 'text', Number: 'bigint', Decimal: 'numeric', Float: 'double precision',
    Currency: 'numeric(19,4)', Percent: 'numeric', Rating: 'smallint', Duration: 'numeric(20,3)', Checkbox: 'boolean', Date: 'date',
    DateTime: 'timestamp', Time: 'time', Email: 'varchar(255)', URL: 'text', PhoneNumber: 'varchar(255)',
    SingleSelect: 'text', MultiSelect: 'text', JSON: 'jsonb', Attachment: 'jsonb', Binary: 'bytea',
  },
};
