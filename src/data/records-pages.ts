/**
 * Every row of a list, page by page, for exports: the list parameters parsed as for `list`
 * (`listQueryOf`: fields, where, sort, the caller's rights), without its limit. When the order is
 * the primary key's alone (no sort asked), pages follow the key (`WHERE key > last`), so the
 * millionth row costs what the first did; other orders page by offset.
 */
import type { Cond, OrderItem } from '../sql/ast';
import type { ColumnModel, TableModel } from '../schema/model';
import type { DataContext } from './data-context';
import type { Params } from './list-query';
import { listQueryOf, runList } from './records-read';
import { andCond } from './read-scope';
import { coerceValue } from './values';

type Row = Record<string, unknown>;

/** The key columns of an order made of key columns only, or null. */
function keyOrder(t: TableModel, sort: OrderItem[]): { c: ColumnModel; desc: boolean }[] | null {
  if (sort.length === 0 || t.pks.length === 0) return null;
  const out: { c: ColumnModel; desc: boolean }[] = [];
  for (const s of sort) {
    if (s.expr.kind !== 'col' || !t.pks.includes(s.expr.name)) return null;
    const c = t.columns.find((x) => x.cn === (s.expr as { name: string }).name)!;
    out.push({ c, desc: !!s.desc });
  }
  return out;
}

/** Rows after `last` in the key order: (k1 > v1) OR (k1 = v1 AND k2 > v2) ... */
function after(keys: { c: ColumnModel; desc: boolean }[], last: Row): Cond {
  const vals = keys.map(({ c }) => ({ kind: 'val' as const, value: coerceValue(c, last[c._cn]) }));
  const items: Cond[] = keys.map(({ c, desc }, i) => {
    const eqs: Cond[] = keys.slice(0, i).map((k, j) => ({ kind: 'cmp', op: '=', left: { kind: 'col', name: k.c.cn }, right: vals[j]! }));
    const step: Cond = { kind: 'cmp', op: desc ? '<' : '>', left: { kind: 'col', name: c.cn }, right: vals[i]! };
    return eqs.length ? { kind: 'and', items: [...eqs, step] } : step;
  });
  return items.length === 1 ? items[0]! : { kind: 'or', items };
}

/**
 * The rows of `list(dc, t, params)` without a limit, `pageSize` at a time, with the readable columns
 * asked for (`columns`, known before the first page).
 */
export function listPages(dc: DataContext, t: TableModel, params: Params, pageSize: number): { columns: ColumnModel[]; pages: AsyncGenerator<Row[]> } {
  const q = listQueryOf(dc, t, params);
  const keys = keyOrder(t, q.sort);
  const columns = q.fields;
  // Keyset paging needs the key of each page's last row: added to the fields and left out again.
  const extra = keys ? keys.map((k) => k.c).filter((c) => !columns.includes(c)) : [];
  const fields = [...columns, ...extra];
  async function* pages(): AsyncGenerator<Row[]> {
    let offset = 0;
    let last: Row | undefined;
    for (;;) {
      const where = keys && last ? andCond(q.where, after(keys, last)) : q.where;
      const rows = await runList(dc, t, { ...q, fields, nested: [], where, limit: pageSize, offset: keys ? 0 : offset });
      if (rows.length === 0) return;
      last = rows[rows.length - 1];
      offset += rows.length;
      if (extra.length) for (const r of rows) for (const c of extra) delete r[c._cn];
      yield rows;
      if (rows.length < pageSize) return;
    }
  }
  return { columns, pages: pages() };
}
