/**
 * Nested relations for one page of rows, with ONE query per relation per page (never one per
 * row): has-many children (`{Child}List`), belongs-to parents (`{Parent}Read`) and many-to-many
 * targets (`{Target}MMList`). Per-parent limits use ROW_NUMBER() partitioned by the parent key.
 */
import type { Compiled, Cond, Expr, OrderItem, Select, SqlValue } from '../sql/ast';
import type { ColumnModel, RelationModel, TableModel } from '../schema/model';
import type { NestedQuery } from './list-query';
import { executorOf, tableOf, type DataContext } from './data-context';
import { keyAlias, keyReader, keysToAdd, keyString, keyValues, needsExact, selectItems, tableRef, valueKey } from './select-builder';
import { rowMakerOf } from './row-maker';
import { parseSort } from './list-query';
import { coerceValue } from './values';
import { shapedCompile } from './nested-sql-cache';

/** Primary key and display column: what a nested list holds by default. */
export function defaultNestedFields(t: TableModel): ColumnModel[] {
  const keep = new Set([...t.pks, ...(t.displayColumn ? [t.displayColumn] : [])]);
  const cols = t.columns.filter((c) => keep.has(c.cn));
  return cols.length ? cols : t.columns;
}

/** `(a, b) IN ((1, 2), (3, 4))` written portably: one column -> IN, several -> OR of ANDs. */
export function tupleIn(cols: string[], table: string | undefined, tuples: unknown[][], colModels: ColumnModel[]): Cond {
  const val = (i: number, v: unknown): Expr => ({ kind: 'val', value: coerceValue(colModels[i]!, v) });
  if (cols.length === 1) return { kind: 'in', left: { kind: 'col', name: cols[0]!, table }, values: tuples.map((t) => val(0, t[0])) };
  return {
    kind: 'or',
    items: tuples.map((t) => ({ kind: 'and', items: cols.map((c, i) => ({ kind: 'cmp', op: '=', left: { kind: 'col', name: c, table }, right: val(i, t[i]) }) as Cond) })),
  };
}

/** Each row's key (valueKey for one column, keyString for several), worked out once, and the distinct key tuples without a null. */
function rowKeys(t: TableModel, rows: Record<string, unknown>[], cns: string[]): { keys: unknown[]; tuples: unknown[][] } {
  const keys = new Array<unknown>(rows.length);
  const seen = new Map<unknown, unknown[]>();
  if (cns.length === 1) {
    const read = keyReader(t, cns[0]!);
    for (let i = 0; i < rows.length; i++) {
      const v = read(rows[i]!);
      const k = valueKey(v);
      keys[i] = k;
      if (v !== null && v !== undefined && !seen.has(k)) seen.set(k, [v]);
    }
    return { keys, tuples: [...seen.values()] };
  }
  for (let i = 0; i < rows.length; i++) {
    const values = keyValues(t, rows[i]!, cns);
    const k = keyString(values);
    keys[i] = k;
    let complete = true;
    for (const v of values) if (v === null || v === undefined) complete = false;
    if (complete) seen.set(k, values);
  }
  return { keys, tuples: [...seen.values()] };
}

/** The map key of a row's key columns, the same as rowKeys gives. */
function keyFn(t: TableModel, cns: string[]): (raw: Record<string, unknown>) => unknown {
  if (cns.length === 1) {
    const read = keyReader(t, cns[0]!);
    return (raw) => valueKey(read(raw));
  }
  return (raw) => keyString(keyValues(t, raw, cns));
}

const colModels = (t: TableModel, cns: string[]) => cns.map((cn) => t.columns.find((c) => c.cn === cn)!);

/** The key values as bound for a one-column key, or undefined for a composite key. */
function singleKeyValues(t: TableModel, cns: string[], tuples: unknown[][]): SqlValue[] | undefined {
  if (cns.length !== 1) return undefined;
  const col = colModels(t, cns)[0]!;
  return tuples.map((k) => coerceValue(col, k[0]));
}

const fieldKeys = new WeakMap<ColumnModel[], string>();
/** The asked fields of a nested relation as part of a query shape ('' for the default fields); worked out once per list. */
function fieldsKey(n: NestedQuery): string {
  if (!n.fields) return '';
  let key = fieldKeys.get(n.fields);
  if (key === undefined) fieldKeys.set(n.fields, (key = n.fields.map((c) => c.cn).join(',')));
  return key;
}

