/**
 * The gallery: cards in rows as wide as the view allows, virtualised (only the card rows in view
 * are drawn and only their pages read), each with its cover image from an Attachment column and
 * the chosen fields. Used by the dashboard and by shared links.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ColumnMeta } from '../../api/dashboard';
import { useSignals } from '../../stores/signals';
import { RecordCard, coverOf } from '../views/record-card';
import type { Row, RowSource } from '../views/row-source';
import { PagedRows } from '../views/paged-rows';
import { t } from '../../i18n';

/** Narrowest card and the gap in px: a row holds as many cards as fit, stretched to fill it; a card's height grows with its fields. */
export const CARD_WIDTH = 240;
const GAP = 14;
const COVER = 150;
const FIELD_HEIGHT = 34;

/** Cards per row for a width. */
export const cardsPerRow = (width: number) => Math.max(1, Math.floor((width + GAP) / (CARD_WIDTH + GAP)));

/** The cards of one view over a row source. */
export function GalleryBoard(props: { source: RowSource; columns: ColumnMeta[]; displayColumn: string | null; coverColumn?: string; fields: string[]; where: string; sort: string; search: string; onOpen?: (row: Row, index: number, rows: PagedRows) => void }) {
  useSignals();
  const rows = useMemo(() => new PagedRows(props.source, { where: props.where || undefined, sort: props.sort || undefined, search: props.search || undefined }), [props.source, props.where, props.sort, props.search]);
  useEffect(() => rows.reset(), [rows]);
  const scroller = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(1000);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth - 24));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const perRow = cardsPerRow(width);
  const shownFields = props.fields.filter((f) => f !== props.displayColumn);
  const cardHeight = (props.coverColumn ? COVER : 0) + 40 + shownFields.length * FIELD_HEIGHT + 8;
  const total = rows.size();
  const virt = useVirtualizer({ count: Math.ceil(total / perRow), getScrollElement: () => scroller.current, estimateSize: () => cardHeight + GAP, overscan: 2 });
  useEffect(() => virt.measure(), [cardHeight, perRow]);
  const items = virt.getVirtualItems();
  useEffect(() => {
    if (items.length) void rows.ensure(items[0]!.index * perRow, (items[items.length - 1]!.index + 1) * perRow);
  }, [items[0]?.index, items[items.length - 1]?.index, perRow, total]);
  return (
    <div className="gallery" ref={scroller} role="list" aria-label={t('views.kind.gallery')}>
      {rows.error.value ? <div className="form-message form-message-error">{rows.error.value}</div> : null}
      {rows.count.value === 0 ? <div className="grid-empty muted">{t('views.gallery.empty')}</div> : null}
      <div style={{ height: virt.getTotalSize(), position: 'relative' }}>
        {items.map((vr) => (
          <div key={vr.index} className="gallery-row" style={{ transform: `translateY(${vr.start}px)`, gridTemplateColumns: `repeat(${perRow}, minmax(0, 1fr))` }}>
            {Array.from({ length: perRow }, (_, i) => {
              const index = vr.index * perRow + i;
              if (index >= total) return null;
              const row = rows.rows.value.get(index);
              if (!row) return <div key={i} className="record-card loading" style={{ height: cardHeight }} />;
              return (
                <div key={i} role="listitem" aria-setsize={total} aria-posinset={index + 1} style={{ height: cardHeight }}>
                  <RecordCard
                    row={row}
                    columns={props.columns}
                    fields={props.fields}
                    displayColumn={props.displayColumn}
                    cover={props.coverColumn ? coverOf(row[props.coverColumn]) : undefined}
                    coverLink={props.coverColumn && props.source.fileLink ? (fileId) => props.source.fileLink!(row, props.coverColumn!, fileId) : undefined}
                    coverHeight={COVER}
                    onOpen={props.onOpen ? () => props.onOpen!(row, index, rows) : undefined}
                  />
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
