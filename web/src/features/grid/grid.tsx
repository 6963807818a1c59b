/**
 * The grid of a table or SQL view: virtualised rows fetched page by page as they come into view,
 * the count shown apart ('unknown' if it times out), inline editing saved through the REST API,
 * keyboard navigation, filter and sort in the where language (kept per table), add and delete.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { dashboardApi, type ColumnMeta, type TableMeta } from '../../api/dashboard';
import { useSignals } from '../../stores/signals';
import { track } from '../../stores/notifications';
import { Button } from '../../components/form';
import { GridStore } from './grid-store';
import { CellEditor, CellView } from './grid-cell';
import { AddRowForm } from './add-row-form';
import { RelationCell } from './relation-cell';
import { FieldsMenu } from './fields-menu';
import { ExpandForm } from './expand-form';
import { recordsApi } from '../../api/records';
import { QueryToolbar } from './query-toolbar';
import { TransferButtons } from '../import/transfer-buttons';
import { ViewsDrawer } from './views-drawer';
import { activeGrid, command } from '../../actions/registry';
import { ColumnHeader } from './column-header';
import { RelationHeader } from './relation-header';
import { gridColumns } from './grid-columns';
import { schemaDialog, schemaGeneration } from '../../stores/schema-ui';
import { canShare } from '../../stores/project';
import { useRowWindow } from './row-window';

/** Rows are 32 px high; past some 470,000 rows the scroll range is scaled (see row-window.ts). */
const ROW_HEIGHT = 32;
/** Width of the row-number column that precedes the data columns (see .grid-index). */
const INDEX_WIDTH = 96;

export function Grid(props: { projectId: string; dbAlias: string; table: string }) {
  useSignals();
  const [meta, setMeta] = useState<TableMeta | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A schema change anywhere reads the table's metadata again (its columns may have changed).
  const generation = schemaGeneration.value;
  useEffect(() => {
    dashboardApi.tableMeta(props.projectId, props.dbAlias, props.table).then(
      (m) => (setMeta(m), setError(null)),
      (e) => setError((e as Error).message),
    );
  }, [props.projectId, props.dbAlias, props.table, generation]);
  if (error) return <div className="form-message form-message-error">{error}</div>;
  if (!meta) return <p className="muted">Loading {props.table}…</p>;
  return <GridBody projectId={props.projectId} dbAlias={props.dbAlias} meta={meta} />;
}