/** Wraps a select so only the first `limit` rows of each partition remain. */
function limitPerPartition(inner: Select, partitionBy: Expr[], order: OrderItem[], limit: number, offset = 0): Select {
  inner.columns.push({ expr: { kind: 'rowNumber', partitionBy, orderBy: order }, as: '__rn' });
  const upTo: Cond = { kind: 'cmp', op: '<=', left: { kind: 'col', name: '__rn' }, right: { kind: 'val', value: offset + limit } };
  return {
    kind: 'select',
    from: { kind: 'subselect', query: inner, alias: '__n' },
    columns: [{ expr: { kind: 'star' } }],
    where: offset > 0 ? { kind: 'and', items: [{ kind: 'cmp', op: '>', left: { kind: 'col', name: '__rn' }, right: { kind: 'val', value: offset } }, upTo] } : upTo,
    orderBy: [{ expr: { kind: 'col', name: '__rn' } }],
  };
}

/** Relations whose capped query reached its cap: how many reads still go straight to ROW_NUMBER(). */
const overflowed = new WeakMap<RelationModel, number>();
/** Reads of such a relation before the capped query is tried again. */
const OVERFLOW_SKIPS = 100;

/**
 * Every child of the parents in one query ordered by parent then `order`, capped at `cap` rows;
 * undefined when the cap is reached (some parent may have more: the ROW_NUMBER() query answers,
 * and answers the next reads of the relation at once, so parents with many children cost one
 * wasted query in a hundred).
 */
async function cappedChildren(dc: DataContext, rel: RelationModel, compiled: (cap: number) => Compiled, cap: number, exact: boolean): Promise<Record<string, unknown>[] | undefined> {
  const skips = overflowed.get(rel);
  if (skips) {
    overflowed.set(rel, skips - 1);
    return undefined;
  }
  const rows = await executorOf(dc).query<Record<string, unknown>>({ ...compiled(cap), exact });
  if (rows.length < cap) return rows;
  overflowed.set(rel, OVERFLOW_SKIPS);
  return undefined;
}

/** What a one-column belongs-to read needs, worked out once per nested query (a read plan reuses its queries). */
interface BelongsToPlan {
  target: TableModel;
  fields: ColumnModel[];
  exact: boolean;
  shape: string;
  /** The child's key value of a parent row (the row of `t`). */
  keyOfRow: (raw: Record<string, unknown>) => unknown;
  /** The key value of a related row. */
  keyOfRelated: (raw: Record<string, unknown>) => unknown;
  keyColumn: ColumnModel;
}
const belongsToPlans = new WeakMap<NestedQuery, BelongsToPlan>();

function belongsToPlan(dc: DataContext, t: TableModel, n: NestedQuery): BelongsToPlan {
  let p = belongsToPlans.get(n);
  if (!p) {
    const rel = n.relation;
    const target = tableOf(dc, rel.rtn);
    const fields = n.fields ?? defaultNestedFields(target);
    p = {
      target,
      fields,
      exact: needsExact(fields),
      shape: `bt|${fieldsKey(n)}`,
      keyOfRow: keyReader(t, rel.childColumns[0]!),
      keyOfRelated: keyFn(target, rel.parentColumns),
      keyColumn: colModels(target, rel.parentColumns)[0]!,
    };
    belongsToPlans.set(n, p);
  }
  return p;
}

/**
 * A belongs-to relation on one column without a filter (the usual case): the distinct keys of the
 * page bound into the SQL kept for their number, each row given its related row or null.
 */
