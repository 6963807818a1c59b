/** groupby, aggregate, distinct and distribute over one table, filtered like a list. */
import { ONE, ZERO } from '../sql/ast';
import type { Cond, Expr, OrderItem, SelectItem } from '../sql/ast';
import type { ColumnModel, TableModel } from '../schema/model';
import { badRequest } from '../lib/errors';
import { LIMITS } from '../config/limits';
import { readScope } from './read-scope';
import { executorOf, type DataContext } from './data-context';
import { parseFields, parseLimit, parseOffset, type Params } from './list-query';
import { listQueryOf } from './records-read';
import { columnExpr, resolveColumn } from './columns';
import { tableRef } from './select-builder';
import { toApiRow } from './row-maker';
import { outputValue } from './values';
import { parseWhere } from './where-parser';

const col = (cn: string): Expr => ({ kind: 'col', name: cn });
/** Whether a comma list names any column ('a,b'; not '' nor ','), where parseFields would take every column. */
const namesAny = (v: string | undefined) => !!v && v.split(',').some((s) => s.trim() !== '');

/**
 * The sort of an answer that holds `fields` (as `exprOf(i)`) and computed values named `computed`
 * (count, sum...): `-a,b`; any other name is a 400 that starts with `refusal`.
 */
function answerSort(t: TableModel, v: string, fields: ColumnModel[], exprOf: (i: number) => Expr, computed: Record<string, Expr>, refusal: string): OrderItem[] {
  return v.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
    const desc = s.startsWith('-');
    const name = desc || s.startsWith('+') ? s.slice(1) : s;
    // By its expression, not its output name: SQLite and MariaDB read names in any case, so ORDER BY
    // "count" sorted by a grouped column called Count.
    if (Object.hasOwn(computed, name)) return { expr: computed[name]!, desc };
    const c = resolveColumn(t, name);
    const i = fields.findIndex((f) => f.cn === c.cn && !!f.virtual === !!c.virtual);
    if (i < 0) throw badRequest(`${refusal}; '${name}' is not one`);
    return { expr: exprOf(i), desc };
  });
}

const COUNT_STAR: Expr = { kind: 'fn', name: 'count', args: [{ kind: 'star' }] };

/**
 * `having`: the where language over the groups, naming a grouped column (by alias or SQL name) or
 * `count`, the rows in the group: `(count,gt,1)`. Each name stands for its value in the grouped
 * select (g0, g1, ... and COUNT(*)), so the filter is a HAVING; other columns are unknown.
 */
function havingCond(t: TableModel, fields: ColumnModel[], having: string | undefined, g: (i: number) => Expr): Cond | undefined {
  if (!having?.trim()) return undefined;
  const count: ColumnModel = {
    cn: 'count', _cn: 'count', dt: 'integer', uidt: 'Number', kind: 'integer', pk: false, ai: false, nullable: false, default: null,
    virtual: { _cn: 'count', uidt: 'Formula', kind: 'integer', expr: () => COUNT_STAR },
  };
  const grouped = fields.map((c, i): ColumnModel => ({ ...c, virtual: { _cn: c._cn, uidt: 'Formula', kind: c.kind, expr: () => g(i) } }));
  return parseWhere(having, { ...t, columns: [count, ...grouped], virtuals: undefined });
}

/** `[{ a, b, count }]` grouped by `fields` (or one column), most frequent first; `having` filters the groups. */
export async function groupBy(dc: DataContext, t: TableModel, params: Params, column?: string): Promise<Record<string, unknown>[]> {
  t = readScope(dc, t).table; // hidden columns are unknown to grouping, aggregates and filters
  if (!namesAny(column ?? params.fields ?? params.f)) throw badRequest('groupby needs fields=a,b or /groupby/{column}');
  const fields = parseFields(t, column ?? params.fields ?? params.f);
  const q = listQueryOf(dc, t, { ...params, fields: undefined, f: undefined, sort: undefined, s: undefined });
  // Grouped over a sub-select that names each grouped value once: a computed column (lookup,
  // rollup, formula) under a caller's row rule carries bound values, and PostgreSQL would not see
  // the SELECT and GROUP BY copies of it (each with its own placeholders) as the same expression.
  const g = (i: number): Expr => col(`g${i}`);
  const sort = answerSort(t, params.sort ?? params.s ?? '-count', fields, g, { count: COUNT_STAR }, 'groupby sorts by count or a grouped field');
  const sql = dc.pdb.db.dialect.compile({
    kind: 'select',
    from: { kind: 'subselect', alias: 'grouped', query: { kind: 'select', from: tableRef(t), columns: fields.map((c, i) => ({ expr: columnExpr(c), as: `g${i}` })), where: q.where } },
    columns: [...fields.map((c, i) => ({ expr: g(i), as: c._cn })), { expr: COUNT_STAR, as: 'count' }],
    groupBy: fields.map((_, i) => g(i)),
    having: havingCond(t, fields, params.having, g),
    orderBy: [...sort, ...fields.map((_, i) => ({ expr: g(i) }))],
    limit: q.limit,
    offset: q.offset,
  });
  const rows = await executorOf(dc).query<Record<string, unknown>>(sql);
  return rows.map((r) => ({ ...toApiRow(fields, r), count: Number(r.count) }));
}

