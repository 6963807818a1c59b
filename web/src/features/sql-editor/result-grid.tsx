/**
 * A statement's rows in a virtualised grid (@tanstack/react-virtual): only the rows in view (plus a
 * few) are in the DOM, so 100,000 rows scroll as smoothly as ten. Column headers show the type the
 * database reported; NULL is shown as such. Each column is as wide as its longest value in all the
 * rows (up to a maximum; a longer value is shown whole on hover).
 */
import { useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { RawColumn } from '../../api/sql-client';
import { cellText, columnWidths } from './column-widths';

const ROW_HEIGHT = 28;
const INDEX_WIDTH = 56;

export function ResultGrid(props: { columns: RawColumn[]; rows: unknown[][]; label: string }) {
  const scroller = useRef<HTMLDivElement>(null);
  const widths = useMemo(() => columnWidths(props.columns, props.rows), [props.columns, props.rows]);
  const template = `${INDEX_WIDTH}px ${widths.map((w) => `${w}px`).join(' ')}`;
  const total = INDEX_WIDTH + widths.reduce((a, b) => a + b, 0);
  const rows = useVirtualizer({ count: props.rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = rows.getVirtualItems();
  return (
    <div className="sqlr-grid" ref={scroller} role="grid" aria-label={props.label} aria-rowcount={props.rows.length + 1}>
      <div className="sqlr-head" role="row" style={{ gridTemplateColumns: template, width: total }}>
        <div className="sqlr-index" role="columnheader">#</div>
        {props.columns.map((c, i) => (
          <div key={i} className="sqlr-th" role="columnheader" title={`${c.name} (${c.type})`}>
            <span className="sqlr-th-name">{c.name}</span>
            <span className="sqlr-th-type">{c.type}</span>
          </div>
        ))}
      </div>
      <div style={{ height: rows.getTotalSize(), width: total, position: 'relative' }}>
        {items.map((v) => {
          const row = props.rows[v.index]!;
          return (
            <div key={v.key} className="sqlr-row" role="row" aria-rowindex={v.index + 2} style={{ gridTemplateColumns: template, transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}>
              <div className="sqlr-index" role="rowheader">{v.index + 1}</div>
              {props.columns.map((_, i) => {
                const value = row[i];
                const text = cellText(value);
                return (
                  <div key={i} className="sqlr-td" role="gridcell" title={text}>
                    {value === null || value === undefined ? <span className="sqlr-null">{text}</span> : text}
                  </div>
                );
              })}
            </div>
          );
        })}
      </div>
    </div>
  );
}
