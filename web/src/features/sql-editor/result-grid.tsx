/**
 * A statement's rows in a virtualised grid (@tanstack/react-virtual): only the rows in view (plus a
 * few) are in the DOM, so 100,000 rows scroll as smoothly as ten. Column headers show the type the
 * database reported; NULL is shown as such.
 */
import { useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { RawColumn } from '../../api/sql-client';

const ROW_HEIGHT = 28;
/** SQL's NULL, shown as the keyword (never translated). */
const SQL_NULL = 'NULL';
const INDEX_WIDTH = 56;

const show = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

/** Column widths from the header and the first rows' values, in px. */
function widthsOf(columns: RawColumn[], rows: unknown[][]): number[] {
  return columns.map((c, i) => {
    let chars = Math.max(c.name.length, c.type.length * 0.8);
    for (let r = 0; r < Math.min(rows.length, 50); r++) chars = Math.max(chars, Math.min(60, show(rows[r]![i] ?? 'NULL').length));
    return Math.round(Math.min(360, Math.max(80, chars * 7.5 + 24)));
  });
}

export function ResultGrid(props: { columns: RawColumn[]; rows: unknown[][]; label: string }) {
  const scroller = useRef<HTMLDivElement>(null);
  const widths = useMemo(() => widthsOf(props.columns, props.rows), [props.columns, props.rows]);
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
                const text = value === null || value === undefined ? SQL_NULL : show(value);
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
