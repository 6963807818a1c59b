/**
 * The grid of a table or SQL view: virtualised rows fetched page by page as they come into view,
 * the count shown apart ('unknown' if it times out), inline editing saved through the REST API,
 * keyboard navigation, filter and sort in the where language, fields, widths, row height and grouping (kept in the saved view), add and delete.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Maximize2, MessageSquare, Plus, RefreshCw } from 'lucide-react';
import type { ColumnMeta, TableMeta } from '../../api/dashboard';
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
import { hookDialog } from '../hooks/hooks-store';
import { liveConnection } from '../../stores/realtime';
import { applyLive } from './grid-live';
import { toast } from '../../stores/toasts';
import { undoStackOf } from './undo-stack';
import { useCommentCounts } from './comment-counts';
import { cellText, inRange, rangeOf, toHtml, toTsv } from './clipboard';
import { fillDown, outcomeText, pasteBlock } from './grid-paste';
import { TransferButtons } from '../import/transfer-buttons';
import { activeGrid, command } from '../../actions/registry';
import { ColumnHeader } from './column-header';
import { RelationHeader } from './relation-header';
import { gridColumns } from './grid-columns';
import { schemaDialog } from '../../stores/schema-ui';
import { canShare } from '../../stores/project';
import { useRowWindow } from './row-window';
import { ROW_HEIGHTS, moveItem } from '../views/view-state';
import { viewPersistence, type ViewBinding } from '../views/view-binding';
import { RowHeightMenu } from './row-height-menu';
import { GroupByMenu, GroupedRows } from './grouped-rows';
import { useRowDelete } from './row-delete';
import { RelationList } from './relation-list';
import { columnLayout, frozenCount, keepFirst } from './frozen-columns';
import { AttachmentCell, uploadToCell } from './attachment-cell';

/** Width of the row-number column that precedes the data columns (see .grid-index). */
const INDEX_WIDTH = 96;

/**
 * The grid of a table's metadata; with a `binding` its filters, sorts, fields, widths, row height
 * and grouping are those of the saved view (and changes are saved in it).
 */
