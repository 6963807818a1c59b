/**
 * The editor of a MultiSelect cell: its choices as checkboxes in a box under the cell (on the page's
 * body, so the grid's scrolling does not clip it); Enter or Save keeps the ticked ones, Esc leaves them.
 */
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { ColumnMeta } from '../../api/dashboard';
import { chosen } from './cell-format';
import { t } from '../../i18n';

/** onSave gets the ticked choices in the column's order (null when none and the column allows it). */
export function MultiSelectEditor(props: { column: ColumnMeta; value: unknown; onSave: (v: unknown) => void; onCancel: () => void; onBlur: () => void }) {
  const c = props.column;
  const choices = c.meta?.options ?? (c.enumValues ?? []).map((title) => ({ title, color: '#eeeeee' }));
  const [picked, setPicked] = useState(() => new Set(chosen(c, props.value).map((o) => o.title)));
  const anchor = useRef<HTMLSpanElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [at, setAt] = useState<{ top: number; left: number } | null>(null);
  useEffect(() => {
    const r = anchor.current?.parentElement?.getBoundingClientRect();
    if (r) setAt({ top: r.bottom, left: r.left });
    box.current?.querySelector('input')?.focus();
  }, []);
  const save = () => {
    const list = choices.map((o) => o.title).filter((title) => picked.has(title));
    props.onSave(list.length ? list : c.nullable ? null : []);
  };
  const toggle = (title: string) => {
    const next = new Set(picked);
    if (next.has(title)) next.delete(title);
    else next.add(title);
    setPicked(next);
  };
  return (
    <span ref={anchor} className="cell-chips">
      {choices
        .filter((o) => picked.has(o.title))
        .map((o) => (
          <span key={o.title} className="chip" style={{ background: o.color }}>
            {o.title}
          </span>
        ))}
      {createPortal(
        <div
          ref={box}
          className="multi-select-pop"
          role="group"
          aria-label={t('grid.cell.edit', { column: c._cn })}
          style={at ? { top: at.top, left: at.left } : { visibility: 'hidden' }}
          onKeyDown={(e) => {
            e.stopPropagation();
            if (e.key === 'Escape') props.onCancel();
            if (e.key === 'Enter') {
              e.preventDefault();
              save();
            }
          }}
          onBlur={(e) => {
            if (!box.current?.contains(e.relatedTarget as Node | null)) props.onBlur();
          }}
        >
          {choices.map((o) => (
            <label key={o.title} className="check">
              <input type="checkbox" checked={picked.has(o.title)} onChange={() => toggle(o.title)} />
              <span className="chip" style={{ background: o.color }}>
                {o.title}
              </span>
            </label>
          ))}
          <button type="button" className="btn btn-primary" onClick={save}>
            {t('grid.cell.save')}
          </button>
        </div>,
        document.body,
      )}
    </span>
  );
}
