/**
 * The answer objects of a plain query's rows, built by a function generated once per selection
 * (as graphql-jit does for whole queries): one object literal per row with the response keys in
 * selection order. Two kinds: from the data core's rows (`shaperOf`: values by column alias,
 * related rows under the symbols the executor left them at), and straight from driver rows
 * (`rawShaperOf`: each value through the data core's `outputValue` first, related rows left null
 * for the data core to fill in under the response key), which saves making each row twice.
 * A value already in the form its scalar gives it (a string for String, a 32-bit whole number for
 * Int, ...) is taken as it is; any other goes through the scalar's `serialize` exactly as
 * graphql-js would, and a scalar that gives no value throws.
 */
import { GraphQLBoolean, GraphQLFloat, GraphQLInt, GraphQLString, type GraphQLScalarType } from 'graphql';
import type { ColumnModel } from '../../schema/model';
import { outputValue } from '../../data/values';
import { DRIVER_VALUE_AS_IS } from '../../data/row-maker';
import { BigIntScalar, DateTimeScalar, DecimalScalar, JSONScalar } from './scalars';

type Row = Record<string, unknown>;

/** One response key of a row, as the shaper sees it. */
export type ShapeOutput =
  | { kind: 'column'; key: string; column: ColumnModel; scalar: GraphQLScalarType }
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

/** Generates the shaping function of `outputs`; `raw`: from driver rows (see the file's comment). */
function generate(outputs: ShapeOutput[], raw: boolean): (row: Row) => Row {
  const constants: unknown[] = [];
  const ref = (value: unknown) => `c[${constants.push(value) - 1}]`;
  let functions = 0;
  const lines: string[] = [];

  /** The expression of one column's value (`v` is free to use). */
  const column = (o: Extract<ShapeOutput, { kind: 'column' }>): string => {
    const read = `(v = row[${JSON.stringify(o.column._cn)}]) == null ? null : `;
    const serialize = ref(serializer(o.scalar));
    const asIs = AS_IS.get(o.scalar);
    if (!raw) return `${read}${asIs ? `${asIs} ? v : ` : ''}${serialize}(v)`;
    const rawAsIs = o.column.virtual ? undefined : DRIVER_VALUE_AS_IS[o.column.kind];
    const converted = `(v = ${ref(outputValue)}(${ref(o.column)}, v)) == null ? null : ${serialize}(v)`;
    return `${read}${rawAsIs && asIs ? `(${rawAsIs}) && (${asIs}) ? v : ` : ''}${converted}`;
  };

  /** Emits the function of one selection; returns its name. */
  const emit = (list: ShapeOutput[]): string => {
    const name = `f${functions++}`;
    const props: string[] = [];
    for (const o of list) {
      const key = JSON.stringify(o.key);
      if (o.kind === 'typename') props.push(`${key}: ${JSON.stringify(o.name)}`);
      else if (o.kind === 'column') props.push(`${key}: ${column(o)}`);
      else if (raw) props.push(`${key}: null`);
      else {
        const child = emit(o.outputs);
        const held = ref(o.held);
        props.push(o.list ? `${key}: (v = row[${held}]) == null ? null : v.map(${child})` : `${key}: (v = row[${held}]) == null ? null : ${child}(v)`);
      }
    }
    lines.push(`function ${name}(row) { let v; return { ${props.join(', ')} }; }`);
    return name;
  };
  const root = emit(outputs);
  // The generated code names only keys and columns as JSON string literals; values come in through `c`.
  return new Function('c', `${lines.join('\n')}\nreturn ${root};`)(constants) as (row: Row) => Row;
}

/** The answer object of a data core row (columns by alias, related rows under their symbols). */
export const shaperOf = (outputs: ShapeOutput[]) => generate(outputs, false);

/** The answer object of a driver row, related rows left null (to be filled under their response keys). */
export const rawShaperOf = (outputs: ShapeOutput[]) => generate(outputs, true);
