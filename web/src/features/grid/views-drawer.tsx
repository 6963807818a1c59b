/** The views drawer of a table: its Grid view; the other view types come with their own feature. */
import { useState } from 'react';
import { Button } from '../../components/form';

const LATER = ['Gallery', 'Kanban', 'Calendar', 'Form'];

export function ViewsDrawer() {
  const [open, setOpen] = useState(false);
  return (
    <div className="menu">
      <Button variant="secondary" onClick={() => setOpen(!open)}>Views</Button>
      {open ? (
        <div className="menu-list views-drawer" role="menu" aria-label="Views">
          <div className="menu-item active-view" role="menuitemradio" aria-checked="true">▦ Grid <span className="muted">(default)</span></div>
          <div className="menu-item muted">Create a view</div>
          {LATER.map((v) => (
            <div key={v} className="menu-item muted" role="menuitem" aria-disabled="true" title="Not available in this version of Tablo yet">
              {v} <span className="grid-type">not available yet</span>
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}
