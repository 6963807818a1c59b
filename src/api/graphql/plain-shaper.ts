/**
 * The answer objects of a plain query's rows, built by a function generated once per selection
 * (as graphql-jit does for whole queries): one object literal per row with the response keys in
 * selection order. A value already in the form its scalar gives it (a string for String, a 32-bit
 * whole number for Int, ...) is taken as it is; any other goes through the scalar's `serialize`,
 * exactly as graphql-js would, and a scalar that gives no value throws. Related values are read
 * from the row under the symbol the executor left them at.
 */
import { GraphQLBoolean, GraphQLFloat, GraphQLInt, GraphQLString, type GraphQLScalarType } from 'graphql';
import { BigIntScalar, DateTimeScalar, DecimalScalar, JSONScalar } from './scalars';

type Row = Record<string, unknown>;

/** One response key of a row, as the shaper sees it. */
export type ShapeOutput =
  | { kind: 'column'; key: string; cn: string; scalar: GraphQLScalarType }
  | { kind: 'typename'; key: string; name: string }
  | { kind: 'relation'; key: string; held: symbol; list: boolean; outputs: ShapeOutput[] };

/** Per scalar, the test (on `v`) of a value that serialises to itself. */
const AS_IS = new Map<GraphQLScalarType, string>([
  [GraphQLString, 'typeof v === "string"'],
  [DateTimeScalar, 'typeof v === "string"'],
  [GraphQLInt, 'typeof v === "number" && (v | 0) === v'],
  [GraphQLFloat, 'typeof v === "number" && Number.isFinite(v)'],
  [GraphQLBoolean, 'typeof v === "boolean"'],
  [BigIntScalar, 'typeof v === "number"'],
  [DecimalScalar, 'typeof v === "number"'],
  [JSONScalar, 'typeof v !== "bigint"'],
]);

/** A scalar's serialize, refusing to give no value. */
const serializer = (scalar: GraphQLScalarType) => (v: unknown) => {
  const out = scalar.serialize(v);
  if (out === undefined) throw new Error(`${scalar.name} cannot represent the value`);
  return out;
};

/** The function building the answer object of one row of `outputs`. */
export function shaperOf(outputs: ShapeOutput[]): (row: Row) => Row {
  const constants: unknown[] = [];
  const ref = (value: unknown) => `c[${constants.push(value) - 1}]`;
  let functions = 0;
  const lines: string[] = [];

  /** Emits the function of one selection; returns its name. */
  const emit = (list: ShapeOutput[]): string => {
    const name = `f${functions++}`;
    const props: string[] = [];
    for (const o of list) {
      const key = JSON.stringify(o.key);
      if (o.kind === 'typename') props.push(`${key}: ${JSON.stringify(o.name)}`);
      else if (o.kind === 'column') {
        const serialize = ref(serializer(o.scalar));
        const asIs = AS_IS.get(o.scalar);
        props.push(`${key}: (v = row[${JSON.stringify(o.cn)}]) == null ? null : ${asIs ? `${asIs} ? v : ` : ''}${serialize}(v)`);
      } else {
        const child = emit(o.outputs);
        const held = ref(o.held);
        props.push(o.list
          ? `${key}: (v = row[${held}]) == null ? null : v.map(${child})`
          : `${key}: (v = row[${held}]) == null ? null : ${child}(v)`);
      }
    }
    lines.push(`function ${name}(row) { let v; return { ${props.join(', ')} }; }`);
    return name;
  };
  const root = emit(outputs);
  // The generated code names only keys and columns as JSON string literals; values come in through `c`.
  return new Function('c', `${lines.join('\n')}\nreturn ${root};`)(constants) as (row: Row) => Row;
}
