/**
 * The grid grouped by a column: one collapsible group per value with its count (REST groupby with
 * the grid's filters), the rows of an open group read page by page with the group's value ANDed
 * into the where. The column is kept in the view (query_params.groupBy). A row opens in the expanded
 * form (its expand button, or Enter / Space on the row) to be read or edited there; after a save the
 * groups and their open rows are read again (an edited group-by value moves the row to its group).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { ChevronDown, ChevronRight, Group, Maximize2 } from 'lucide-react';
import { http } from '../../api/http';
import { LIMITS } from '../../lib/limits';
import { recordsApi } from '../../api/records';
import type { ColumnMeta, TableMeta } from '../../api/dashboard';
import type { GridColumn } from './grid-columns';
import type { GridStore } from './grid-store';
import { CellView } from './grid-cell';
import { andWhere } from '../views/view-state';
import { valueWhere } from '../views/lane-where';
import { t } from '../../i18n';
import { useLatest } from '../../components/use-latest-answer';
import { ExpandForm } from './expand-form';
import { track } from '../../stores/notifications';

/** Rows read at a time in an open group; most groups listed. */
export const GROUP_PAGE = LIMITS.groupPage;
export const MAX_GROUPS = LIMITS.maxGroups;

type Row = Record<string, unknown>;

/** The group-by picker of the toolbar. */
export function GroupByMenu(props: { store: GridStore; columns: GridColumn[] }) {
  return (
    <label className="toolbar-select">
      <span className="muted toolbar-label">{t('grid.group.label')}</span>
      <Group size={15} className="toolbar-icon muted" aria-hidden />
      <select aria-label={t('grid.group.label')} value={props.store.groupBy.value ?? ''} onChange={(e) => props.store.setGroupBy(e.target.value || undefined)}>
        <option value="">{t('grid.group.none')}</option>
        {props.columns.map((c) => (
          <option key={c.cn} value={c._cn}>{c._cn}</option>
        ))}
      </select>
    </label>
  );
}

