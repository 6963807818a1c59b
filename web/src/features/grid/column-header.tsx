/**
 * A column header of the grid: name and type, the resize handle, and the column menu (▾ button or
 * right click) with the column commands of the registry: edit, rename, insert left/right, sort, delete.
 */
import { useState } from 'react';
import { ChevronDown } from 'lucide-react';
import type { ColumnMeta } from '../../api/dashboard';
import { COLUMN_COMMANDS, type ColumnTarget } from '../../actions/registry';
import { PopupMenu } from '../../components/popup-menu';
import { TypeIcon, typeLabel } from './type-icon';


/** Sort commands only, for people who may not change the schema. */
const SORT_ONLY = new Set(['column.sortAsc', 'column.sortDesc']);

/** The drag data of a column header being moved. */
const COLUMN_TYPE = 'application/x-tablo-column';

/** One column header (frozen at `stickyLeft` when given); people who may not change the schema get the sort entries only. */
export function ColumnHeader(props: { column: ColumnMeta; width: number; stickyLeft?: number; target: ColumnTarget; canEditSchema: boolean; onResize: (px: number) => void; onMoveHere?: (from: string) => void }) {
  const { column: c, target } = props;
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const problem = target.virtual ? (target.virtual.error ?? target.virtual.formula?.error) : undefined;
  const entries = COLUMN_COMMANDS.filter((cmd) => (props.canEditSchema || SORT_ONLY.has(cmd.id)) && (!cmd.when || cmd.when(target)));
  return (
    <div
      className={`grid-th${props.stickyLeft !== undefined ? ' frozen' : ''}`}
      role="columnheader"
      style={{ width: props.width, left: props.stickyLeft }}
      title={target.virtual ? `${typeLabel(target.virtual.uidt)}${problem ? ` · ${problem}` : ''}` : `${typeLabel(c.uidt)} · ${c.dt}${c.pk ? ' · primary key' : ''}`}
      onDragOver={(e) => props.onMoveHere && e.dataTransfer.types.includes(COLUMN_TYPE) && e.preventDefault()}
      onDrop={(e) => {
        const from = e.dataTransfer.getData(COLUMN_TYPE);
        if (from && from !== c._cn) {
          e.preventDefault();
          props.onMoveHere?.(from);
        }
      }}
      onContextMenu={(e) => {
        e.preventDefault();
        setMenuAt({ x: e.clientX, y: e.clientY });
      }}
    >
      <TypeIcon uidt={c.uidt} />
      <span
        className="grid-th-name"
        draggable={!!props.onMoveHere}
        title={props.onMoveHere ? 'Drag to move the column' : undefined}
        onDragStart={(e) => e.dataTransfer.setData(COLUMN_TYPE, c._cn)}
      >
        {c._cn}
      </span> <span className="sr-only">{typeLabel(c.uidt)}</span>
      {problem ? <span className="grid-th-error" role="img" aria-label={`${c._cn} no longer works: ${problem}`} title={problem}>!</span> : null}
      <button
        className="grid-th-menu"
        aria-label={`Column menu of ${c._cn}`}
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          setMenuAt({ x: r.left, y: r.bottom });
        }}
      >
        <ChevronDown size={14} aria-hidden />
      </button>
      <span
        className="col-resize"
        role="separator"
        aria-orientation="vertical"
        aria-label={`Resize ${c._cn}`}
        onMouseDown={(e) => {
          const x0 = e.clientX;
          const w0 = props.width;
          const move = (m: MouseEvent) => props.onResize(w0 + m.clientX - x0);
          const up = () => (window.removeEventListener('mousemove', move), window.removeEventListener('mouseup', up));
          window.addEventListener('mousemove', move);
          window.addEventListener('mouseup', up);
        }}
      />
      {menuAt ? (
        <PopupMenu
          label={`Column ${c._cn}`}
          at={menuAt}
          onClose={() => setMenuAt(null)}
          entries={entries.map((cmd) => ({ id: cmd.id, label: cmd.label, danger: cmd.id === 'column.delete', run: () => cmd.run(target) }))}
        />
      ) : null}
    </div>
  );
}
