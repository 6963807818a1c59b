/**
 * The kanban board: lanes side by side (reorder them by dragging their header or with ← →,
 * collapse them), cards dragged between lanes update the row's lane column. Used by the dashboard
 * (writes through the REST API) and by shared links (read-only).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { ChevronLeft, ChevronRight, Minimize2, Maximize2 } from 'lucide-react';
import type { ColumnMeta } from '../../api/dashboard';
import type { QueryParams } from '../../api/views';
import { useSignals } from '../../stores/signals';
import { track } from '../../stores/notifications';
import { RecordCard, coverOf } from '../views/record-card';
import { canChange, type Row, type RowSource } from '../views/row-source';
import { moveItem } from '../views/view-state';
import { choicesOf } from '../views/view-kinds';
import { KanbanStore, UNCATEGORIZED, type LaneState } from './kanban-store';
import { laneOrder } from './lane-order';
import { IconButton } from '../views/icon-button';
import { t } from '../../i18n';

const CARD_TYPE = 'application/x-tablo-card';
const LANE_TYPE = 'application/x-tablo-lane';


/** The lanes of one kanban over a row source; `onChange` saves lane order and collapsed lanes. */
export function KanbanBoard(props: {
  source: RowSource;
  columns: ColumnMeta[];
  column: ColumnMeta;
  displayColumn: string | null;
  qp: QueryParams;
  fields: string[];
  search: string;
  /** Saves lane order and collapsed lanes (absent on a shared link: kept on screen only). */
  onChange?: (patch: Partial<QueryParams>) => void;
  onOpen?: (row: Row, lane: string, store: KanbanStore) => void;
}) {
  useSignals();
  const { column, qp } = props;
  const choices = choicesOf(column);
  const titles = choices.map((c) => c.title);
  const store = useMemo(
    () => new KanbanStore(props.source, column._cn, titles, { where: qp.where ?? '', sort: qp.sort ?? '', search: props.search }),
    [props.source, column._cn, titles.join('\u0000'), qp.where, qp.sort, props.search],
  );
  useEffect(() => store.reset(), [store]);
  const [order, setOrder] = useState(() => laneOrder(titles, qp.laneOrder));
  const [collapsed, setCollapsed] = useState<string[]>(qp.collapsedLanes ?? []);
  // The view's lane order and collapsed lanes, also when saved elsewhere (another tab or person, a
  // new lane column): a board kept its first ones and saved a later move over theirs.
  // As JSON: joined, [''] (Uncategorized) and [] read the same.
  const savedOrder = JSON.stringify(qp.laneOrder ?? []);
  const savedCollapsed = JSON.stringify(qp.collapsedLanes ?? []);
  useEffect(() => setOrder(laneOrder(titles, qp.laneOrder)), [titles.join('\u0000'), savedOrder]);
  useEffect(() => setCollapsed(qp.collapsedLanes ?? []), [savedCollapsed]);
  const saveOrder = (next: string[]) => (setOrder(next), props.onChange?.({ laneOrder: next }));
  const toggle = (key: string) => {
    const next = collapsed.includes(key) ? collapsed.filter((k) => k !== key) : [...collapsed, key];
    setCollapsed(next);
    props.onChange?.({ collapsedLanes: next });
  };
  const [dragLane, setDragLane] = useState<string | null>(null);
  const colour = (key: string) => choices.find((c) => c.title === key)?.color ?? '#cbd5e1';
  const writable = canChange(props.source, column._cn);
  // The card the keyboard moved: it keeps the focus in its new lane.
  const movedByKey = useRef<string | null>(null);
  // Cleared after each commit, once the card (mounted in its new lane) took the focus.
  useEffect(() => {
    movedByKey.current = null;
  });
  return (
    <div className="kanban" role="list" aria-label={t('views.kanban.lanesBy', { column: column._cn })}>
      {order.map((key, i) => {
        const lane = store.lane(key);
        const name = key === UNCATEGORIZED ? t('views.kanban.uncategorized') : key;
        const isCollapsed = collapsed.includes(key);
        const testId = `lane-count-${key === UNCATEGORIZED ? 'Uncategorized' : key}`; // i18n-ignore
        return (
          <div
            key={key || '\u0000'}
            role="listitem"
            aria-label={t('views.kanban.lane', { name })}
            className={`kanban-lane${isCollapsed ? ' collapsed' : ''}`}
            onDragOver={(e) => {
              if (e.dataTransfer.types.includes(CARD_TYPE) || e.dataTransfer.types.includes(LANE_TYPE)) e.preventDefault();
            }}
            onDrop={(e) => {
              const card = e.dataTransfer.getData(CARD_TYPE);
              if (card) {
                e.preventDefault();
                const { id, lane: from } = JSON.parse(card) as { id: string; lane: string };
                if (from !== key) void track(t('views.kanban.moveCard', { lane: name }), store.move(id, from, key)).catch(() => {});
              } else if (dragLane !== null) {
                e.preventDefault();
                saveOrder(moveItem(order, order.indexOf(dragLane), i));
                setDragLane(null);
              }
            }}
          >
            <header
              className="lane-head"
              draggable
              onDragStart={(e) => (setDragLane(key), e.dataTransfer.setData(LANE_TYPE, key))}
              onDragEnd={() => setDragLane(null)}
            >
              <span className="lane-dot" style={{ background: colour(key) }} />
              <span className="lane-name" title={name}>{name}</span>
              <span className="lane-count" data-testid={testId} aria-hidden={lane.total !== null}>
                {lane.total ?? '…'}
              </span>
              {lane.total !== null ? <span className="views-sr-only">{t('views.kanban.cards', { count: lane.total })}</span> : null}
              <span className="lane-tools">
                {!isCollapsed ? (
                  <>
                    <IconButton label={t('views.kanban.moveLeft', { name })} isDisabled={i === 0} onPress={() => saveOrder(moveItem(order, i, i - 1))}>
                      <ChevronLeft size={14} />
                    </IconButton>
                    <IconButton label={t('views.kanban.moveRight', { name })} isDisabled={i === order.length - 1} onPress={() => saveOrder(moveItem(order, i, i + 1))}>
                      <ChevronRight size={14} />
                    </IconButton>
                  </>
                ) : null}
                <IconButton label={isCollapsed ? t('views.kanban.expand', { name }) : t('views.kanban.collapse', { name })} expanded={!isCollapsed} onPress={() => toggle(key)}>
                  {isCollapsed ? <Maximize2 size={13} /> : <Minimize2 size={13} />}
                </IconButton>
              </span>
            </header>
            {isCollapsed ? null : (
              <LaneCards
                {...props}
                store={store}
                laneKey={key}
                lane={lane}
                writable={writable}
                // Alt+← / Alt+→ on a card moves it to the lane beside (the keyboard's drag).
                movedByKey={movedByKey}
                onMoveBy={(id, by) => {
                  const to = order[i + by];
                  if (to !== undefined && !collapsed.includes(to)) movedByKey.current = id;
                  if (to !== undefined) void track(t('views.kanban.moveCard', { lane: to === UNCATEGORIZED ? t('views.kanban.uncategorized') : to }), store.move(id, key, to)).catch(() => {});
                }}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}

function LaneCards(props: { store: KanbanStore; laneKey: string; lane: LaneState; writable: boolean; onMoveBy: (id: string, by: -1 | 1) => void; movedByKey: { current: string | null }; columns: ColumnMeta[]; fields: string[]; displayColumn: string | null; qp: QueryParams; source: RowSource; onOpen?: (row: Row, lane: string, store: KanbanStore) => void }) {
  const { store, laneKey, lane } = props;
  const box = useRef<HTMLDivElement>(null);
  const end = useRef<HTMLDivElement>(null);
  // The next page is read when the end of the lane scrolls into view.
  useEffect(() => {
    if (!end.current || !box.current) return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void store.loadMore(laneKey), { root: box.current, rootMargin: '200px' });
    io.observe(end.current);
    return () => io.disconnect();
  }, [store, laneKey, lane.rows.length, lane.done]);
  const cover = props.qp.coverColumn;
  return (
    <div className="lane-cards" ref={box}>
      {lane.rows.map((row) => {
        const id = props.source.idOf(row);
        return (
          <RecordCard
            key={id}
            row={row}
            columns={props.columns}
            fields={props.fields}
            displayColumn={props.displayColumn}
            cover={cover ? coverOf(row[cover]) : undefined}
            coverLink={cover && props.source.fileLink ? (fileId) => props.source.fileLink!(row, cover, fileId) : undefined}
            coverHeight={110}
            focusOnMount={props.movedByKey.current === id}
            draggable={props.writable}
            onDragStart={(e) => e.dataTransfer.setData(CARD_TYPE, JSON.stringify({ id, lane: laneKey }))}
            onKey={
              props.writable
                ? (e) => {
                    if (e.altKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
                      e.preventDefault();
                      props.onMoveBy(id, e.key === 'ArrowLeft' ? -1 : 1);
                    }
                  }
                : undefined
            }
            onOpen={props.onOpen ? () => props.onOpen!(row, laneKey, store) : undefined}
          />
        );
      })}
      {lane.error ? <div className="form-message form-message-error">{lane.error}</div> : null}
      {!lane.loading && lane.done && lane.rows.length === 0 ? <div className="lane-empty muted">{t('views.kanban.empty')}</div> : null}
      <div ref={end} className="lane-end">{lane.loading ? <span className="muted">{t('views.calendar.loading')}</span> : null}</div>
    </div>
  );
}
