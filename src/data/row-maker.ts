/**
 * API rows from driver rows, by a function generated once per list of fields: one object literal
 * per row, each value passed as it is when the driver already gives it in its API form (a number
 * for a numeric column, a string for a text one, 'YYYY-MM-DD HH:MM:SS' for a date and time), else
 * through outputValue, as toApiRow does. Field lists are generated for when they come back (a read
 * plan's), not the first time, so a list made for one request costs no compilation.
 */
import type { ColumnModel } from '../schema/model';
import { outputValue } from './values';
import type { RowMaker } from './list-query';

/** Per column kind, the test (on `v`, not null) of a driver value that outputValue keeps as it is. */
export const DRIVER_VALUE_AS_IS: Partial<Record<ColumnModel['kind'], string>> = {
  integer: 'typeof v === "number"',
  bigint: 'typeof v === "number"',
  decimal: 'typeof v === "number"',
  float: 'typeof v === "number"',
  string: 'typeof v === "string"',
  time: 'typeof v === "string"',
  datetime: 'typeof v === "string" && v.length === 19 && v.charCodeAt(10) === 32',
};

/** API row from a driver row: aliases with engine-neutral values. */
export function toApiRow(fields: ColumnModel[], raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of fields) out[c._cn] = outputValue(c, raw[c._cn]);
  return out;
}

const made = new WeakMap<ColumnModel[], RowMaker>();
const seen = new WeakSet<ColumnModel[]>();

/** toApiRow for `fields`, generated when this very list comes back (see the file's comment). */
export function rowMakerOf(fields: ColumnModel[]): RowMaker {
  const hit = made.get(fields);
  if (hit) return hit;
  // An object literal would take a `__proto__` key for its prototype.
  if (!seen.has(fields) || fields.some((c) => c._cn === '__proto__')) {
    seen.add(fields);
    return (raw) => toApiRow(fields, raw);
  }
  const maker = generate(fields);
  made.set(fields, maker);
  return maker;
}

function generate(fields: ColumnModel[]): RowMaker {
  const props: string[] = [];
  const keys = new Set<string>();
  fields.forEach((c, i) => {
    if (keys.has(c._cn)) return;
    keys.add(c._cn);
    const key = JSON.stringify(c._cn);
    const asIs = c.virtual ? undefined : DRIVER_VALUE_AS_IS[c.kind];
    props.push(`${key}: (v = raw[${key}]) == null ? null : ${asIs ? `${asIs} ? v : ` : ''}out(cols[${i}], v)`);
  });
  // Keys reach the code only as JSON string literals; columns and outputValue come in as arguments.
  return new Function('out', 'cols', `return function apiRow(raw) { let v; return { ${props.join(', ')} }; };`)(outputValue, fields) as RowMaker;
}