export function GridBody(props: { projectId: string; dbAlias: string; meta: TableMeta; binding?: ViewBinding }) {
  useSignals();
  const { meta, binding } = props;
  const store = useMemo(
    () => new GridStore(props.projectId, meta, binding ? viewPersistence(binding, gridColumns(meta).filter((c) => !c.hidden).map((c) => c._cn)) : undefined),
    [props.projectId, meta, binding?.view.id],
  );
  // Other users' changes arrive over the project's realtime connection.
  useEffect(() => liveConnection(props.projectId).subscribe(meta._tn, (e) => applyLive(store, e, !!meta.virtuals?.length)), [store, props.projectId, meta._tn]);
  const order = store.order.value;
  const all = gridColumns(meta).sort((a, b) => rank(order, a._cn) - rank(order, b._cn));
  const columns = all.filter((c) => !c.hidden && !store.hidden.value.includes(c._cn));
  // Short rows are 32 px; past some 470,000 rows the scroll range is scaled (see row-window.ts).
  const rowHeight = ROW_HEIGHTS[store.rowHeight.value];
  const groupBy = store.groupBy.value && all.some((c) => c._cn === store.groupBy.value) ? store.groupBy.value : undefined;
  const scope = { projectId: props.projectId, dbAlias: props.dbAlias };
  const canEditSchema = canShare.value && meta.type === 'table';
  const widthOf = (name: string) => store.widths.value[name] ?? 180;
  const [expanded, setExpanded] = useState<number | null>(null);
  const comments = useCommentCounts(store, props.dbAlias, expanded === null ? 0 : 1);
  const relations = meta.relations.filter((r) => !(r.type === 'hm' && r.targetIsJunction));
  const readOnly = !!meta.readOnly;
  /** Keys, computed columns, and columns the caller's role may not update, are not edited in place. */
  const locked = (c: ColumnMeta & { virtual?: unknown }) => c.pk || !!c.virtual || (!!meta.canUpdate && !meta.canUpdate.includes(c._cn));
  const scroller = useRef<HTMLDivElement>(null);
  const rowsBox = useRef<HTMLDivElement>(null);
  const [editing, setEditing] = useState<{ row: number; col: number; typed?: string } | null>(null);
  // A range of cells: from the anchor to the active cell (shift+click, shift+arrows or a drag).
  const [anchor, setAnchor] = useState<{ row: number; col: number } | null>(null);
  const [fill, setFill] = useState<{ col: number; from: number; to: number } | null>(null);
  const dragging = useRef(false);
  const [adding, setAdding] = useState(false);
  /** Upload progress (0..1) per `row:column` of Attachment cells. */
  const [uploads, setUploads] = useState<Record<string, number | null>>({});
  useEffect(() => store.reload(), [store]);

  const rows = useRowWindow(scroller, rowsBox, store.size(), rowHeight, 12);
  const items = rows.items;
  // Columns are virtualised too: only those in view (plus a few) are rendered, with spacers around them.
  const frozen = frozenCount(columns, meta.displayColumn);
  const cols = useVirtualizer({ horizontal: true, count: columns.length, getScrollElement: () => scroller.current, estimateSize: (i) => widthOf(columns[i]!._cn), overscan: 3, scrollMargin: INDEX_WIDTH, rangeExtractor: keepFirst(frozen) });
  useEffect(() => cols.measure(), [store.widths.value, columns.length]);
  const colItems = cols.getVirtualItems();
  const { leftPad, rightPad, stickyLeft } = columnLayout(colItems, frozen, cols.getTotalSize(), INDEX_WIDTH);
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
    await track(`Save ${columns[col]!._cn}`, store.save(row, columns[col]!._cn, value), `Saved ${columns[col]!._cn}`).catch(() => {});
  };

  const onKey = (e: React.KeyboardEvent) => {
    // Keys of a field, button, picker or menu opened from a cell are theirs, not the grid's.
    if (e.target !== e.currentTarget && (e.target as HTMLElement).closest('input, textarea, select, button, [role="dialog"], [role="menu"]')) return;
    const a = store.active.value;
    // ctrl+z undoes the user's own last edit, ctrl+shift+z (or ctrl+y) redoes it.
    const k = e.key.toLowerCase();
    if (!editing && (e.ctrlKey || e.metaKey) && (k === 'z' || k === 'y')) {
      e.preventDefault();
      const stack = undoStackOf(props.projectId);
      const redo = k === 'y' || e.shiftKey;
      void (redo ? stack.redo() : stack.undo()).then(
        (done) => (toast('success', done), store.refresh()),
        (err) => toast('error', (err as Error).message),
      );
      return;
    }
    if (editing) return;
    if (!a) {
      // Keyboard users start on the first cell with an arrow, Enter or F2.
      if ((e.key.startsWith('Arrow') || e.key === 'Enter' || e.key === 'F2') && store.size() > 0 && e.target === e.currentTarget) {
        e.preventDefault();
        store.active.value = { row: 0, col: 0 };
      }
      return;
    }
    const move = (row: number, col: number) => {
      e.preventDefault();
      // shift+arrows grow a range from where it started; other moves leave it.
      if (e.shiftKey && e.key.startsWith('Arrow')) setAnchor((x) => x ?? a);
      else setAnchor(null);
      store.active.value = { row: Math.max(0, Math.min(store.size() - 1, row)), col: Math.max(0, Math.min(columns.length - 1, col)) };
      rows.scrollToIndex(store.active.value.row);
      cols.scrollToIndex(store.active.value.col);
    };
    if (e.key === 'ArrowDown') move(a.row + 1, a.col);
    else if (e.key === 'ArrowUp') move(a.row - 1, a.col);
    // Tab moves along the row and leaves the grid past its last (or, with shift, first) column.
    else if (e.key === 'ArrowRight' || (e.key === 'Tab' && !e.shiftKey && a.col < columns.length - 1)) move(a.row, a.col + 1);
    else if (e.key === 'ArrowLeft' || (e.key === 'Tab' && e.shiftKey && a.col > 0)) move(a.row, a.col - 1);
    else if ((e.key === 'Enter' || e.key === 'F2') && !readOnly && !locked(columns[a.col]!)) {
      e.preventDefault();
      setEditing(a);
    } else if (e.key === 'Escape') (store.active.value = null), setAnchor(null);
    else if ((e.key === 'Delete' || e.key === 'Backspace') && !readOnly && !locked(columns[a.col]!)) {
      e.preventDefault();
      void save(a.row, a.col, columns[a.col]!.nullable ? null : '');
    } else if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey && !readOnly && !locked(columns[a.col]!) && columns[a.col]!.kind !== 'boolean') {
      // Typing on a selected cell starts editing it with that character.
      e.preventDefault();
      setEditing({ ...a, typed: e.key });
    }
  };

  const range = store.active.value ? rangeOf(anchor ?? store.active.value, store.active.value) : null;
  /** ctrl+c: the range (or the active cell) as TSV and an HTML table, which spreadsheets paste. */
  const onCopy = (e: React.ClipboardEvent) => {
    if (editing || !range) return;
    const out: string[][] = [];
    for (let r = range.top; r <= range.bottom; r++) {
      const row = store.rows.value.get(r);
      const line: string[] = [];
      for (let c = range.left; c <= range.right; c++) line.push(row ? cellText(row[columns[c]!._cn]) : '');
      out.push(line);
    }
    e.clipboardData.setData('text/plain', toTsv(out));
    e.clipboardData.setData('text/html', toHtml(out));
    e.preventDefault();
  };
  /** ctrl+v: a TSV block from a spreadsheet, at the active cell, as one bulk update (and insert). */
  const onPaste = (e: React.ClipboardEvent) => {
    const at = store.active.value;
    if (editing || readOnly || !at) return;
    // Files pasted onto an Attachment cell are uploaded to it.
    const pastedFiles = [...e.clipboardData.files];
    const ac = columns[at.col]!;
    const arow = store.rows.value.get(at.row);
    if (ac.uidt === 'Attachment' && pastedFiles.length && arow && !locked(ac)) {
      e.preventDefault();
      void uploadToCell({ projectId: props.projectId, table: meta._tn, rowId: store.idOf(arow), column: ac._cn }, pastedFiles, (p) => setUploads((u) => ({ ...u, [`${at.row}:${ac._cn}`]: p })), (v) => store.setCell(at.row, ac._cn, v));
      return;
    }
    const text = e.clipboardData.getData('text/plain');
    if (!text) return;
    e.preventDefault();
    void pasteBlock(store, text, at, columns, (c) => !locked(c)).then(
      (o) => (toast(o.problems.length ? 'error' : 'success', outcomeText(o)), store.refresh()),
      (err) => toast('error', (err as Error).message),
    );
  };
  const endDrag = () => {
    dragging.current = false;
    if (!fill) return;
    const f = fill;
    setFill(null);
    if (f.to > f.from) {
      void fillDown(store, columns[f.col]!, f.from, f.to).then(
        (o) => (toast('success', `Filled ${o.updated} ${o.updated === 1 ? 'cell' : 'cells'} of ${columns[f.col]!._cn}`), store.refresh()),
        (err) => toast('error', (err as Error).message),
      );
    }
  };
  useEffect(() => {
    window.addEventListener('mouseup', endDrag);
    return () => window.removeEventListener('mouseup', endDrag);
  });

  const count = store.count.value;
  const active = store.active.value;
  const rowDelete = useRowDelete(store);
  const deleteRows = () => rowDelete.ask(active?.row ?? null);
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
        <Button variant="secondary" title={command('grid.reload').label} onClick={command('grid.reload').run}><RefreshCw size={15} aria-hidden /></Button>
        <FieldsMenu store={store} columns={all.filter((c) => !c.hidden)} />
        <RowHeightMenu store={store} />
        <GroupByMenu store={store} columns={all.filter((c) => !c.hidden && !c.virtual)} />
        {!readOnly ? <Button onClick={command('grid.addRow').run}>{command('grid.addRow').label}</Button> : null}
        {!readOnly ? (
          // Always laid out (hidden without a selection), so choosing a cell never moves the grid under the pointer.
          <span className="toolbar-slot" style={{ visibility: hasSelection ? 'visible' : 'hidden' }} aria-hidden={!hasSelection}>
            <Button variant="danger" onClick={command('grid.deleteRows').run} disabled={!hasSelection}>
              {store.selected.value.size ? `Delete ${store.selected.value.size} selected rows` : 'Delete row'}
            </Button>
          </span>
        ) : null}
        {canEditSchema ? <Button variant="ghost" onClick={() => (hookDialog.value = { scope, tn: meta.tn, _tn: meta._tn })}>Webhooks</Button> : null}
        <TransferButtons projectId={props.projectId} dbAlias={props.dbAlias} meta={meta} where={store.where.value} sort={store.sort.value} canImport={!readOnly} />
      </div>
      {rowDelete.dialog}
      {meta.readOnly ? <div className="read-only-note">Read-only: {meta.readOnly}</div> : null}
      {store.error.value ? <div className="form-message form-message-error">{store.error.value}</div> : null}
      {adding ? <AddRowForm meta={meta} onCancel={() => setAdding(false)} onSubmit={async (v) => { await track('Add row', store.create(v), 'Added a row'); setAdding(false); }} /> : null}
      {expanded !== null && store.rows.value.get(expanded) ? (
        <ExpandForm
          meta={meta}
          row={store.rows.value.get(expanded)!}
          readOnly={readOnly}
          links={<RelationList store={store} meta={meta} index={expanded} readOnly={readOnly} />}
          activity={{ projectId: props.projectId, dbAlias: props.dbAlias, pk: store.idOf(store.rows.value.get(expanded)!), canComment: true }}
          onClose={() => setExpanded(null)}
          onUploaded={(column, value) => store.setCell(expanded, column, value)}
          onSave={async (changes) => {
            await track('Save row', recordsApi.update(props.projectId, meta._tn, store.idOf(store.rows.value.get(expanded)!), changes).then(() => store.refreshRow(expanded)), 'Saved the row');
            setExpanded(null);
          }}
        />
      ) : null}
      {groupBy ? <GroupedRows store={store} meta={meta} column={groupBy} columns={columns} widthOf={widthOf} readOnly={readOnly} locked={locked} /> : null}
      <div
        className={`grid row-h-${store.rowHeight.value}`}
        hidden={!!groupBy}
        role="grid"
        aria-rowcount={store.size()}
        tabIndex={0}
        onKeyDown={onKey}
        onCopy={onCopy}
        onPaste={onPaste}
        ref={scroller}
      >
        <div className="grid-head" role="row">
          <div className="grid-index" />
          <div className="col-pad" style={{ width: leftPad }} />
          {shown.map(({ c, ci }) => (
            <ColumnHeader
              key={c.cn}
              stickyLeft={stickyLeft(ci)}
              column={c}
              width={widthOf(c._cn)}
              canEditSchema={canEditSchema}
              onResize={(px) => store.setWidth(c._cn, px)}
              onMoveHere={(from) => {
                const names = all.filter((x) => !x.hidden).map((x) => x._cn);
                store.setOrder(moveItem(names, names.indexOf(from), names.indexOf(c._cn)));
              }}
              target={{ scope, meta, column: c.virtual ? undefined : c, virtual: c.virtual, index: meta.columns.findIndex((m) => m.cn === c.cn), sortBy: (desc) => store.sortBy(c._cn, desc) }}
            />
          ))}
          <div className="col-pad" style={{ width: rightPad }} />
          {relations.map((r) => (
            <RelationHeader key={`${r.type}:${r.alias}`} target={{ scope, meta, relation: r }} />
          ))}
          {canEditSchema ? (
            <div className="grid-th add-col-th" role="columnheader" aria-label="New column">
              <button className="add-col-btn" aria-label={command('grid.addColumn').label} title={command('grid.addColumn').label} onClick={command('grid.addColumn').run}><Plus size={15} aria-hidden /></button>
            </div>
          ) : null}
        </div>
        {count === 0 ? <div className="grid-empty muted">{store.where.value ? 'No rows match the filter' : 'No rows yet'}</div> : null}
        <div ref={rowsBox} style={{ height: rows.height, position: 'relative' }}>
          {items.map((vr) => {
            const row = store.rows.value.get(vr.index);
            return (
              <div key={vr.index} className="grid-row" role="row" style={{ transform: `translateY(${vr.start}px)`, height: rowHeight }}>
                <div className="grid-index" role="rowheader">
                  {!readOnly && row ? (
                    <input type="checkbox" className="row-select" aria-label={`Select row ${vr.index + 1}`} checked={store.selected.value.has(vr.index)} onChange={() => store.toggleSelected(vr.index)} />
                  ) : null}
                  <span className="row-number">{vr.index + 1}</span>
                  {row ? <button className="expand-btn" aria-label={`Expand row ${vr.index + 1}`} onClick={() => setExpanded(vr.index)}><Maximize2 size={12} aria-hidden /></button> : null}
                  {row && comments[store.idOf(row)] ? (
                    <button className="comment-count" aria-label={`${comments[store.idOf(row)]} comments on row ${vr.index + 1}`} onClick={() => setExpanded(vr.index)}><MessageSquare size={12} aria-hidden /> {comments[store.idOf(row)]}</button>
                  ) : null}
                </div>
                <div className="col-pad" style={{ width: leftPad }} />
                {shown.map(({ c, ci }) => {
                  const isActive = active?.row === vr.index && active.col === ci;
                  const isEditing = editing?.row === vr.index && editing.col === ci;
                  return (
                    <div
                      key={c.cn}
                      role="gridcell"
                      className={`grid-cell${isActive ? ' active' : ''}${inRange(range, vr.index, ci) && (anchor ? true : false) ? ' in-range' : ''}${fill && fill.col === ci && vr.index > fill.from && vr.index <= fill.to ? ' in-fill' : ''}${stickyLeft(ci) !== undefined ? ' frozen' : ''}`}
                      style={{ width: widthOf(c._cn), left: stickyLeft(ci) }}
                      onMouseDown={(e) => {
                        // Controls inside a cell (stars, checkboxes, links, chips) keep their own clicks.
                        if (e.button !== 0 || isEditing || (e.target as HTMLElement).closest('button, input, select, a, label, [role="checkbox"]')) return;
                        const here = { row: vr.index, col: ci };
                        const same = (p: { row: number; col: number } | null) => !!p && p.row === here.row && p.col === here.col;
                        dragging.current = true;
                        const prev = store.active.value;
                        if (e.shiftKey && prev) {
                          setAnchor((x) => x ?? prev);
                          if (!same(store.active.value)) store.active.value = here;
                          return;
                        }
                        // A plain press starts a new range here (no state change when it is there already, so double clicks stay double clicks).
                        setAnchor((x) => (x === null || same(x) ? x : null));
                        if (!same(store.active.value)) store.active.value = here;
                      }}
                      onMouseEnter={() => {
                        if (fill && ci === fill.col) setFill({ ...fill, to: Math.max(fill.from, vr.index) });
                        else if (dragging.current && store.active.value) {
                          // Dragging from the pressed cell: it becomes the anchor, this cell the active end.
                          const from = store.active.value;
                          setAnchor((x) => x ?? from);
                          store.active.value = { row: vr.index, col: ci };
                        }
                      }}
                      onClick={(e) => !e.shiftKey && !anchor && (store.active.value = { row: vr.index, col: ci })}
                      onDoubleClick={() => !readOnly && !locked(c) && row && setEditing({ row: vr.index, col: ci })}
                    >
                      {!row ? (
                        <span className="cell-loading" />
                      ) : isEditing ? (
                        <CellEditor column={c} value={row[c._cn]} typed={editing?.typed} onSave={(v) => save(vr.index, ci, v)} onCancel={stopEditing} onBlur={() => setEditing(null)} />
                      ) : c.uidt === 'Attachment' && meta.pks.length ? (
                        <AttachmentCell
                          target={{ projectId: props.projectId, table: meta._tn, rowId: store.idOf(row), column: c._cn }}
                          value={row[c._cn]}
                          readOnly={readOnly || locked(c)}
                          progress={uploads[`${vr.index}:${c._cn}`] ?? null}
                          onProgress={(p) => setUploads((u) => ({ ...u, [`${vr.index}:${c._cn}`]: p }))}
                          onValue={(v) => store.setCell(vr.index, c._cn, v)}
                        />
                      ) : (
                        <CellView column={c} value={row[c._cn]} readOnly={readOnly || locked(c)} onToggle={() => save(vr.index, ci, !row[c._cn])} onSet={(v) => save(vr.index, ci, v)} />
                      )}
                      {isActive && !isEditing && row && !readOnly && !locked(c) ? (
                        <span
                          className="fill-handle"
                          aria-hidden="true"
                          title="Fill down"
                          onMouseDown={(e) => {
                            e.stopPropagation();
                            e.preventDefault();
                            setFill({ col: ci, from: vr.index, to: vr.index });
                          }}
                        />
                      ) : null}
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

/** Position of a column in the view's order (unknown ones after the known, in table order). */
function rank(order: string[], name: string): number {
  const i = order.indexOf(name);
  return i < 0 ? order.length : i;
}
