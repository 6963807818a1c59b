/** Which fields a card (gallery, kanban, calendar) shows, in which order: drag them or use ↑ ↓. */
import { useState } from 'react';
import { Button as AriaButton, Dialog, DialogTrigger, Popover } from 'react-aria-components';
import { GripVertical } from 'lucide-react';
import { moveItem, type LaidOutField } from './view-state';
import { t } from '../../i18n';
import './views-aria.css';

/** The popover of card fields: tick to show, drag or ↑ ↓ to order (Esc or a click outside closes it). */
export function ViewFieldsMenu(props: { fields: LaidOutField[]; onChange: (fields: LaidOutField[]) => void; label?: string }) {
  const [dragging, setDragging] = useState<number | null>(null);
  const { fields } = props;
  const shown = fields.filter((f) => f.show).length;
  return (
    <div className="menu fields-menu">
      <DialogTrigger>
        <AriaButton className="btn btn-secondary">{t('views.fields.button', { label: props.label ?? t('views.fields.fields'), count: shown })}</AriaButton>
        <Popover placement="bottom end" className="views-popover fields-menu-popover">
          <Dialog className="menu-list" aria-label={t('views.fields.label')}>
            {fields.map((f, i) => (
              <div
                key={f.name}
                data-testid={`field-${f.name}`}
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
                  <button type="button" aria-label={t('views.fields.moveUp', { name: f.name })} disabled={i === 0} onClick={() => props.onChange(moveItem(fields, i, i - 1))}>↑</button>
                  <button type="button" aria-label={t('views.fields.moveDown', { name: f.name })} disabled={i === fields.length - 1} onClick={() => props.onChange(moveItem(fields, i, i + 1))}>↓</button>
                </span>
              </div>
            ))}
          </Dialog>
        </Popover>
      </DialogTrigger>
    </div>
  );
}
