/**
 * Show / hide and order the fields of the grid (drag a field, or its ↑ ↓ buttons); kept in the view.
 * A react-aria popover dialog under the Fields button that stays open while fields are ticked: Esc,
 * the button again or a click elsewhere closes it.
 */
import { useEffect, useRef, useState } from 'react';
import { Button as AriaButton, Dialog, DialogTrigger, Popover } from 'react-aria-components';
import { GripVertical } from 'lucide-react';
import type { ColumnMeta } from '../../api/dashboard';
import type { GridStore } from './grid-store';
import { moveItem } from '../views/view-state';
import { t } from '../../i18n';

export function FieldsMenu(props: { store: GridStore; columns: ColumnMeta[] }) {
  const [open, setOpen] = useState(false);
  const [dragging, setDragging] = useState<number | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const pop = useRef<HTMLElement>(null);
  const hidden = props.store.hidden.value;
  const names = props.columns.map((c) => c._cn);
  const move = (from: number, to: number) => props.store.setOrder(moveItem(names, from, to));
  // Non-modal (the grid stays usable while fields are ticked), so a press elsewhere closes it here.
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      const at = e.target as Node;
      if (!trigger.current?.contains(at) && !pop.current?.contains(at)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);
  return (
    <div className="menu fields-menu">
      <DialogTrigger isOpen={open} onOpenChange={setOpen}>
        <AriaButton ref={trigger} className="btn btn-secondary">
          {hidden.length ? t('grid.fields.buttonHidden', { count: hidden.length }) : t('grid.fields.button')}
        </AriaButton>
        <Popover ref={pop} className="grid-menu-popover" placement="bottom end" isNonModal shouldCloseOnInteractOutside={(el) => !trigger.current?.contains(el)}>
          <Dialog className="menu-list fields-list" aria-label={t('grid.fields.label')}>
            {props.columns.map((c, i) => (
              <div
                key={c.cn}
                className={`menu-item check field-row${dragging === i ? ' dragging' : ''}`}
                draggable
                data-testid={`field-${c._cn}`}
                onDragStart={(e) => {
                  setDragging(i);
                  e.dataTransfer.effectAllowed = 'move';
                  e.dataTransfer.setData('text/plain', c._cn);
                }}
                onDragOver={(e) => e.preventDefault()}
                onDrop={(e) => {
                  e.preventDefault();
                  const from = dragging ?? names.indexOf(e.dataTransfer.getData('text/plain'));
                  if (from >= 0) move(from, i);
                  setDragging(null);
                }}
                onDragEnd={() => setDragging(null)}
              >
                <GripVertical size={14} className="drag-handle" aria-hidden />
                <label>
                  <input type="checkbox" checked={!hidden.includes(c._cn)} onChange={() => props.store.toggleField(c._cn)} /> {c._cn}
                </label>
                <span className="field-moves">
                  <button type="button" aria-label={t('grid.fields.moveUp', { column: c._cn })} disabled={i === 0} onClick={() => move(i, i - 1)}>↑</button>
                  <button type="button" aria-label={t('grid.fields.moveDown', { column: c._cn })} disabled={i === names.length - 1} onClick={() => move(i, i + 1)}>↓</button>
                </span>
              </div>
            ))}
          </Dialog>
        </Popover>
      </DialogTrigger>
    </div>
  );
}