const FUNCS = ['min', 'max', 'avg', 'sum', 'count'] as const;
const NUMERIC = new Set(['integer', 'bigint', 'decimal', 'float']);
const UNORDERED = new Set(['json', 'binary']);

/** A boolean as 0 / 1 (NULL stays NULL), which every engine orders; read back as a boolean by outputValue. */
const asBit = (e: Expr): Expr => ({ kind: 'case', whens: [{ when: { kind: 'isNull', expr: e }, then: { kind: 'dangerousRaw', sql: 'NULL' } }, { when: { kind: 'cmp', op: '=', left: e, right: { kind: 'val', value: false } }, then: ZERO }], else: ONE });

/** `[{ min, max, avg, sum, count }]` of one column, optionally per group of `fields`. */
export async function aggregate(dc: DataContext, t: TableModel, params: Params): Promise<Record<string, unknown>[]> {
  t = readScope(dc, t).table; // hidden columns are unknown to grouping, aggregates and filters
  if (!params.column_name) throw badRequest('aggregate needs column_name');
  const c = resolveColumn(t, params.column_name);
  const funcs = (params.func ?? '').split(',').map((f) => f.trim()).filter(Boolean);
  if (funcs.length === 0) throw badRequest('aggregate needs func=min,max,avg,sum,count');
  for (const f of funcs) if (!FUNCS.includes(f as never)) throw badRequest(`${f} : not an aggregate function (min, max, avg, sum, count)`);
  // SQLite and MariaDB add up text, dates and JSON as numbers (an avg of titles is 0); PostgreSQL refuses them.
  if (!NUMERIC.has(c.kind)) for (const f of funcs) if (f === 'avg' || f === 'sum') throw badRequest(`Column '${c._cn}' is not a number: ${f} needs one`);
  // JSON and binary values have no order to take a least or greatest from (PostgreSQL answered
  // 'function min(jsonb) does not exist', the others compared their bytes).
  if (UNORDERED.has(c.kind)) for (const f of funcs) if (f === 'min' || f === 'max') throw badRequest(`Column '${c._cn}' holds ${c.kind === 'json' ? 'JSON' : 'binary data'}: ${f} needs values that can be ordered`);
  const groups = namesAny(params.fields) ? parseFields(t, params.fields) : [];
  const q = listQueryOf(dc, t, { ...params, fields: undefined, sort: undefined });
  // A checkbox is min'd and max'd as 0 / 1 (PostgreSQL has no min(boolean)); count counts the column itself.
  const fnItem = (f: string, arg: Expr): SelectItem => ({ expr: { kind: 'fn', name: f as (typeof FUNCS)[number], args: [c.kind === 'boolean' && f !== 'count' ? asBit(arg) : arg] } as Expr, as: f });
  // With groups: over a sub-select naming each value once (see groupBy).
  const sql = groups.length
    ? dc.pdb.db.dialect.compile({
        kind: 'select',
        from: {
          kind: 'subselect',
          alias: 'grouped',
          query: { kind: 'select', from: tableRef(t), columns: [...groups.map((g, i) => ({ expr: columnExpr(g), as: `g${i}` })), { expr: columnExpr(c), as: 'v' }], where: q.where },
        },
        columns: [...groups.map((g, i) => ({ expr: col(`g${i}`), as: g._cn })), ...funcs.map((f) => fnItem(f, col('v')))],
        groupBy: groups.map((_, i) => col(`g${i}`)),
        orderBy: [...answerSort(t, params.sort ?? params.s ?? '', groups, (i) => col(`g${i}`), Object.fromEntries(funcs.map((f) => [f, fnItem(f, col('v')).expr])), 'aggregate sorts by a grouped field or one of its functions'), ...groups.map((_, i) => ({ expr: col(`g${i}`) }))],
        limit: q.limit,
        offset: q.offset,
      })
    : dc.pdb.db.dialect.compile({ kind: 'select', from: tableRef(t), columns: funcs.map((f) => fnItem(f, columnExpr(c))), where: q.where });
  const rows = await executorOf(dc).query<Record<string, unknown>>(sql);
  return rows.map((r) => {
    const out = toApiRow(groups, r);
    for (const f of funcs) {
      const v = r[f];
      out[f] = v === null || v === undefined ? null : f === 'count' ? Number(v) : f === 'avg' ? Number(v) : outputValue({ ...c, kind: c.kind === 'integer' || c.kind === 'bigint' ? 'decimal' : c.kind }, v);
    }
    return out;
  });
}

