/** Show / hide and order the fields of the grid (drag a field, or its ↑ ↓ buttons); kept in the view. */
import { useRef, useState } from 'react';
import { useDismiss } from '../../components/use-dismiss';
import { GripVertical } from 'lucide-react';
import type { ColumnMeta } from '../../api/dashboard';
import { Button } from '../../components/form';
import type { GridStore } from './grid-store';
import { moveItem } from '../views/view-state';

export function FieldsMenu(props: { store: GridStore; columns: ColumnMeta[] }) {
  const [open, setOpen] = useState(false);
  const [dragging, setDragging] = useState<number | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useDismiss(box, open, () => setOpen(false));
  const hidden = props.store.hidden.value;
  const names = props.columns.map((c) => c._cn);
  const move = (from: number, to: number) => props.store.setOrder(moveItem(names, from, to));
  return (
    <div className="menu fields-menu" ref={box}>
      <Button variant="secondary" onClick={() => setOpen(!open)}>Fields{hidden.length ? ` (${hidden.length} hidden)` : ''}</Button>
      {open ? (
        <div className="menu-list" role="menu" aria-label="Show or hide fields">
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
                <button type="button" aria-label={`Move ${c._cn} up`} disabled={i === 0} onClick={() => move(i, i - 1)}>↑</button>
                <button type="button" aria-label={`Move ${c._cn} down`} disabled={i === names.length - 1} onClick={() => move(i, i + 1)}>↓</button>
              </span>
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}
