/**
 * Scalars beyond GraphQL's own: JSON (any value), DateTime ('YYYY-MM-DD HH:MM:SS'), and BigInt
 * and Decimal, which carry a number when it is exact and a string when a JavaScript number would
 * lose digits: the same values the REST API answers, never rounded.
 */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

function literal(ast: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
    case Kind.ENUM:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((v) => literal(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
  }
}

/** A JavaScript bigint as a number when exact, else its decimal string. */
const exactOut = (v: unknown): unknown => (typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : String(v)) : v);

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value',
  serialize: exactOut,
  parseValue: (v) => v,
  parseLiteral: literal,
});

export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: "A date and time as 'YYYY-MM-DD HH:MM:SS'",
  serialize: (v) => (v instanceof Date ? v.toISOString().slice(0, 19).replace('T', ' ') : v),
  parseValue: (v) => v,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError("DateTime must be a string 'YYYY-MM-DD HH:MM:SS'", { nodes: [ast] });
    return ast.value;
  },
});

const exactNumber = (name: string, description: string, pattern: RegExp) =>
  new GraphQLScalarType({
    name,
    description,
    serialize: exactOut,
    parseValue: (v) => {
      if (typeof v === 'bigint') return String(v);
      if ((typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && pattern.test(v.trim()))) return v;
      throw new GraphQLError(`${name} cannot represent ${JSON.stringify(v)}`);
    },
    parseLiteral: (ast) => {
      // Literal digits are kept as written, so no digit is lost on the way in either.
      if (ast.kind === Kind.INT || (ast.kind === Kind.FLOAT && name === 'Decimal') || (ast.kind === Kind.STRING && pattern.test(ast.value.trim()))) return ast.value;
      throw new GraphQLError(`${name} cannot represent this value`, { nodes: [ast] });
    },
  });

/** Whole numbers beyond 32 bits (BIGINT, SQLite INTEGER, unsigned INT). */
export const BigIntScalar = exactNumber('BigInt', 'A whole number: a number up to 2^53, a string beyond, so no digit is lost', /^[+-]?\d+$/);
/** DECIMAL/NUMERIC columns. */
export const DecimalScalar = exactNumber('Decimal', 'A decimal number: a number when exact, a string when a JavaScript number would lose digits', /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/);
