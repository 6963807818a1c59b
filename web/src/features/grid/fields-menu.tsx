/** Show / hide fields of the grid (kept per table). */
import { useState } from 'react';
import type { ColumnMeta } from '../../api/dashboard';
import { Button } from '../../components/form';
import type { GridStore } from './grid-store';

export function FieldsMenu(props: { store: GridStore; columns: ColumnMeta[] }) {
  const [open, setOpen] = useState(false);
  const hidden = props.store.hidden.value;
  return (
    <div className="menu fields-menu">
      <Button variant="secondary" onClick={() => setOpen(!open)}>Fields{hidden.length ? ` (${hidden.length} hidden)` : ''}</Button>
      {open ? (
        <div className="menu-list" role="menu" aria-label="Show or hide fields">
          {props.columns.map((c) => (
            <label key={c.cn} className="menu-item check">
              <input type="checkbox" checked={!hidden.includes(c._cn)} onChange={() => props.store.toggleField(c._cn)} /> {c._cn}
            </label>
          ))}
        </div>
      ) : null}
    </div>
  );
}
