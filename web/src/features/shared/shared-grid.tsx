/**
 * A shared grid: the view's shown columns (its order, widths and row height), read-only,
 * virtualised over any number of rows (only the pages in view are read). A row opens whole (its
 * expand button, a double click, or Enter / Space on the row) to read values a cell cuts short.
 */
import { useEffect, useMemo, useRef } from 'react';
import { Maximize2 } from 'lucide-react';
import type { SharedViewMeta } from '../../api/shared';
import { useSignals } from '../../stores/signals';
import { CellView } from '../grid/grid-cell';
import { useRowWindow } from '../grid/row-window';
import { PagedRows } from '../views/paged-rows';
import type { Row, RowSource } from '../views/row-source';
import { DEFAULT_WIDTH, ROW_HEIGHTS, rowHeightOf } from '../views/view-state';
import { t } from '../../i18n';
import { SharedGroups } from './shared-groups';

/** The read-only grid of a shared link (grouped when the view is grouped by a column it shows). */
export function SharedGrid(props: { uuid: string; password: string | null; meta: SharedViewMeta; source: RowSource; search: string; onOpen: (row: Row) => void }) {
  const grouped = !!props.meta.query_params.groupBy;
  const widths = new Map((props.meta.query_params.fields ?? []).map((f) => [f.cn, f.width ?? DEFAULT_WIDTH]));
  const widthOf = (c: { cn: string; _cn: string }) => widths.get(c._cn) ?? widths.get(c.cn) ?? DEFAULT_WIDTH;
  return grouped ? <SharedGroups {...props} widthOf={widthOf} /> : <FlatGrid {...props} widthOf={widthOf} />;
}

function FlatGrid(props: { meta: SharedViewMeta; source: RowSource; search: string; widthOf: (c: { cn: string; _cn: string }) => number; onOpen: (row: Row) => void }) {
  useSignals();
  const { meta } = props;
  const rows = useMemo(() => new PagedRows(props.source, { search: props.search || undefined }), [props.source, props.search]);
  useEffect(() => rows.reset(), [rows]);
  const height = ROW_HEIGHTS[rowHeightOf(meta.query_params)];
  const widthOf = props.widthOf;
  const scroller = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const win = useRowWindow(scroller, box, rows.size(), height, 10);
  const items = win.items;
  useEffect(() => {
    if (items.length) void rows.ensure(items[0]!.index, items[items.length - 1]!.index + 1);
  }, [items[0]?.index, items[items.length - 1]?.index, rows.size()]);
  const count = rows.count.value;
  return (
    <>
      <div className="grid-count" data-testid="row-count">{count === null ? t('views.shared.counting') : t('views.shared.rows', { count })}</div>
      {rows.error.value ? <div className="form-message form-message-error">{rows.error.value}</div> : null}
      <div className={`grid shared-grid row-h-${rowHeightOf(meta.query_params)}`} role="grid" aria-rowcount={rows.size()} ref={scroller} tabIndex={0}>
        <div className="grid-head" role="row">
          <div className="grid-index" />
          {meta.columns.map((c) => (
            <div key={c.cn} className="grid-th" role="columnheader" style={{ width: widthOf(c) }}>
              <span className="grid-th-name">{c._cn}</span>
            </div>
          ))}
        </div>
        {count === 0 ? <div className="grid-empty muted">{t('views.shared.noRows')}</div> : null}
        <div ref={box} style={{ height: win.height, position: 'relative' }}>
          {items.map((vr) => {
            const row = rows.rows.value.get(vr.index);
            return (
              <div
                key={vr.index}
                className={row ? 'grid-row openable' : 'grid-row'}
                role="row"
                style={{ transform: `translateY(${vr.start}px)`, height }}
                tabIndex={row ? 0 : undefined}
                onDoubleClick={row ? () => props.onOpen(row) : undefined}
                onKeyDown={row ? (e) => (e.key === 'Enter' || e.key === ' ') && e.target === e.currentTarget && (e.preventDefault(), props.onOpen(row)) : undefined}
              >
                <div className="grid-index">
                  <span className="row-number">{vr.index + 1}</span>
                  {row ? <button className="expand-btn" aria-label={t('grid.row.expand', { row: String(vr.index + 1) })} onClick={() => props.onOpen(row)}><Maximize2 size={12} aria-hidden /></button> : null}
                </div>
                {meta.columns.map((c) => (
                  <div key={c.cn} role="gridcell" className="grid-cell" style={{ width: widthOf(c) }}>
                    {row ? <CellView column={c} value={row[c._cn]} readOnly onToggle={() => {}} onSet={() => {}} /> : <span className="cell-loading" />}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
}
