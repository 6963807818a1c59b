/**
 * A shared grid grouped by a column, as the owner's grid shows it: one collapsible group per value
 * with its count (within the view, the search and any filter), the rows of an open group read page
 * by page through the link with the group's value as the where. Read-only.
 */
import { useEffect, useState } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { sharedApi, type SharedViewMeta } from '../../api/shared';
import { CellView } from '../grid/grid-cell';
import { GROUP_PAGE, MAX_GROUPS } from '../grid/grouped-rows';
import { valueWhere } from '../views/lane-where';
import type { Row, RowSource } from '../views/row-source';
import { useLatest } from '../../components/use-latest-answer';
import { t } from '../../i18n';

type SharedColumn = SharedViewMeta['columns'][number];

export function SharedGroups(props: { uuid: string; password: string | null; meta: SharedViewMeta; source: RowSource; search: string; widthOf: (c: SharedColumn) => number }) {
  const [answer, setAnswer] = useState<{ column: string; groups: { value: unknown; count: number }[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const latest = useLatest();
  useEffect(() => {
    setAnswer(null);
    void latest(
      sharedApi.groups(props.uuid, props.password, props.search),
      (a) => (setAnswer(a), setError(null)),
      (e) => setError(e.message),
    );
  }, [props.uuid, props.password, props.search]);
  if (error) return <div className="form-message form-message-error">{error}</div>;
  if (!answer) return <p className="muted">{t('grid.group.loading', { column: props.meta.query_params.groupBy ?? '' })}</p>;
  const { column, groups } = answer;
  const col = props.meta.columns.find((c) => c._cn === column);
  return (
    <div className="grouped-grid" role="treegrid" aria-label={t('grid.group.rowsLabel', { column })}>
      {groups.length === 0 ? <div className="grid-empty muted">{t('grid.group.noRows')}</div> : null}
      {groups.map((g) => {
        const key = JSON.stringify(g.value ?? null);
        const isOpen = open.has(key);
        return (
          <section key={key} className="group">
            <button className="group-head" aria-expanded={isOpen} onClick={() => setOpen((s) => (s.has(key) ? new Set([...s].filter((k) => k !== key)) : new Set([...s, key])))}>
              {isOpen ? <ChevronDown size={14} /> : <ChevronRight size={14} />}
              <span className="group-value">{col && g.value != null && g.value !== '' ? <CellView column={col} value={g.value} readOnly onToggle={() => {}} onSet={() => {}} /> : <span className="muted">{t('grid.group.empty')}</span>}</span>
              <span className="group-count" aria-label={t('grid.group.count', { count: g.count })}>{g.count}</span>
            </button>
            {isOpen ? <SharedGroupRows {...props} where={valueWhere(column, g.value)} count={g.count} /> : null}
          </section>
        );
      })}
      {groups.length === MAX_GROUPS ? <p className="muted">{t('grid.group.limited', { count: MAX_GROUPS })}</p> : null}
    </div>
  );
}

function SharedGroupRows(props: { meta: SharedViewMeta; source: RowSource; search: string; widthOf: (c: SharedColumn) => number; where: string; count: number }) {
  const [rows, setRows] = useState<Row[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const more = async () => {
    setBusy(true);
    try {
      const page = await props.source.list({ limit: GROUP_PAGE, offset: rows.length, where: props.where, search: props.search || undefined });
      setRows((r) => [...r, ...page.list]);
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => void more(), []);
  return (
    <div className="group-rows" role="rowgroup">
      <div className="grid-head group-cols" role="row">
        {props.meta.columns.map((c) => (
          <div key={c.cn} className="grid-th" role="columnheader" style={{ width: props.widthOf(c) }}>{c._cn}</div>
        ))}
      </div>
      {rows.map((row, i) => (
        <div key={i} className="group-row" role="row">
          {props.meta.columns.map((c) => (
            <div key={c.cn} role="gridcell" className="grid-cell" style={{ width: props.widthOf(c) }}>
              <CellView column={c} value={row[c._cn]} readOnly onToggle={() => {}} onSet={() => {}} />
            </div>
          ))}
        </div>
      ))}
      {error ? <div className="form-message form-message-error">{error}</div> : null}
      {rows.length < props.count ? (
        <button className="btn btn-ghost group-more" disabled={busy} onClick={() => void more()}>
          {t('grid.group.more', { count: props.count - rows.length })}
        </button>
      ) : null}
    </div>
  );
}
