/**
 * The editor of a MultiSelect cell: its choices in a react-aria list box (several may be chosen) in
 * a box under the cell (on the page's body, so the grid's scrolling does not clip it). Arrows move,
 * Space or a click ticks a choice, Enter or Save keeps the ticked ones, Esc leaves them.
 */
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { ListBox, ListBoxItem, type Selection } from 'react-aria-components';
import type { ColumnMeta } from '../../api/dashboard';
import { chosen } from './cell-format';
import { t } from '../../i18n';

/** onSave gets the ticked choices in the column's order (null when none and the column allows it). */
export function MultiSelectEditor(props: { column: ColumnMeta; value: unknown; onSave: (v: unknown) => void; onCancel: () => void; onBlur: () => void }) {
  const c = props.column;
  const choices = c.meta?.options ?? (c.enumValues ?? []).map((title) => ({ title, color: '#eeeeee' }));
  const [picked, setPicked] = useState<Set<string>>(() => new Set(chosen(c, props.value).map((o) => o.title)));
  const anchor = useRef<HTMLSpanElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [at, setAt] = useState<{ top: number; left: number } | null>(null);
  useEffect(() => {
    const r = anchor.current?.parentElement?.getBoundingClientRect();
    if (r) setAt({ top: r.bottom, left: r.left });
  }, []);
  const save = () => {
    const list = choices.map((o) => o.title).filter((title) => picked.has(title));
    props.onSave(list.length ? list : c.nullable ? null : []);
  };
  const select = (keys: Selection) => setPicked(keys === 'all' ? new Set(choices.map((o) => o.title)) : new Set([...keys].map(String)));
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
          // Enter keeps and Esc leaves, before the list box sees them (its Enter would tick).
          onKeyDownCapture={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              props.onCancel();
            } else if (e.key === 'Enter') {
              e.preventDefault();
              e.stopPropagation();
              save();
            }
          }}
          onKeyDown={(e) => e.stopPropagation()}
          onBlur={(e) => {
            if (!box.current?.contains(e.relatedTarget as Node | null)) props.onBlur();
          }}
        >
          <ListBox
            className="multi-select-list"
            aria-label={t('grid.cell.choices', { column: c._cn })}
            selectionMode="multiple"
            escapeKeyBehavior="none"
            selectedKeys={picked}
            onSelectionChange={select}
            autoFocus="first"
          >
            {choices.map((o) => (
              <ListBoxItem key={o.title} id={o.title} textValue={o.title} className="multi-select-option">
                {({ isSelected }) => (
                  <>
                    <span className={`multi-select-tick${isSelected ? ' on' : ''}`} aria-hidden>{isSelected ? '✓' : ''}</span>
                    <span className="chip" style={{ background: o.color }}>
                      {o.title}
                    </span>
                  </>
                )}
              </ListBoxItem>
            ))}
          </ListBox>
          <button type="button" className="btn btn-primary" onClick={save}>
            {t('grid.cell.save')}
          </button>
        </div>,
        document.body,
      )}
    </span>
  );
}
