/**
 * The GraphQL schema rules without a database: safe and unique names (clashes resolved in model
 * order), which integers fit GraphQL's Int, exact-number scalars, the depth and cost limits, and
 * error masking. Schemas are built from a hand-written schema model and checked by graphql's own
 * validateSchema.
 */
import { describe, expect, test } from 'bun:test';
import { GraphQLError, Kind, parse, specifiedRules, validate, validateSchema, type GraphQLObjectType, type OperationDefinitionNode } from 'graphql';
import type { ColumnModel, SchemaModel, TableModel } from '../../src/schema/model';
import { gqlSafe, tableTypeNames, uniqueNames } from '../../src/api/graphql/names';
import { buildGraphqlSchema } from '../../src/api/graphql/schema-builder';
import { fitsInt32, scalarOf } from '../../src/api/graphql/column-types';
import { BigIntScalar, DecimalScalar } from '../../src/api/graphql/scalars';
import { depthLimitRule, operationCost } from '../../src/api/graphql/limits';
import { maskError } from '../../src/api/graphql/routes';
import { AppError } from '../../src/lib/errors';
import { memoryLogger } from '../../src/lib/log';

const col = (cn: string, _cn: string, kind: ColumnModel['kind'], dt: string, pk = false): ColumnModel => ({ cn, _cn, dt, uidt: 'Number', kind, pk, ai: false, nullable: !pk, default: null });
const table = (tn: string, _tn: string, columns: ColumnModel[], extra: Partial<TableModel> = {}): TableModel => ({
  tn, _tn, type: 'table', columns, pks: columns.filter((c) => c.pk).map((c) => c.cn), displayColumn: null, relations: [], ...extra,
});

describe('GraphQL names', () => {
  test('unsafe characters, leading digits and reserved prefixes', () => {
    expect(['Customer Group', '1st', '__meta', 'été', ''].map(gqlSafe)).toEqual(['Customer_Group', '_1st', 'T__meta', '_t_', '_']);
  });

  test('clashes take the next number in model order', () => {
    expect(uniqueNames(['Foo', 'Foo', 'a b', 'a_b', 'Foo'])).toEqual(['Foo', 'Foo2', 'a_b', 'a_b2', 'Foo3']);
    expect(uniqueNames(['Id', 'Name'], new Set(['Id']))).toEqual(['Id2', 'Name']);
  });

  test('input and condition types never take a table type name', () => {
    expect(tableTypeNames(['Track', 'TrackInput', 'ConditionTrack', 'Query', 'm2mNotChildren'])).toEqual([
      { object: 'Track', input: 'TrackInput2', condition: 'ConditionTrack2' },
      { object: 'TrackInput', input: 'TrackInputInput', condition: 'ConditionTrackInput' },
      { object: 'ConditionTrack', input: 'ConditionTrackInput2', condition: 'ConditionConditionTrack' },
      { object: 'Query2', input: 'Query2Input', condition: 'ConditionQuery2' },
      { object: 'm2mNotChildren2', input: 'm2mNotChildren2Input', condition: 'Conditionm2mNotChildren2' },
    ]);
  });
});

describe('GraphQL schema from a model', () => {
  const id = col('id', 'Id', 'integer', 'integer', true);
  const model: SchemaModel = {
    tables: [
      table('track', 'Track', [id, col('name', 'Name', 'string', 'varchar')]),
      table('track_input', 'TrackInput', [id, col('album id', 'Album Id', 'integer', 'int'), col('album-id', 'Album-Id', 'bigint', 'bigint')]),
      table('1st', '1st', [id]),
      table('m2mNotChildren', 'm2mNotChildren', [id]),
      table('Query', 'Query', [id]),
      table('log', 'Log', [col('msg', 'Msg', 'string', 'text')]),
      table('v', 'V', [col('n', 'N', 'decimal', 'numeric')], { type: 'view' }),
    ],
    functions: [],
    procedures: [],
    sequences: [],
  };

  test('is valid with clashing and unsafe names, and gives the documented names', () => {
    const schema = buildGraphqlSchema(model, 'pg');
    expect(validateSchema(schema)).toEqual([]);
    const q = schema.getQueryType()!.getFields();
    const m = schema.getMutationType()!.getFields();
    expect(Object.keys((schema.getType('TrackInput') as GraphQLObjectType).getFields())).toEqual(['Id', 'Album_Id', 'Album_Id2']);
    expect(schema.getType('TrackInput2')!.toString()).toBe('TrackInput2');
    for (const f of ['_1stList', 'm2mNotChildren2Count', 'm2mNotChildrenCount', 'Query2Read', 'LogList', 'VList', 'VDistribution']) expect(q[f]).toBeDefined();
    for (const f of ['LogRead', 'LogExists', 'VRead']) expect(q[f]).toBeUndefined();
    for (const f of ['LogCreate', 'VCreate', 'VUpdateBulk']) expect(m[f]).toBeUndefined();
    expect(m.TrackInputCreateBulk).toBeDefined();
  });

  test('a model with only views has no Mutation type', () => {
    const schema = buildGraphqlSchema({ ...model, tables: [model.tables[6]!] }, 'mysql');
    expect(validateSchema(schema)).toEqual([]);
    expect(schema.getMutationType()).toBeUndefined();
  });
});

