/**
 * A row as a card (kanban, gallery, calendar details): its display value as the title, an optional
 * cover image, and the chosen fields with their names, drawn by type like the grid's cells.
 */
import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent, type ReactNode } from 'react';
import type { ColumnMeta } from '../../api/dashboard';
import { CellView } from '../grid/grid-cell';
import type { Row } from './row-source';
import { t } from '../../i18n';
import type { Cover } from './cover';
import { serverLink } from '../../api/app-url';
export { coverOf } from './cover';

/**
 * The address a cover loads from: as given, the link its row came with, or the link of a stored file
 * asked for through `link`; and what to do when it does not load. Links to stored files are short-lived
 * (a few minutes): an image loaded lazily, or drawn again, after that fails, so a failed link is asked
 * for once more (again after each one that loaded).
 */
function useCoverSrc(cover: Cover | undefined, link: ((fileId: string) => Promise<string>) | undefined): { src: string | null; onError?: () => void; onLoad?: () => void } {
  const fileId = cover && typeof cover === 'object' ? cover.fileId : null;
  const given = cover && typeof cover === 'object' ? (cover.src ?? null) : null;
  // The link asked for, kept for the file (and the link its row came with) it was asked for.
  const [linked, setLinked] = useState<{ fileId: string; given: string | null; src: string } | null>(null);
  const retried = useRef(false);
  const mounted = useRef(true);
  const linkRef = useRef(link);
  linkRef.current = link;
  const ask = (fileId: string, given: string | null) =>
    linkRef.current?.(fileId).then((src) => mounted.current && setLinked({ fileId, given, src }), () => {});
  useEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);
  useEffect(() => {
    retried.current = false;
    if (fileId && !given) void ask(fileId, given);
  }, [fileId, given]);
  if (typeof cover === 'string') return { src: cover };
  if (!fileId) return { src: null };
  const src = linked?.fileId === fileId && linked.given === given ? linked.src : given;
  const onError = () => {
    if (retried.current || !linkRef.current) return;
    retried.current = true;
    void ask(fileId, given);
  };
  return { src, onError, onLoad: () => void (retried.current = false) };
}

/** The text of a row's title: its display column, else its first shown value. */
export function cardTitle(row: Row, displayColumn: string | null, fields: string[]): string {
  const v = displayColumn ? row[displayColumn] : fields.map((f) => row[f]).find((x) => x !== null && x !== undefined && x !== '');
  return v === null || v === undefined || v === '' ? t('views.card.untitled') : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** One row as a card; `onOpen` opens it (click or Enter). */
export function RecordCard(props: {
  row: Row;
  columns: ColumnMeta[];
  fields: string[];
  displayColumn: string | null;
  cover?: Cover;
  /** The link of a cover uploaded to this server (the dashboard asks for it; shared rows carry theirs). */
  coverLink?: (fileId: string) => Promise<string>;
  coverHeight?: number;
  onOpen?: () => void;
  draggable?: boolean;
  onDragStart?: (e: DragEvent) => void;
  /** Other keys on the focused card (a kanban moves it with Alt+arrows). */
  onKey?: (e: KeyboardEvent) => void;
  /** Takes the keyboard focus when shown (a card the keyboard just moved to another lane). */
  focusOnMount?: boolean;
  className?: string;
  children?: ReactNode;
}) {
  const byName = new Map(props.columns.map((c) => [c._cn, c]));
  const title = cardTitle(props.row, props.displayColumn, props.fields);
  const coverImage = useCoverSrc(props.cover, props.coverLink);
  const self = useRef<HTMLElement>(null);
  useEffect(() => {
    if (props.focusOnMount) self.current?.focus();
  }, []);
  return (
    <article
      ref={self}
      className={`record-card${props.className ? ` ${props.className}` : ''}`}
      aria-label={title}
      draggable={props.draggable}
      onDragStart={props.onDragStart}
      onClick={props.onOpen}
      tabIndex={props.onOpen || props.onKey ? 0 : undefined}
      onKeyDown={(e) => (e.key === 'Enter' ? props.onOpen?.() : props.onKey?.(e))}
    >
      {props.cover !== undefined ? (
        <div className="card-cover" style={{ height: props.coverHeight ?? 140 }}>
          {coverImage.src ? (
            <img src={serverLink(coverImage.src)} alt="" loading="lazy" onError={coverImage.onError} onLoad={coverImage.onLoad} />
          ) : props.cover ? null : (
            <span className="muted">{t('views.card.noImage')}</span>
          )}
        </div>
      ) : null}
      <div className="card-title">{title}</div>
      <dl className="card-fields">
        {props.fields
          .filter((f) => f !== props.displayColumn && byName.has(f))
          .map((f) => (
            <div key={f} className="card-field">
              <dt>{f}</dt>
              <dd>
                {props.row[f] === null || props.row[f] === undefined || props.row[f] === '' ? (
                  <span className="muted">–</span>
                ) : (
                  <CellView column={byName.get(f)!} value={props.row[f]} readOnly onToggle={() => {}} onSet={() => {}} />
                )}
              </dd>
            </div>
          ))}
      </dl>
      {props.children}
    </article>
  );
}
