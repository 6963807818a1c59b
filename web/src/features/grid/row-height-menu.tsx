/** The grid's row height: short, medium or tall (kept in the view). */
import type { RowHeight } from '../../api/views';
import type { GridStore } from './grid-store';

const HEIGHTS: RowHeight[] = ['short', 'medium', 'tall'];

/** The row height picker of the grid's toolbar. */
export function RowHeightMenu(props: { store: GridStore }) {
  return (
    <label className="toolbar-select">
      <span className="muted">Row height</span>
      <select aria-label="Row height" value={props.store.rowHeight.value} onChange={(e) => props.store.setRowHeight(e.target.value as RowHeight)}>
        {HEIGHTS.map((h) => (
          <option key={h} value={h}>{h[0]!.toUpperCase() + h.slice(1)}</option>
        ))}
      </select>
    </label>
  );
}