describe('GraphQL column types', () => {
  test('only 32-bit signed integers of the server engines are Int', () => {
    expect(fitsInt32(col('a', 'A', 'integer', 'integer'), 'pg')).toBe(true);
    expect(fitsInt32(col('a', 'A', 'integer', 'int'), 'mysql')).toBe(true);
    expect(fitsInt32({ ...col('a', 'A', 'integer', 'int'), dtx: 'int(10) unsigned' }, 'mysql')).toBe(false);
    expect(fitsInt32(col('a', 'A', 'integer', 'integer'), 'sqlite')).toBe(false);
    expect(String(scalarOf(col('a', 'A', 'integer', 'integer'), 'sqlite'))).toBe('BigInt');
    expect(String(scalarOf(col('a', 'A', 'decimal', 'numeric'), 'pg'))).toBe('Decimal');
    expect(String(scalarOf(col('a', 'A', 'date', 'date'), 'pg'))).toBe('String');
  });

  test('BigInt and Decimal never lose a digit', () => {
    expect(BigIntScalar.serialize(2n ** 60n)).toBe('1152921504606846976');
    expect(BigIntScalar.serialize(42n)).toBe(42);
    expect(BigIntScalar.serialize('9007199254740993')).toBe('9007199254740993');
    expect(BigIntScalar.parseLiteral({ kind: Kind.INT, value: '9007199254740993' })).toBe('9007199254740993');
    expect(() => BigIntScalar.parseLiteral({ kind: Kind.FLOAT, value: '1.5' })).toThrow(GraphQLError);
    expect(() => BigIntScalar.parseValue('12.5')).toThrow('BigInt cannot represent "12.5"');
    expect(DecimalScalar.parseLiteral({ kind: Kind.FLOAT, value: '0.1000000000000000000001' })).toBe('0.1000000000000000000001');
    expect(DecimalScalar.parseValue('12345678901234567890.12')).toBe('12345678901234567890.12');
  });
});

describe('GraphQL limits', () => {
  const schema = buildGraphqlSchema({
    tables: [table('a', 'A', [col('id', 'Id', 'integer', 'integer', true), col('a_id', 'AId', 'integer', 'integer')], {
      relations: [
        { type: 'hm', tn: 'a', rtn: 'a', alias: 'A', childTable: 'a', childColumns: ['a_id'], parentTable: 'a', parentColumns: ['id'] },
        { type: 'bt', tn: 'a', rtn: 'a', alias: 'A', childTable: 'a', childColumns: ['a_id'], parentTable: 'a', parentColumns: ['id'] },
      ],
    })],
    functions: [], procedures: [], sequences: [],
  }, 'pg');

  test('depth counts fields through fragments; the limit answers BAD_REQUEST', () => {
    const doc = parse('{ AList { ...F } } fragment F on A { ARead { AList { Id } } }');
    expect(validate(schema, doc, [...specifiedRules, depthLimitRule(4)])).toEqual([]);
    const [err] = validate(schema, doc, [...specifiedRules, depthLimitRule(3)]);
    expect(err!.message).toBe('The query is nested 4 levels deep; the limit is 3');
    expect(err!.extensions.code).toBe('BAD_REQUEST');
  });

  test('cost multiplies by list limits, from literals or variables, clamped to the page maximum', () => {
    const doc = parse('query ($n: Int) { AList(limit: 10) { Id AList(limit: $n) { Id } ACount } }');
    const op = doc.definitions[0] as OperationDefinitionNode;
    // AList 1 + (Id, AList, ACount) x 10 + Id x 10 x n
    expect(operationCost(doc, op, { n: 5 }, 1000)).toBe(1 + 30 + 10 * 5);
    expect(operationCost(doc, op, {}, 1000)).toBe(1 + 30 + 10 * 25);
    expect(operationCost(doc, op, { n: 1e9 }, 100)).toBe(1 + 30 + 10 * 100);
  });
});

describe('GraphQL error masking', () => {
  test('AppErrors keep their message and code; anything else is masked', () => {
    const coded = maskError(new GraphQLError('wrapped', { originalError: new AppError('CONFLICT', 'Duplicate value') })) as GraphQLError;
    expect([coded.message, coded.extensions.code]).toEqual(['Duplicate value', 'CONFLICT']);
    const log = memoryLogger();
    const hidden = maskError(new GraphQLError('boom', { originalError: new Error('secret at /srv/db') }), log) as GraphQLError;
    expect([hidden.message, hidden.extensions.code]).toEqual(['Unexpected error.', 'INTERNAL']);
    expect(log.lines).toEqual(['ERROR GraphQL: unexpected error: secret at /srv/db']);
    expect(JSON.stringify(hidden.toJSON())).not.toContain('secret');
    const caller = maskError(new GraphQLError('Variable "$x" got invalid value')) as GraphQLError;
    expect(caller.extensions.code).toBe('BAD_REQUEST');
  });
});
