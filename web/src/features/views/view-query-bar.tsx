/**
 * Filters and sorts of a gallery, kanban or calendar view (kept in the view as the where language
 * and the sort parameter) and a search box (not kept).
 */
import { useState } from 'react';
import type { ColumnMeta } from '../../api/dashboard';
import { Button } from '../../components/form';
import { FILTER_OPS, toSort, toWhere, type FilterRow, type SortRow } from '../grid/query-builder';
import { parseSort, parseWhere } from './view-state';

/** The bar; Apply hands over the where, the sort and the search. */
export function ViewQueryBar(props: { columns: ColumnMeta[]; where: string; sort: string; search: string; searchLabel: string | null; noSort?: boolean; onApply: (where: string, sort: string, search: string) => void }) {
  const parsed = parseWhere(props.where);
  const [filters, setFilters] = useState<FilterRow[]>(parsed ?? []);
  const [raw, setRaw] = useState<string | null>(parsed === null ? props.where : null);
  const [sorts, setSorts] = useState<SortRow[]>(parseSort(props.sort));
  const [search, setSearch] = useState(props.search);
  const apply = () => props.onApply(raw ?? toWhere(filters), toSort(sorts), search);
  const set = (i: number, patch: Partial<FilterRow>) => setFilters(filters.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  const col = (value: string, onChange: (v: string) => void, label: string) => (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">column…</option>
      {props.columns.map((c) => <option key={c.cn} value={c._cn}>{c._cn}</option>)}
    </select>
  );
  return (
    <div className="query-toolbar">
      {props.searchLabel ? (
        <input className="grid-search" aria-label="Search" placeholder={`Search ${props.searchLabel}`} value={search} onChange={(e) => setSearch(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && apply()} />
      ) : null}
      {raw === null ? (
        <>
          {filters.map((f, i) => (
            <span key={i} className="query-row">
              {col(f.column, (v) => set(i, { column: v }), `Filter ${i + 1} column`)}
              <select aria-label={`Filter ${i + 1} operator`} value={f.op} onChange={(e) => set(i, { op: e.target.value })}>
                {FILTER_OPS.map((o) => <option key={o.op} value={o.op}>{o.label}</option>)}
              </select>
              {FILTER_OPS.find((o) => o.op === f.op)?.needsValue ? <input aria-label={`Filter ${i + 1} value`} value={f.value} onChange={(e) => set(i, { value: e.target.value })} /> : null}
              <button className="chip-x" aria-label={`Remove filter ${i + 1}`} onClick={() => setFilters(filters.filter((_, j) => j !== i))}>×</button>
            </span>
          ))}
          {props.noSort
            ? null
            : sorts.map((s, i) => (
                <span key={`s${i}`} className="query-row">
                  {col(s.column, (v) => setSorts(sorts.map((x, j) => (j === i ? { ...x, column: v } : x))), `Sort ${i + 1} column`)}
                  <select aria-label={`Sort ${i + 1} direction`} value={s.desc ? 'desc' : 'asc'} onChange={(e) => setSorts(sorts.map((x, j) => (j === i ? { ...x, desc: e.target.value === 'desc' } : x)))}>
                    <option value="asc">A → Z</option>
                    <option value="desc">Z → A</option>
                  </select>
                  <button className="chip-x" aria-label={`Remove sort ${i + 1}`} onClick={() => setSorts(sorts.filter((_, j) => j !== i))}>×</button>
                </span>
              ))}
          <Button variant="ghost" onClick={() => setFilters([...filters, { column: '', op: 'eq', value: '' }])}>+ Filter</Button>
          {props.noSort ? null : <Button variant="ghost" onClick={() => setSorts([...sorts, { column: '', desc: false }])}>+ Sort</Button>}
        </>
      ) : (
        <input className="grid-where" aria-label="Where" placeholder="(Name,like,%rock%)~and(Id,gt,10)" value={raw} onChange={(e) => setRaw(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && apply()} />
      )}
      <Button variant="ghost" onClick={() => setRaw(raw === null ? toWhere(filters) : null)}>{raw === null ? 'Where…' : 'Builder'}</Button>
      <Button variant="secondary" onClick={apply}>Apply</Button>
    </div>
  );
}