function GridBody(props: { projectId: string; dbAlias: string; meta: TableMeta }) {
  useSignals();
  const { meta } = props;
  const store = useMemo(() => new GridStore(props.projectId, meta), [props.projectId, meta]);
  const all = gridColumns(meta);
  const columns = all.filter((c) => !c.hidden && !store.hidden.value.includes(c._cn));
  const scope = { projectId: props.projectId, dbAlias: props.dbAlias };
  const canEditSchema = canShare.value && meta.type === 'table';
  const widthOf = (name: string) => store.widths.value[name] ?? 180;
  const [expanded, setExpanded] = useState<number | null>(null);
  const relations = meta.relations.filter((r) => !(r.type === 'hm' && r.targetIsJunction));
  const readOnly = !!meta.readOnly;
  /** Keys, computed columns, and columns the caller's role may not update, are not edited in place. */
  const locked = (c: ColumnMeta & { virtual?: unknown }) => c.pk || !!c.virtual || (!!meta.canUpdate && !meta.canUpdate.includes(c._cn));
  const scroller = useRef<HTMLDivElement>(null);
  const rowsBox = useRef<HTMLDivElement>(null);
  const [editing, setEditing] = useState<{ row: number; col: number } | null>(null);
  const [adding, setAdding] = useState(false);
  useEffect(() => store.reload(), [store]);

  const rows = useRowWindow(scroller, rowsBox, store.size(), ROW_HEIGHT, 12);
  const items = rows.items;
  // Columns are virtualised too: only those in view (plus a few) are rendered, with spacers around them.
  const cols = useVirtualizer({ horizontal: true, count: columns.length, getScrollElement: () => scroller.current, estimateSize: (i) => widthOf(columns[i]!._cn), overscan: 3, scrollMargin: INDEX_WIDTH });
  useEffect(() => cols.measure(), [store.widths.value, columns.length]);
  const colItems = cols.getVirtualItems();
  const leftPad = Math.max(0, (colItems[0]?.start ?? INDEX_WIDTH) - INDEX_WIDTH);
  const rightPad = Math.max(0, cols.getTotalSize() - ((colItems[colItems.length - 1]?.end ?? INDEX_WIDTH) - INDEX_WIDTH));
  const shown = colItems.map((v) => ({ c: columns[v.index]!, ci: v.index }));
  useEffect(() => {
    if (items.length) void store.ensure(items[0]!.index, items[items.length - 1]!.index + 1);
  }, [items[0]?.index, items[items.length - 1]?.index, store.size()]);

  /** Leaves the editor and gives the keyboard back to the grid (the editor's input is gone). */
  const stopEditing = () => {
    setEditing(null);
    scroller.current?.focus({ preventScroll: true });
  };
  const save = async (row: number, col: number, value: unknown) => {
    stopEditing();
    // Tracked in the notification bell; its toast says how it ended (with the server's msg on error).
    await track(`Save ${columns[col]!._cn}`, store.save(row, columns[col]!._cn, value)).catch(() => {});
  };

  const onKey = (e: React.KeyboardEvent) => {
    const a = store.active.value;
    if (!a || editing) return;
    const move = (row: number, col: number) => {
      e.preventDefault();
      store.active.value = { row: Math.max(0, Math.min(store.size() - 1, row)), col: Math.max(0, Math.min(columns.length - 1, col)) };
      rows.scrollToIndex(store.active.value.row);
      cols.scrollToIndex(store.active.value.col);
    };
    if (e.key === 'ArrowDown') move(a.row + 1, a.col);
    else if (e.key === 'ArrowUp') move(a.row - 1, a.col);
    else if (e.key === 'ArrowRight' || (e.key === 'Tab' && !e.shiftKey)) move(a.row, a.col + 1);
    else if (e.key === 'ArrowLeft' || (e.key === 'Tab' && e.shiftKey)) move(a.row, a.col - 1);
    else if (e.key === 'Enter' && !readOnly && !locked(columns[a.col]!)) {
      e.preventDefault();
      setEditing(a);
    } else if (e.key === 'Escape') store.active.value = null;
    else if ((e.ctrlKey || e.metaKey) && e.key === 'c') {
      const v = store.rows.value.get(a.row)?.[columns[a.col]!._cn];
      void navigator.clipboard?.writeText(v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
  };

  const count = store.count.value;
  const active = store.active.value;
  const deleteRows = () => {
    const n = store.selected.value.size;
    void (n ? track(`Delete ${n} rows`, store.removeSelected()) : track('Delete row', store.remove(active!.row))).catch(() => {});
  };
  // The toolbar's actions are commands of the registry, so menus and shortcuts can run them too.
  const hasSelection = store.selected.value.size > 0 || !!active;
  useEffect(() => {
    activeGrid.value = {
      reload: () => store.reload(), addRow: () => setAdding(true), deleteRows, canWrite: !readOnly, hasSelection,
      addColumn: canEditSchema ? () => (schemaDialog.value = { kind: 'addColumn', scope, meta }) : undefined,
    };
  });
  useEffect(() => () => void (activeGrid.value = null), []);
  return (
    <div className="grid-wrap">
      <div className="grid-toolbar">
        <QueryToolbar key={store.revision.value} store={store} columns={all.filter((c) => !c.hidden)} displayColumn={meta.displayColumn} />
        <span className="grid-count" data-testid="row-count">{count === null ? 'counting…' : count === 'unknown' ? 'unknown rows' : `${count} ${count === 1 ? 'row' : 'rows'}`}</span>
        <Button variant="secondary" title={command('grid.reload').label} onClick={command('grid.reload').run}>↻</Button>
        <FieldsMenu store={store} columns={all.filter((c) => !c.hidden)} />
        {!readOnly ? <Button onClick={command('grid.addRow').run}>{command('grid.addRow').label}</Button> : null}
        {!readOnly && hasSelection ? (
          <Button variant="danger" onClick={command('grid.deleteRows').run}>
            {store.selected.value.size ? `Delete ${store.selected.value.size} selected rows` : 'Delete row'}
          </Button>
        ) : null}
        <ViewsDrawer />
        <TransferButtons projectId={props.projectId} dbAlias={props.dbAlias} meta={meta} where={store.where.value} sort={store.sort.value} canImport={!readOnly} />
      </div>
      {meta.readOnly ? <div className="read-only-note">Read-only: {meta.readOnly}</div> : null}
      {store.error.value ? <div className="form-message form-message-error">{store.error.value}</div> : null}
      {adding ? <AddRowForm meta={meta} onCancel={() => setAdding(false)} onSubmit={async (v) => { await track('Add row', store.create(v)); setAdding(false); }} /> : null}
      {expanded !== null && store.rows.value.get(expanded) ? (
        <ExpandForm
          meta={meta}
          row={store.rows.value.get(expanded)!}
          readOnly={readOnly}
          onClose={() => setExpanded(null)}
          onSave={async (changes) => {
            await track('Save row', recordsApi.update(props.projectId, meta._tn, store.idOf(store.rows.value.get(expanded)!), changes).then(() => store.refreshRow(expanded)));
            setExpanded(null);
          }}
        />
      ) : null}
      <div
        className="grid"
        role="grid"
        aria-rowcount={store.size()}
        tabIndex={0}
        onKeyDown={onKey}
        ref={scroller}
        onPaste={(e) => {
          const a = store.active.value;
          if (!a || editing || readOnly || locked(columns[a.col]!)) return;
          e.preventDefault();
          void save(a.row, a.col, e.clipboardData.getData('text'));
        }}
      >
        <div className="grid-head" role="row">
          <div className="grid-index" />
          <div className="col-pad" style={{ width: leftPad }} />
          {shown.map(({ c }) => (
            <ColumnHeader
              key={c.cn}
              column={c}
              width={widthOf(c._cn)}
              canEditSchema={canEditSchema}
              onResize={(px) => store.setWidth(c._cn, px)}
              target={{ scope, meta, column: c.virtual ? undefined : c, virtual: c.virtual, index: meta.columns.findIndex((m) => m.cn === c.cn), sortBy: (desc) => store.sortBy(c._cn, desc) }}
            />
          ))}
          <div className="col-pad" style={{ width: rightPad }} />
          {relations.map((r) => (
            <RelationHeader key={`${r.type}:${r.alias}`} target={{ scope, meta, relation: r }} />
          ))}
          {canEditSchema ? (
            <div className="grid-th add-col-th" role="columnheader" aria-label="New column">
              <button className="add-col-btn" aria-label={command('grid.addColumn').label} title={command('grid.addColumn').label} onClick={command('grid.addColumn').run}>+</button>
            </div>
          ) : null}
        </div>
        {count === 0 ? <div className="grid-empty muted">{store.where.value ? 'No rows match the filter' : 'No rows yet'}</div> : null}
        <div ref={rowsBox} style={{ height: rows.height, position: 'relative' }}>
          {items.map((vr) => {
            const row = store.rows.value.get(vr.index);
            return (
              <div key={vr.index} className="grid-row" role="row" style={{ transform: `translateY(${vr.start}px)`, height: ROW_HEIGHT }}>
                <div className="grid-index">
                  {!readOnly && row ? (
                    <input type="checkbox" className="row-select" aria-label={`Select row ${vr.index + 1}`} checked={store.selected.value.has(vr.index)} onChange={() => store.toggleSelected(vr.index)} />
                  ) : null}
                  <span className="row-number">{vr.index + 1}</span>
                  {row ? <button className="expand-btn" aria-label={`Expand row ${vr.index + 1}`} onClick={() => setExpanded(vr.index)}>⤢</button> : null}
                </div>
                <div className="col-pad" style={{ width: leftPad }} />
                {shown.map(({ c, ci }) => {
                  const isActive = active?.row === vr.index && active.col === ci;
                  const isEditing = editing?.row === vr.index && editing.col === ci;
                  return (
                    <div
                      key={c.cn}
                      role="gridcell"
                      className={`grid-cell${isActive ? ' active' : ''}`}
                      style={{ width: widthOf(c._cn) }}
                      onClick={() => (store.active.value = { row: vr.index, col: ci })}
                      onDoubleClick={() => !readOnly && !locked(c) && row && setEditing({ row: vr.index, col: ci })}
                    >
                      {!row ? (
                        <span className="cell-loading" />
                      ) : isEditing ? (
                        <CellEditor column={c} value={row[c._cn]} onSave={(v) => save(vr.index, ci, v)} onCancel={stopEditing} onBlur={() => setEditing(null)} />
                      ) : (
                        <CellView column={c} value={row[c._cn]} readOnly={readOnly || locked(c)} onToggle={() => save(vr.index, ci, !row[c._cn])} onSet={(v) => save(vr.index, ci, v)} />
                      )}
                    </div>
                  );
                })}
                <div className="col-pad" style={{ width: rightPad }} />
                {relations.map((r) => (
                  <div key={`${r.type}:${r.alias}`} role="gridcell" className="grid-cell relation">
                    {row ? <RelationCell store={store} meta={meta} relation={r} row={row} index={vr.index} readOnly={readOnly} /> : <span className="cell-loading" />}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