async function loadBelongsTo(dc: DataContext, t: TableModel, rawRows: Record<string, unknown>[], apiRows: Record<string, unknown>[], n: NestedQuery): Promise<void> {
  const p = belongsToPlan(dc, t, n);
  const rel = n.relation;
  const keys = new Array<unknown>(rawRows.length);
  const seen = new Set<unknown>();
  const values: SqlValue[] = [];
  for (let i = 0; i < rawRows.length; i++) {
    const v = p.keyOfRow(rawRows[i]!);
    const k = valueKey(v);
    keys[i] = k;
    if (v !== null && v !== undefined && !seen.has(k)) {
      seen.add(k);
      values.push(coerceValue(p.keyColumn, v));
    }
  }
  const byKey = new Map<unknown, Record<string, unknown>>();
  if (values.length) {
    const build = (): Compiled =>
      dc.pdb.db.dialect.compile({
        kind: 'select',
        from: tableRef(p.target),
        columns: selectItems(p.target, p.fields, keysToAdd(p.fields, rel.parentColumns)),
        where: tupleIn(rel.parentColumns, undefined, values.map((v) => [v]), [p.keyColumn]),
      });
    const q = shapedCompile(rel, p.shape, values, undefined, build);
    const related = await executorOf(dc).query<Record<string, unknown>>({ sql: q.sql, params: q.params, exact: p.exact });
    const make = n.makeRow ?? rowMakerOf(p.fields);
    for (const raw of related) byKey.set(p.keyOfRelated(raw), make(raw));
  }
  const field = n.as ?? `${rel.alias}Read`;
  for (let i = 0; i < keys.length; i++) (apiRows[i] as Record<string | symbol, unknown>)[field] = byKey.get(keys[i]) ?? null;
}

