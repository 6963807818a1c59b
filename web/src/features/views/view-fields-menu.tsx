/** Which fields a card (gallery, kanban, calendar) shows, in which order: drag them or use ↑ ↓. */
import { useState } from 'react';
import { GripVertical } from 'lucide-react';
import { Button } from '../../components/form';
import { moveItem, type LaidOutField } from './view-state';

/** The menu of card fields: tick to show, drag or ↑ ↓ to order. */
export function ViewFieldsMenu(props: { fields: LaidOutField[]; onChange: (fields: LaidOutField[]) => void; label?: string }) {
  const [open, setOpen] = useState(false);
  const [dragging, setDragging] = useState<number | null>(null);
  const { fields } = props;
  const shown = fields.filter((f) => f.show).length;
  return (
    <div className="menu fields-menu">
      <Button variant="secondary" onClick={() => setOpen(!open)}>{props.label ?? 'Fields'} ({shown} shown)</Button>
      {open ? (
        <div className="menu-list" role="menu" aria-label="Show or hide fields">
          {fields.map((f, i) => (
            <div
              key={f.name}
              className={`menu-item check field-row${dragging === i ? ' dragging' : ''}`}
              draggable
              onDragStart={(e) => (setDragging(i), e.dataTransfer.setData('text/plain', f.name))}
              onDragOver={(e) => e.preventDefault()}
              onDrop={(e) => {
                e.preventDefault();
                if (dragging !== null) props.onChange(moveItem(fields, dragging, i));
                setDragging(null);
              }}
              onDragEnd={() => setDragging(null)}
            >
              <GripVertical size={14} className="drag-handle" aria-hidden />
              <label>
                <input type="checkbox" checked={f.show} onChange={() => props.onChange(fields.map((x, j) => (j === i ? { ...x, show: !x.show } : x)))} /> {f.name}
              </label>
              <span className="field-moves">
                <button type="button" aria-label={`Move ${f.name} up`} disabled={i === 0} onClick={() => props.onChange(moveItem(fields, i, i - 1))}>↑</button>
                <button type="button" aria-label={`Move ${f.name} down`} disabled={i === fields.length - 1} onClick={() => props.onChange(moveItem(fields, i, i + 1))}>↓</button>
              </span>
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}
