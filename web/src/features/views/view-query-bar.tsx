/**
 * Filters and sorts of a gallery, kanban or calendar view (kept in the view as the where language
 * and the sort parameter) and a search box (not kept). Builder rows and the search apply 300 ms after
 * the last change when the user's setting autoApplyFilter is on (the default), else on Apply or Enter;
 * the where text always waits for Apply or Enter. A where or sort changed from elsewhere (another
 * person, undo) resets the bar; the bar's own applies do not (it keeps the focus and the rows typed).
 */
import { useEffect, useRef, useState } from 'react';
import type { ColumnMeta } from '../../api/dashboard';
import { Button } from '../../components/form';
import { FILTER_OPS, opsFor, toSort, toWhere, type FilterRow, type SortRow } from '../grid/query-builder';
import { FilterValueInput, valueFor } from '../grid/filter-value';
import { parseSort, parseWhere } from './view-state';
import { t } from '../../i18n';
import { autoApplyFilter } from '../../stores/settings';
import { useSignals } from '../../stores/signals';

/** The bar; Apply hands over the where, the sort and the search. */
export function ViewQueryBar(props: { columns: ColumnMeta[]; where: string; sort: string; search: string; searchLabel: string | null; noSort?: boolean; onApply: (where: string, sort: string, search: string) => void }) {
  useSignals();
  const auto = autoApplyFilter.value;
  const parsed = parseWhere(props.where);
  const [filters, setFilters] = useState<FilterRow[]>(parsed ?? []);
  const [raw, setRaw] = useState<string | null>(parsed === null ? props.where : null);
  const [sorts, setSorts] = useState<SortRow[]>(parseSort(props.sort));
  const [search, setSearch] = useState(props.search);
  // What the bar last handed over (or was given): a where or sort that differs came from elsewhere.
  const known = useRef({ where: props.where, sort: props.sort, search: props.search });
  useEffect(() => {
    if (props.where === known.current.where && props.sort === known.current.sort) return;
    known.current = { where: props.where, sort: props.sort, search: known.current.search };
    const rows = parseWhere(props.where);
    setFilters(rows ?? []);
    setRaw(rows === null ? props.where : null);
    setSorts(parseSort(props.sort));
  }, [props.where, props.sort]);
  const apply = (where = raw ?? toWhere(filters)) => {
    const sort = toSort(sorts);
    if (where === known.current.where && sort === known.current.sort && search === known.current.search) return;
    known.current = { where, sort, search };
    props.onApply(where, sort, search);
  };
  const first = useRef(true);
  useEffect(() => {
    if (first.current) return void (first.current = false);
    if (raw !== null || !auto) return;
    const timer = setTimeout(() => apply(toWhere(filters)), 300);
    return () => clearTimeout(timer);
  }, [filters, sorts, search, raw, auto]);
  const set = (i: number, patch: Partial<FilterRow>) => setFilters(filters.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  const columnOf = (name: string) => props.columns.find((c) => c._cn === name);
  /** The operator kept when a filter's column changes: the same when the new column offers it, else 'eq'. */
  const opOf = (name: string, op: string) => (opsFor(columnOf(name)).some((o) => o.op === op) ? op : 'eq');
  const col = (value: string, onChange: (v: string) => void, label: string) => (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{t('views.query.column')}</option>
      {props.columns.map((c) => <option key={c.cn} value={c._cn}>{c._cn}</option>)}
    </select>
  );
  return (
    <div className="query-toolbar">
      {props.searchLabel ? (
        <input className="grid-search" aria-label={t('views.query.search')} placeholder={t('views.query.searchIn', { column: props.searchLabel })} value={search} onChange={(e) => setSearch(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && apply()} />
      ) : null}
      {raw === null ? (
        <>
          {filters.map((f, i) => (
            <span key={i} className="query-row">
              {col(f.column, (v) => set(i, { column: v, op: opOf(v, f.op), value: valueFor(columnOf(v), opOf(v, f.op), f.value) }), t('views.query.filterColumn', { n: i + 1 }))}
              <select aria-label={t('views.query.filterOperator', { n: i + 1 })} value={f.op} onChange={(e) => set(i, { op: e.target.value, value: valueFor(columnOf(f.column), e.target.value, f.value) })}>
                {opsFor(columnOf(f.column)).map((o) => <option key={o.op} value={o.op}>{o.label}</option>)}
              </select>
              {FILTER_OPS.find((o) => o.op === f.op)?.needsValue ? <FilterValueInput column={columnOf(f.column)} op={f.op} value={f.value} label={t('views.query.filterValue', { n: i + 1 })} onChange={(v) => set(i, { value: v })} onEnter={() => apply()} /> : null}
              <button className="chip-x" aria-label={t('views.query.removeFilter', { n: i + 1 })} onClick={() => setFilters(filters.filter((_, j) => j !== i))}>×</button>
            </span>
          ))}
          {props.noSort
            ? null
            : sorts.map((s, i) => (
                <span key={`s${i}`} className="query-row">
                  {col(s.column, (v) => setSorts(sorts.map((x, j) => (j === i ? { ...x, column: v } : x))), t('views.query.sortColumn', { n: i + 1 }))}
                  <select aria-label={t('views.query.sortDirection', { n: i + 1 })} value={s.desc ? 'desc' : 'asc'} onChange={(e) => setSorts(sorts.map((x, j) => (j === i ? { ...x, desc: e.target.value === 'desc' } : x)))}>
                    <option value="asc">{t('views.query.ascending')}</option>
                    <option value="desc">{t('views.query.descending')}</option>
                  </select>
                  <button className="chip-x" aria-label={t('views.query.removeSort', { n: i + 1 })} onClick={() => setSorts(sorts.filter((_, j) => j !== i))}>×</button>
                </span>
              ))}
          <Button variant="ghost" onClick={() => setFilters([...filters, { column: '', op: 'eq', value: '' }])}>{t('views.query.addFilter')}</Button>
          {props.noSort ? null : <Button variant="ghost" onClick={() => setSorts([...sorts, { column: '', desc: false }])}>{t('views.query.addSort')}</Button>}
        </>
      ) : (
        <input
          className="grid-where"
          aria-label={t('views.query.where')}
          placeholder="(Name,like,%rock%)~and(Id,gt,10)" // i18n-ignore
          value={raw}
          onChange={(e) => setRaw(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && apply()}
        />
      )}
      <Button variant="ghost" onClick={() => setRaw(raw === null ? toWhere(filters) : null)}>{raw === null ? t('views.query.whereText') : t('views.query.builder')}</Button>
      {/* As in the grid: Apply is for the where text, or for all when the user's filters wait for it. */}
      {!auto || raw !== null ? <Button variant="secondary" onClick={() => apply()}>{t('views.query.apply')}</Button> : null}
    </div>
  );
}