/** The groups of a grouped grid, each opened on demand; a row opens in the expanded form. */
export function GroupedRows(props: { store: GridStore; meta: TableMeta; column: string; columns: GridColumn[]; widthOf: (name: string) => number; readOnly: boolean; locked: (c: GridColumn) => boolean; dbAlias: string; canComment: boolean }) {
  const { store, meta, column } = props;
  const where = store.effectiveWhere();
  const [groups, setGroups] = useState<{ value: unknown; count: number }[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<Row | null>(null);
  // Moves on after a save made here: the groups and their open rows are read again.
  const [saved, setSaved] = useState(0);
  // The groups of the latest column and filter only (a filter typed meanwhile is asked again).
  const latest = useLatest();
  useEffect(() => {
    void latest(
      http<Row[]>(`/nc/${encodeURIComponent(store.projectId)}/api/v1/${encodeURIComponent(meta._tn)}/groupby`, { query: { fields: column, where: where || undefined, sort: column, limit: MAX_GROUPS } }),
      (list) => (setGroups(list.map((g) => ({ value: g[column], count: Number(g.count) }))), setError(null)),
      (e) => setError(e.message),
    );
  }, [column, where, store.writes.value, saved]);
  useEffect(() => setGroups(null), [column, where]);
  if (error) return <div className="form-message form-message-error">{error}</div>;
  if (!groups) return <p className="muted">{t('grid.group.loading', { column })}</p>;
  return (
    <>
      <GroupList
        column={column}
        columnMeta={props.columns.find((c) => c._cn === column)}
        groups={groups}
        rows={(g) => (
          <GroupRows
            key={saved}
            columns={props.columns}
            widthOf={(c) => props.widthOf(c._cn)}
            count={g.count}
            read={(offset) => recordsApi.list(store.projectId, meta._tn, { limit: GROUP_PAGE, offset, where: andWhere(where, valueWhere(column, g.value)) || undefined, sort: store.sort.value || undefined })}
            onOpen={setExpanded}
          />
        )}
      />
      {expanded ? (
        <ExpandForm
          meta={meta}
          row={expanded}
          readOnly={props.readOnly}
          activity={{ projectId: store.projectId, dbAlias: props.dbAlias, pk: store.idOf(expanded), canComment: props.canComment }}
          onClose={() => setExpanded(null)}
          onUploaded={() => setSaved((n) => n + 1)}
          onSave={async (changes) => {
            await track(t('grid.expand.saving'), recordsApi.update(store.projectId, meta._tn, store.idOf(expanded), changes), t('grid.expand.saved'));
            setExpanded(null);
            setSaved((n) => n + 1);
          }}
        />
      ) : null}
    </>
  );
}

/** Groups of rows by one column's values, each a button with its count that opens its rows (`rows`). */
export function GroupList(props: { column: string; columnMeta?: ColumnMeta; groups: { value: unknown; count: number }[]; rows: (group: { value: unknown; count: number }) => ReactNode }) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const { column, groups, columnMeta: col } = props;
  return (
    // Focusable, so a click on its rows takes the keyboard there: letters typed never run the app's one-key shortcuts.
    <div className="grouped-grid" role="treegrid" tabIndex={-1} aria-label={t('grid.group.rowsLabel', { column })}>
      {groups.length === 0 ? <div className="grid-empty muted">{t('grid.group.noRows')}</div> : null}
      {groups.map((g) => {
        const key = JSON.stringify(g.value ?? null);
        const isOpen = open.has(key);
        return (
          <section key={key} className="group">
            <button
              className="group-head"
              aria-expanded={isOpen}
              onClick={() => setOpen((s) => (s.has(key) ? new Set([...s].filter((k) => k !== key)) : new Set([...s, key])))}
            >
              {isOpen ? <ChevronDown size={14} /> : <ChevronRight size={14} />}
              <span className="group-value">{col && g.value != null && g.value !== '' ? <CellView column={col} value={g.value} readOnly onToggle={() => {}} onSet={() => {}} /> : <span className="muted">{t('grid.group.empty')}</span>}</span>
              <span className="group-count" aria-label={t('grid.group.count', { count: g.count })}>{g.count}</span>
            </button>
            {isOpen ? props.rows(g) : null}
          </section>
        );
      })}
      {groups.length === MAX_GROUPS ? <p className="muted">{t('grid.group.limited', { count: MAX_GROUPS })}</p> : null}
    </div>
  );
}

/**
 * The rows of one open group, read a page at a time by `read` (from the offset given); with `onOpen`,
 * each row opens (its expand button, Enter or Space on the row), else the rows are only shown.
 */
export function GroupRows(props: { columns: ColumnMeta[]; widthOf: (c: ColumnMeta) => number; count: number; read: (offset: number) => Promise<Row[]>; onOpen?: (row: Row) => void }) {
  const [rows, setRows] = useState<Row[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const more = async () => {
    setBusy(true);
    try {
      const page = await props.read(rows.length);
      setRows((r) => [...r, ...page]);
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => void more(), []);
  const { onOpen } = props;
  return (
    <div className="group-rows" role="rowgroup">
      <div className="grid-head group-cols" role="row">
        {onOpen ? <div className="grid-th group-expand" role="columnheader" aria-label={t('grid.group.openColumn')} /> : null}
        {props.columns.map((c) => (
          <div key={c.cn} className="grid-th" role="columnheader" style={{ width: props.widthOf(c) }}>{c._cn}</div>
        ))}
      </div>
      {rows.map((row, i) => (
        <div
          key={i}
          className={onOpen ? 'group-row openable' : 'group-row'}
          role="row"
          tabIndex={onOpen ? 0 : undefined}
          onDoubleClick={onOpen ? () => onOpen(row) : undefined}
          onKeyDown={onOpen ? (e) => (e.key === 'Enter' || e.key === ' ') && e.target === e.currentTarget && (e.preventDefault(), onOpen(row)) : undefined}
        >
          {onOpen ? (
            <div role="gridcell" className="grid-cell group-expand">
              <button className="expand-btn" aria-label={t('grid.row.expand', { row: String(i + 1) })} onClick={() => onOpen(row)}><Maximize2 size={12} aria-hidden /></button>
            </div>
          ) : null}
          {props.columns.map((c) => (
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