/** Adds the nested relations to `apiRows` (same order as `rawRows`). */
export function loadNested(dc: DataContext, t: TableModel, rawRows: Record<string, unknown>[], apiRows: Record<string, unknown>[], nested: NestedQuery[]): Promise<unknown> {
  if (rawRows.length === 0) return Promise.resolve();
  const exec = executorOf(dc);
  const { compile } = dc.pdb.db.dialect;
  const other = async (n: NestedQuery): Promise<void> => {
    const rel = n.relation;
    const target = tableOf(dc, rel.rtn);
    const fields = n.fields ?? defaultNestedFields(target);
    if (rel.type === 'bt') {
      // Composite keys and filtered belongs-to relations.
      const { keys, tuples } = rowKeys(t, rawRows, rel.childColumns);
      const byKey = new Map<unknown, Record<string, unknown>>();
      if (tuples.length) {
        // A one-column key without a filter took loadBelongsTo: the SQL here is made for the request.
        const link = tupleIn(rel.parentColumns, undefined, tuples, colModels(target, rel.parentColumns));
        const q = compile({
          kind: 'select',
          from: tableRef(target),
          columns: selectItems(target, fields, keysToAdd(fields, rel.parentColumns)),
          where: n.where ? { kind: 'and', items: [link, n.where] } : link,
        });
        const keyOfRaw = keyFn(target, rel.parentColumns);
        const make = n.makeRow ?? rowMakerOf(fields);
        for (const raw of await exec.query<Record<string, unknown>>({ ...q, exact: needsExact(fields) })) byKey.set(keyOfRaw(raw), make(raw));
      }
      const field = n.as ?? `${rel.alias}Read`;
      for (let i = 0; i < keys.length; i++) (apiRows[i] as Record<string | symbol, unknown>)[field] = byKey.get(keys[i]!) ?? null;
      return;
    }
    // hm and mm: children grouped by the parent key they point at.
    const parentCols = rel.type === 'hm' ? rel.parentColumns : rel.junction!.refColumns;
    const { keys, tuples } = rowKeys(t, rawRows, parentCols);
    const groups = new Map<unknown, Record<string, unknown>[]>();
    if (tuples.length) {
      const sort = () => n.sort ?? parseSort(target, undefined, rel.type === 'mm' ? '__t' : undefined);
      let inner: () => Select;
      let partition: Expr[];
      let linkCols: string[];
      if (rel.type === 'hm') {
        linkCols = rel.childColumns;
        partition = linkCols.map((c) => ({ kind: 'col', name: c }) as Expr);
        inner = () => ({
          kind: 'select',
          from: tableRef(target),
          columns: selectItems(target, fields, linkCols),
          where: n.where ? { kind: 'and', items: [tupleIn(linkCols, undefined, tuples, colModels(target, linkCols)), n.where] } : tupleIn(linkCols, undefined, tuples, colModels(target, linkCols)),
        });
      } else {
        const j = rel.junction!;
        const junction = tableOf(dc, j.tn);
        linkCols = j.columns;
        partition = linkCols.map((c) => ({ kind: 'col', name: c, table: '__j' }) as Expr);
        const items = selectItems(target, fields, [], '__t');
        for (const c of linkCols) items.push({ expr: { kind: 'col', name: c, table: '__j' }, as: keyAlias(c) });
        const on: Cond = { kind: 'and', items: j.targetRefColumns.map((c, i) => ({ kind: 'cmp', op: '=', left: { kind: 'col', name: c, table: '__t' }, right: { kind: 'col', name: j.targetColumns[i]!, table: '__j' } }) as Cond) };
        const link = tupleIn(linkCols, '__j', tuples, colModels(junction, linkCols));
        inner = () => ({
          kind: 'select',
          from: tableRef(target, '__t'),
          joins: [{ type: 'inner', table: tableRef(junction, '__j'), on }],
          columns: [...items],
          where: n.where ? { kind: 'and', items: [link, qualify(n.where, '__t')] } : link,
        });
      }
      const exact = needsExact(fields);
      const make = n.makeRow ?? rowMakerOf(fields);
      const linkAliases = linkCols.map(keyAlias);
      const first = linkAliases[0]!;
      const keyOf = linkAliases.length === 1 ? (raw: Record<string, unknown>) => valueKey(raw[first]) : (raw: Record<string, unknown>) => keyString(linkAliases.map((a) => raw[a]));
      let capped: Record<string, unknown>[] | undefined;
      if (rel.type === 'hm' && !n.offset && dc.pdb.db.dialect.caps.cappedChildren) {
        const build = (cap: number) => compile({ ...inner(), orderBy: [...partition.map((expr) => ({ expr })), ...sort()], limit: cap, limitIsCap: true });
        const values = n.where || n.sort ? undefined : singleKeyValues(target, linkCols, tuples);
        const compiled = values ? (cap: number) => shapedCompile(rel, `hm|${fieldsKey(n)}`, values, cap, () => build(cap)) : build;
        capped = await cappedChildren(dc, rel, compiled, tuples.length * n.limit, exact);
      }
      if (capped) {
        // Ordered by parent: each parent's first `limit` rows, in the sort order.
        for (const raw of capped) {
          const k = keyOf(raw);
          let list = groups.get(k);
          if (!list) groups.set(k, (list = []));
          if (list.length < n.limit) list.push(make(raw));
        }
      } else {
        const q = limitPerPartition(inner(), partition, sort(), n.limit, n.offset);
        for (const raw of await exec.query<Record<string, unknown>>({ ...compile(q), exact })) {
          const k = keyOf(raw);
          const list = groups.get(k) ?? [];
          list.push(make(raw));
          groups.set(k, list);
        }
      }
    }
    const field = n.as ?? (rel.type === 'hm' ? `${rel.alias}List` : `${rel.alias}MMList`);
    for (let i = 0; i < keys.length; i++) (apiRows[i] as Record<string | symbol, unknown>)[field] = groups.get(keys[i]!) ?? [];
  };
  const one = (n: NestedQuery): Promise<void> =>
    n.relation.type === 'bt' && n.relation.childColumns.length === 1 && !n.where ? loadBelongsTo(dc, t, rawRows, apiRows, n) : other(n);
  // One relation (the usual case) without the promises of Promise.all.
  return nested.length === 1 ? one(nested[0]!) : Promise.all(nested.map(one));
}

/** Qualifies the bare column references of a condition with a table alias. */
function qualify(c: Cond, table: string): Cond {
  const ex = (e: Expr): Expr => (e.kind === 'col' && !e.table ? { ...e, table } : e);
  switch (c.kind) {
    case 'cmp':
      return { ...c, left: ex(c.left), right: ex(c.right) };
    case 'like':
      return { ...c, left: ex(c.left) };
    case 'in':
      return { ...c, left: ex(c.left) };
    case 'isNull':
      return { ...c, expr: ex(c.expr) };
    case 'between':
      return { ...c, expr: ex(c.expr) };
    case 'and':
    case 'or':
      return { ...c, items: c.items.map((i) => qualify(i, table)) };
    case 'not':
      return { ...c, item: qualify(c.item, table) };
    default:
      return c;
  }
}