/** `[{ c: value }]`: the distinct values of a column (with `fields`, distinct combinations). */
export async function distinct(dc: DataContext, t: TableModel, params: Params): Promise<Record<string, unknown>[]> {
  t = readScope(dc, t).table; // hidden columns are unknown to grouping, aggregates and filters
  const name = params.cn ?? params.column_name;
  if (!name) throw badRequest('distinct needs cn={column}');
  const cols = [resolveColumn(t, name), ...(namesAny(params.fields) ? parseFields(t, params.fields) : [])].filter((c, i, a) => a.findIndex((x) => x.cn === c.cn) === i);
  const q = listQueryOf(dc, t, { ...params, fields: undefined, sort: undefined });
  const sql = dc.pdb.db.dialect.compile({
    kind: 'select',
    distinct: true,
    from: tableRef(t),
    columns: cols.map((c) => ({ expr: columnExpr(c), as: c._cn })),
    where: q.where,
    orderBy: [...answerSort(t, params.sort ?? params.s ?? '', cols, (i) => columnExpr(cols[i]!), {}, 'distinct sorts by its columns'), ...cols.map((c) => ({ expr: columnExpr(c) }))],
    limit: parseLimit(params.limit ?? params.l, dc.maxLimit),
    offset: parseOffset(params.offset ?? params.o),
  });
  return (await executorOf(dc).query<Record<string, unknown>>(sql)).map((r) => toApiRow(cols, r));
}

/** `[{ range: "0-100", count }]` for consecutive steps; the last range includes its end. */
export async function distribute(dc: DataContext, t: TableModel, params: Params): Promise<{ range: string; count: number }[]> {
  t = readScope(dc, t).table; // hidden columns are unknown to grouping, aggregates and filters
  if (!params.column_name) throw badRequest('distribute needs column_name');
  const c = resolveColumn(t, params.column_name);
  if (!NUMERIC.has(c.kind)) throw badRequest(`Column '${c._cn}' is not a number: it cannot be distributed`);
  const steps = (params.steps ?? '').split(',').filter((s) => s.trim() !== '').map(Number);
  if (steps.length < 2 || steps.some((s) => !Number.isFinite(s))) throw badRequest('distribute needs steps=a,b[,c...]: at least two numbers');
  if (steps.length - 1 > LIMITS.distributeMaxRanges) throw badRequest(`distribute counts at most ${LIMITS.distributeMaxRanges} ranges (${LIMITS.distributeMaxRanges + 1} steps)`);
  for (let i = 1; i < steps.length; i++) if (steps[i]! <= steps[i - 1]!) throw badRequest('distribute steps must increase');
  const q = listQueryOf(dc, t, { ...params, fields: undefined, sort: undefined });
  const items: SelectItem[] = [];
  for (let i = 0; i < steps.length - 1; i++) {
    const last = i === steps.length - 2;
    const within: Cond = {
      kind: 'and',
      items: [
        { kind: 'cmp', op: '>=', left: columnExpr(c), right: { kind: 'val', value: steps[i]! } },
        { kind: 'cmp', op: last ? '<=' : '<', left: columnExpr(c), right: { kind: 'val', value: steps[i + 1]! } },
      ],
    };
    items.push({ expr: { kind: 'fn', name: 'sum', args: [{ kind: 'case', whens: [{ when: within, then: ONE }], else: ZERO }] }, as: `r${i}` });
  }
  const [row] = await executorOf(dc).query<Record<string, unknown>>(dc.pdb.db.dialect.compile({ kind: 'select', from: tableRef(t), columns: items, where: q.where }));
  return steps.slice(0, -1).map((s, i) => ({ range: `${s}-${steps[i + 1]}`, count: Number(row?.[`r${i}`] ?? 0) }));
}
