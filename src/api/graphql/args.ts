/**
 * GraphQL arguments -> the inputs the data-access core already takes from REST: query parameters
 * (`Params`) and bodies keyed by column aliases. Keeping this translation thin is what makes REST
 * and GraphQL answer the same rows.
 */
import type { ColumnModel } from '../../schema/model';
import type { Params } from '../../data/list-query';

type Row = Record<string, unknown>;

/** GraphQL field name -> column, for one table. */
export type FieldColumns = Map<string, ColumnModel>;

/** An input object keyed by GraphQL field names -> a body keyed by column aliases. */
export const toBody = (cols: FieldColumns, input: unknown): Row =>
  Object.fromEntries(Object.entries((input ?? {}) as Row).map(([k, v]) => [cols.get(k)?._cn ?? k, v]));

/** A ConditionT value -> the `condition` JSON of the data core (keys by column alias). */
export function toCondition(cols: FieldColumns, c: unknown): unknown {
  if (c === null || typeof c !== 'object') return c;
  const out: Row = {};
  for (const [k, v] of Object.entries(c as Row)) {
    if (k === '_or' || k === '_and') out[k] = ((v ?? []) as unknown[]).map((x) => toCondition(cols, x));
    else if (k === '_not') out[k] = toCondition(cols, v);
    else out[cols.get(k)?._cn ?? k] = v;
  }
  return out;
}

/** Query arguments -> REST-style parameters for the data core. */
export function paramsOf(cols: FieldColumns, a: Row): Params {
  const p: Params = {};
  for (const k of ['where', 'sort', 'fields']) if (typeof a[k] === 'string') p[k] = a[k] as string;
  for (const k of ['limit', 'offset']) if (typeof a[k] === 'number') p[k] = String(a[k]);
  if (a.condition) p.condition = JSON.stringify(toCondition(cols, a.condition));
  if (a.conditionGraph) p.conditionGraph = JSON.stringify(a.conditionGraph);
  return p;
}

/** `min`, `max`, `step` -> the comma list of bucket bounds that `distribute` takes. */
export function stepsOf(a: Row, maxBuckets: number): string | undefined {
  if (typeof a.steps === 'string') return a.steps;
  const { min, max, step } = a;
  if (typeof min !== 'number' || typeof max !== 'number' || typeof step !== 'number' || step <= 0 || max < min) return undefined;
  const list: number[] = [];
  for (let v = min; v < max && list.length < maxBuckets; v += step) list.push(v);
  return [...list, max].join(',');
}
