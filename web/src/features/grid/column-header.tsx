/**
 * A column header of the grid: name and type, the resize handle, and the column menu (▾ button or
 * right click) with the column commands of the registry: edit, rename, insert left/right, sort, delete.
 */
import { useState } from 'react';
import type { ColumnMeta } from '../../api/dashboard';
import { COLUMN_COMMANDS, type ColumnTarget } from '../../actions/registry';
import { t } from '../../i18n';
import { TypeIcon, typeLabel } from './type-icon';
import { HeaderMenu } from './header-menu';

/** Sort commands only, for people who may not change the schema. */
const SORT_ONLY = new Set(['column.sortAsc', 'column.sortDesc']);

/** The drag data of a column header being moved. */
const COLUMN_TYPE = 'application/x-tablo-column';

/**
 * One column header (frozen at `stickyLeft` when given); people who may not change the schema get
 * the sort entries only. `id`, `colIndex`, `sort` and `focused` place it in the grid's keyboard model;
 * `onMenuClosed` gives the keyboard back to the grid.
 */
export function ColumnHeader(props: {
  column: ColumnMeta;
  width: number;
  stickyLeft?: number;
  target: ColumnTarget;
  canEditSchema: boolean;
  onResize: (px: number) => void;
  onMoveHere?: (from: string) => void;
  id?: string;
  colIndex?: number;
  sort?: 'ascending' | 'descending';
  focused?: boolean;
  onMenuClosed?: () => void;
}) {
  const { column: c, target } = props;
  const [menuOpen, setMenuOpen] = useState(false);
  const problem = target.virtual ? (target.virtual.error ?? target.virtual.formula?.error) : undefined;
  const entries = COLUMN_COMMANDS.filter((cmd) => (props.canEditSchema || SORT_ONLY.has(cmd.id)) && (!cmd.when || cmd.when(target)));
  const type = typeLabel(target.virtual ? target.virtual.uidt : c.uidt);
  const title = target.virtual
    ? problem ? t('grid.header.titleProblem', { type, problem }) : type
    : c.pk ? t('grid.header.titlePrimaryKey', { type, dataType: c.dt }) : t('grid.header.title', { type, dataType: c.dt });
  const openChange = (open: boolean) => {
    setMenuOpen(open);
    // Closed with Esc or after a command: the grid takes the keyboard back unless a dialog took it.
    if (!open) setTimeout(() => document.activeElement?.classList.contains('grid-th-menu') && props.onMenuClosed?.(), 0);
  };
  return (
    <div
      id={props.id}
      className={`grid-th${props.stickyLeft !== undefined ? ' frozen' : ''}${props.focused ? ' kb-active' : ''}`}
      role="columnheader"
      aria-colindex={props.colIndex}
      aria-sort={props.sort}
      style={{ width: props.width, left: props.stickyLeft }}
      title={title}
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
        setMenuOpen(true);
      }}
    >
      <TypeIcon uidt={c.uidt} />
      <span
        className="grid-th-name"
        draggable={!!props.onMoveHere}
        title={props.onMoveHere ? t('grid.header.dragToMove') : undefined}
        onDragStart={(e) => e.dataTransfer.setData(COLUMN_TYPE, c._cn)}
      >
        {c._cn}
      </span> <span className="sr-only">{typeLabel(c.uidt)}</span>
      {problem ? <span className="grid-th-error" role="img" aria-label={t('grid.header.broken', { column: c._cn, problem })} title={problem}>!</span> : null}
      <HeaderMenu
        buttonLabel={t('grid.header.menuOf', { column: c._cn })}
        menuLabel={t('grid.header.menu', { column: c._cn })}
        isOpen={menuOpen}
        onOpenChange={openChange}
        entries={entries.map((cmd) => ({ id: cmd.id, label: cmd.label, danger: cmd.id === 'column.delete', run: () => cmd.run(target) }))}
      />
      <span
        className="col-resize"
        role="separator"
        aria-orientation="vertical"
        aria-label={t('grid.header.resize', { column: c._cn })}
        onMouseDown={(e) => {
          const x0 = e.clientX;
          const w0 = props.width;
          const move = (m: MouseEvent) => props.onResize(w0 + m.clientX - x0);
          const up = () => (window.removeEventListener('mousemove', move), window.removeEventListener('mouseup', up));
          window.addEventListener('mousemove', move);
          window.addEventListener('mouseup', up);
        }}
      />
    </div>
  );
}
