/**
 * The grid's filter and sort builders, search box, and the where language for those who want it.
 * Builder rows and the search apply as they change (debounced), unless the user's setting
 * autoApplyFilter is off (then on Enter or Apply); the where text applies on Enter or Apply, since it
 * is rarely valid while typed. Where… shows the builder's filter as text and Builder
 * reads the text back into rows when it can.
 */
import { useEffect, useRef, useState } from 'react';
import type { ColumnMeta } from '../../api/dashboard';
import { Button } from '../../components/form';
import { FILTER_OPS, fromWhere, opsFor, toSort, toWhere, type FilterRow, type SortRow } from './query-builder';
import { FilterValueInput, valueFor } from './filter-value';
import type { GridStore } from './grid-store';
import { t } from '../../i18n';
import { autoApplyFilter } from '../../stores/settings';
import { useSignals } from '../../stores/signals';

export function QueryToolbar(props: { store: GridStore; columns: ColumnMeta[]; displayColumn: string | null }) {
  useSignals();
  const { store } = props;
  const auto = autoApplyFilter.value;
  const saved = store.builder.value;
  const [filters, setFilters] = useState<FilterRow[]>(saved.filters);
  const [sorts, setSorts] = useState<SortRow[]>(saved.sorts);
  const [search, setSearch] = useState(store.search.value);
  const [raw, setRaw] = useState<string | null>(saved.raw);
  const [problem, setProblem] = useState<string | null>(null);
  const apply = (f = filters, s = sorts, q = search, r = raw) => {
    const where = r ?? toWhere(f);
    store.builder.value = { filters: f, sorts: s, search: q, raw: r };
    if (where === store.where.value && toSort(s) === store.sort.value && q === store.search.value) return;
    // The search is not part of the kept where (a saved view keeps its filters, not a search).
    store.setQuery(where, toSort(s), q);
  };
  // Builder rows and the search apply 300 ms after the last change (when the user lets them).
  const first = useRef(true);
  useEffect(() => {
    if (first.current) return void (first.current = false);
    if (raw !== null || !auto) return;
    const timer = setTimeout(() => apply(filters, sorts, search, null), 300);
    return () => clearTimeout(timer);
  }, [filters, sorts, search, raw, auto]);
  const toggleWhere = () => {
    if (raw === null) return setRaw(toWhere(filters));
    const rows = fromWhere(raw);
    if (!rows) return setProblem(t('grid.query.orProblem'));
    setProblem(null);
    setFilters(rows);
    setRaw(null);
  };
  const columnOf = (name: string) => props.columns.find((c) => c._cn === name);
  /** The operator kept when a filter's column changes: the same when the new column offers it, else 'eq'. */
  const opOf = (name: string, op: string) => (opsFor(columnOf(name)).some((o) => o.op === op) ? op : 'eq');
  const col = (value: string, onChange: (v: string) => void, label: string) => (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{t('grid.query.column')}</option>
      {props.columns.map((c) => <option key={c.cn} value={c._cn}>{c._cn}</option>)}
    </select>
  );
  return (
    <div className="query-toolbar">
      {props.displayColumn ? (
        <input className="grid-search" aria-label={t('grid.query.search')} placeholder={t('grid.query.searchIn', { column: props.displayColumn })} value={search} onChange={(e) => setSearch(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && apply()} />
      ) : null}
      {raw === null ? (
        <>
          {filters.map((f, i) => (
            <span key={i} className="query-row">
              {col(f.column, (v) => setFilters(filters.map((x, j) => (j === i ? { ...x, column: v, op: opOf(v, x.op), value: valueFor(columnOf(v), opOf(v, x.op), x.value) } : x))), t('grid.query.filterColumn', { n: i + 1 }))}
              <select aria-label={t('grid.query.filterOperator', { n: i + 1 })} value={f.op} onChange={(e) => setFilters(filters.map((x, j) => (j === i ? { ...x, op: e.target.value, value: valueFor(columnOf(x.column), e.target.value, x.value) } : x)))}>
                {opsFor(columnOf(f.column)).map((o) => <option key={o.op} value={o.op}>{o.label}</option>)}
              </select>
              {FILTER_OPS.find((o) => o.op === f.op)?.needsValue ? (
                <FilterValueInput column={columnOf(f.column)} op={f.op} value={f.value} label={t('grid.query.filterValue', { n: i + 1 })} onChange={(v) => setFilters(filters.map((x, j) => (j === i ? { ...x, value: v } : x)))} onEnter={() => apply()} />
              ) : null}
              <button className="chip-x" aria-label={t('grid.query.removeFilter', { n: i + 1 })} onClick={() => setFilters(filters.filter((_, j) => j !== i))}>×</button>
            </span>
          ))}
          {sorts.map((s, i) => (
            <span key={`s${i}`} className="query-row">
              {col(s.column, (v) => setSorts(sorts.map((x, j) => (j === i ? { ...x, column: v } : x))), t('grid.query.sortColumn', { n: i + 1 }))}
              <select aria-label={t('grid.query.sortDirection', { n: i + 1 })} value={s.desc ? 'desc' : 'asc'} onChange={(e) => setSorts(sorts.map((x, j) => (j === i ? { ...x, desc: e.target.value === 'desc' } : x)))}>
                <option value="asc">{t('grid.query.ascending')}</option>
                <option value="desc">{t('grid.query.descending')}</option>
              </select>
              <button className="chip-x" aria-label={t('grid.query.removeSort', { n: i + 1 })} onClick={() => setSorts(sorts.filter((_, j) => j !== i))}>×</button>
            </span>
          ))}
          <Button variant="ghost" onClick={() => setFilters([...filters, { column: '', op: 'eq', value: '' }])}>{t('grid.query.addFilter')}</Button>
          <Button variant="ghost" onClick={() => setSorts([...sorts, { column: '', desc: false }])}>{t('grid.query.addSort')}</Button>
        </>
      ) : (
        <input className="grid-where" aria-label={t('grid.query.where')} placeholder="(Name,like,%rock%)~and(Id,gt,10)" /* i18n-ignore */ value={raw} onChange={(e) => (setRaw(e.target.value), setProblem(null))} onKeyDown={(e) => e.key === 'Enter' && apply()} />
      )}
      <Button variant="ghost" onClick={toggleWhere}>{raw === null ? t('grid.query.whereButton') : t('grid.query.builder')}</Button>
      {/* Builder rows and the search apply by themselves when the user lets them: Apply is for the where text, or for all when they wait. */}
      {!auto || raw !== null ? <Button variant="secondary" onClick={() => apply()}>{t('grid.query.apply')}</Button> : null}
      {problem && raw !== null ? <span className="form-message form-message-error" role="alert">{problem}</span> : null}
    </div>
  );
}
