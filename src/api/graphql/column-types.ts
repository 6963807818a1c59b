/**
 * Column -> GraphQL scalar, as data. GraphQL's Int is 32-bit signed, so only columns whose native
 * type is bounded to 32 bits use it; SQLite INTEGER (64-bit), unsigned INT and BIGINT use the
 * BigInt scalar, decimals the Decimal scalar, so no value is ever rounded or refused on output.
 */
import { GraphQLBoolean, GraphQLFloat, GraphQLInt, GraphQLString, type GraphQLInputType, type GraphQLOutputType } from 'graphql';
import type { ColumnModel, VirtualColumnModel } from '../../schema/model';
import type { Engine } from '../../sql/dialect';
import { BigIntScalar, DateTimeScalar, DecimalScalar, JSONScalar } from './scalars';

type Scalar = GraphQLOutputType & GraphQLInputType;

/** Native types that hold at most a 32-bit signed whole number (when signed). */
const INT32_TYPES = new Set(['int', 'integer', 'int4', 'smallint', 'int2', 'tinyint', 'mediumint', 'serial', 'smallserial', 'year']);

const KIND_SCALARS: Record<ColumnModel['kind'], Scalar> = {
  integer: GraphQLInt,
  bigint: BigIntScalar,
  decimal: DecimalScalar,
  float: GraphQLFloat,
  boolean: GraphQLBoolean,
  datetime: DateTimeScalar,
  json: JSONScalar,
  string: GraphQLString,
  date: GraphQLString,
  time: GraphQLString,
  binary: GraphQLString,
};

/** True when every value of the column fits GraphQL's Int. */
export function fitsInt32(c: ColumnModel, engine: Engine): boolean {
  if (engine === 'sqlite') return false;
  const base = c.dt.toLowerCase().replace(/\(.*$/, '').trim();
  return INT32_TYPES.has(base) && !/unsigned/i.test(`${c.dt} ${c.dtx ?? ''}`);
}

/** Virtual columns by the type of their value; counts are Int. */
const VIRTUAL_SCALARS: Record<NonNullable<VirtualColumnModel['type']>, Scalar> = { string: GraphQLString, number: GraphQLFloat, boolean: GraphQLBoolean, date: GraphQLString };

/** The scalar a column's values travel as. */
export function scalarOf(c: ColumnModel, engine: Engine): Scalar {
  if (c.virtual) {
    const fn = c.virtual.rollup?.fn;
    return fn === 'count' || fn === 'countDistinct' ? GraphQLInt : VIRTUAL_SCALARS[c.virtual.type ?? 'string'];
  }
  if (c.kind === 'integer' && !fitsInt32(c, engine)) return BigIntScalar;
  return KIND_SCALARS[c.kind];
}
