/**
 * The grid of a table or SQL view: virtualised rows fetched page by page as they come into view,
 * the count shown apart ('unknown' if it times out), inline editing saved through the REST API,
 * keyboard navigation, filter and sort in the where language, fields, widths, row height and grouping (kept in the saved view), add and delete.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Maximize2, MessageSquare, Plus, RefreshCw, Trash2 } from 'lucide-react';
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
import type { ParentSource } from '../form/form-parent';
import { recordsApi } from '../../api/records';
import { uploadFormFile } from '../../api/attachments';
import { QueryToolbar } from './query-toolbar';
import { hookDialog } from '../hooks/hooks-store';
import { liveConnection } from '../../stores/realtime';
import { applyLive } from './grid-live';
import { toast } from '../../stores/toasts';
import { undoStackOf } from './undo-stack';
import { knowTable } from './undo-columns';
import { useFollowColumns } from './follow-columns';
import { useCommentCounts } from './comment-counts';
import { cellText, inRange, rangeOf, toHtml, toTsv } from './clipboard';
import { clearBlock, clearedText, fillDown, outcomeText, pasteBlock } from './grid-paste';
import { TransferButtons, useTransfers } from '../import/transfer-buttons';
import { GridMoreMenu } from './grid-more-menu';
import { useToolbarFit } from './toolbar-fit';
import { activeGrid, command } from '../../actions/registry';
import { ColumnHeader } from './column-header';
import { RelationHeader } from './relation-header';
import { gridColumns } from './grid-columns';
import { schemaDialog } from '../../stores/schema-ui';
import { canShare } from '../../stores/project';
import { useRowWindow } from './row-window';
import { ROW_HEIGHTS, moveItem } from '../views/view-state';
import { gridStateOf, viewPersistence, type ViewBinding } from '../views/view-binding';
import { useCanComment } from '../views/view-rights';
import { RowHeightMenu } from './row-height-menu';
import { GroupByMenu, GroupedRows } from './grouped-rows';
import { useRowDelete } from './row-delete';
import { RelationList } from './relation-list';
import { columnLayout, frozenCount, keepFirst, scrollLeftToShow } from './frozen-columns';
import { AttachmentCell, uploadToCell } from './attachment-cell';
import { pressFirstAction, useSingleTabStop } from './grid-focus';
import { locale, t } from '../../i18n';
import { translateServerMessage } from '../../i18n/server-messages';
import './grid.css';

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
    // The same table read again (a schema change) keeps its store: see setMeta below.
    [props.projectId, meta.tn, binding?.view.id],
  );
  useEffect(() => store.setMeta(meta), [store, meta]);
  // Undo steps taken from here know the columns by their SQL names (a refusal names a renamed column as it is now).
  useEffect(() => knowTable(props.projectId, props.dbAlias, meta), [props.projectId, props.dbAlias, meta]);
  // The saved view changed (by someone else, or read again): its filters, sort and layout apply here.
  const viewParams = binding?.view.query_params;
  useEffect(() => {
    if (viewParams) store.adopt(gridStateOf(viewParams, gridColumns(meta).filter((c) => !c.hidden).map((c) => c._cn)));
  }, [viewParams, store]);
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
  const [expanded, setExpandedAt] = useState<number | null>(null);
  /** The key of the row open in the expanded form: rows read again (one added or removed before it) move it elsewhere. */
  const expandedId = useRef<string | null>(null);
  const setExpanded = (index: number | null) => {
    const row = index === null ? undefined : store.rows.value.get(index);
    expandedId.current = row && meta.pks.length ? store.idOf(row) : null;
    setExpandedAt(index);
  };
  // The open row is followed to its new place (found by its key, in the same render: the form stays mounted with
  // its edits); the form never shows another row at the old place.
  const opened = ((): { index: number; row: Record<string, unknown> } | null => {
    if (expanded === null) return null;
    const at = store.rows.value.get(expanded);
    if (at && (expandedId.current === null || store.idOf(at) === expandedId.current)) return { index: expanded, row: at };
    for (const [index, row] of store.rows.value) if (store.idOf(row) === expandedId.current) return { index, row };
    return null;
  })();
  useEffect(() => {
    if (opened && opened.index !== expanded) setExpandedAt(opened.index);
  }, [opened?.index]);
  // A row gone from the loaded rows (deleted meanwhile) stays in the form as last seen; the form says it is gone.
  const lastOpened = useRef<{ index: number; row: Record<string, unknown> } | null>(null);
  lastOpened.current = opened ?? (expanded === null ? null : lastOpened.current);
  const shownOpen = opened ?? lastOpened.current;
  // Viewers read the comments of a row; commenters and above add them.
  const canComment = useCanComment(props.projectId);
    const relations = meta.relations.filter((r) => !(r.type === 'hm' && r.targetIsJunction));
  const readOnly = !!meta.readOnly;
  // Adding and deleting rows are rights of their own (a role may add rows it may not change, or the reverse).
  const mayAdd = meta.canCreate ?? !readOnly;
  const mayDelete = meta.canDelete ?? !readOnly;
  /** The parent rows of the foreign keys the add-row and expanded-row forms pick (the relations the user may read). */
  const parents: ParentSource = { relations: meta.relations, list: (table, where) => recordsApi.list(props.projectId, table, { limit: 25, offset: 0, where }) };
  /** Keys, computed columns, and columns the caller's role may not update, are not edited in place. */
  const locked = (c: ColumnMeta & { virtual?: unknown }) => c.pk || !!c.virtual || (!!meta.canUpdate && !meta.canUpdate.includes(c._cn));
  const scroller = useRef<HTMLDivElement>(null);
  const rowsBox = useRef<HTMLDivElement>(null);
  /**
   * The cell being edited, with its column's name and its row's key: it stays on its column when columns
   * come or go before it (a schema change), and on its row when rows added or removed by others move it.
   */
  const [editState, setEditState] = useState<{ row: number; col: number; typed?: string; name: string; id: string | null } | null>(null);
  const setEditing = (e: { row: number; col: number; typed?: string } | null) => {
    const row = e ? store.rows.value.get(e.row) : undefined;
    setEditState(e && { ...e, name: columns[e.col]?._cn ?? '', id: row && meta.pks.length ? store.idOf(row) : null });
  };
  /** Where the edited row is now: its index, or 'gone' (no longer among the rows read), or null while rows are read again. */
  const editRow = ((): number | 'gone' | null => {
    if (!editState) return null;
    const rows = store.rows.value;
    const at = rows.get(editState.row);
    if (editState.id === null || (at && store.idOf(at) === editState.id)) return editState.row;
    for (const [i, r] of rows) if (store.idOf(r) === editState.id) return i;
    return rows.size ? 'gone' : null;
  })();
  const editing = ((): { row: number; col: number; typed?: string } | null => {
    if (!editState || typeof editRow !== 'number') return null;
    const col = columns[editState.col]?._cn === editState.name ? editState.col : columns.findIndex((c) => c._cn === editState.name);
    return col < 0 ? null : { ...editState, row: editRow, col };
  })();
  // Its column removed or renamed, or its row deleted or moved out of the rows shown, meanwhile: the editor closes, saying so.
  useEffect(() => {
    if (!editState || editing || editRow === null) return;
    setEditState(null);
    if (editRow === 'gone') toast('info', t('grid.cell.rowGone', { column: editState.name }), 6000);
    else toast('info', t('grid.cell.columnGone', { column: editState.name }), 6000);
  }, [editState, editing === null, editRow]);
  // A range of cells: from the anchor to the active cell (shift+click, shift+arrows or a drag).
  const [anchor, setAnchor] = useState<{ row: number; col: number } | null>(null);
  const [fill, setFill] = useState<{ col: number; from: number; to: number } | null>(null);
  const dragging = useRef(false);
  /** The add-row form: open (true), open with the texts of a duplicated row, or closed. */
  const [adding, setAdding] = useState<boolean | Record<string, string>>(false);
  /** The header the keyboard is on (up from the first row), or null when it is on the rows. */
  const [head, setHead] = useState<number | null>(null);
  // The active cell, a range's anchor and the header the keyboard is on stay on their column when columns
  // come or go before it (someone adds one, a column is hidden or moved): followed by the column's name.
  useFollowColumns([...columns.map((c) => `c:${c._cn}`), ...relations.map((r) => `r:${r.alias}`)], (to) => {
    const a = store.active.peek();
    if (a && to(a.col) !== a.col) store.active.value = { ...a, col: to(a.col) };
    setAnchor((x) => (x && to(x.col) !== x.col ? { ...x, col: to(x.col) } : x));
    setHead((h) => (h === null ? h : to(h)));
  });
  const gridId = useId().replace(/:/g, '');
  useSingleTabStop(scroller);
  /** Upload progress (0..1) per `row:column` of Attachment cells. */
  const [uploads, setUploads] = useState<Record<string, number | null>>({});
  useEffect(() => store.reload(), [store]);

  const rows = useRowWindow(scroller, rowsBox, store.size(), rowHeight, 12);
  const items = rows.items;
  // The comment counts of the rows in view.
  const comments = useCommentCounts(store, props.dbAlias, expanded === null ? 0 : 1, items.map((v) => v.index));
  // Columns are virtualised too: only those in view (plus a few) are rendered, with spacers around them.
  const frozen = frozenCount(columns, meta.displayColumn);
  const cols = useVirtualizer({ horizontal: true, count: columns.length, getScrollElement: () => scroller.current, estimateSize: (i) => widthOf(columns[i]!._cn), overscan: 3, scrollMargin: INDEX_WIDTH, rangeExtractor: keepFirst(frozen) });
  useEffect(() => cols.measure(), [store.widths.value, columns.length]);
  const colItems = cols.getVirtualItems();
  const { leftPad, rightPad, stickyLeft } = columnLayout(colItems, frozen, cols.getTotalSize(), INDEX_WIDTH);
  const shown = colItems.map((v) => ({ c: columns[v.index]!, ci: v.index }));
  useEffect(() => {
    if (items.length) void store.show(items[0]!.index, items[items.length - 1]!.index + 1);
  }, [items[0]?.index, items[items.length - 1]?.index, store.size()]);

  /** Leaves the editor and gives the keyboard back to the grid (the editor's input is gone). */
  const stopEditing = () => {
    setEditing(null);
    scroller.current?.focus({ preventScroll: true });
  };
  const save = async (row: number, col: number, value: unknown) => {
    stopEditing();
    // Tracked in the notification bell; its toast says how it ended (with the server's msg on error).
    const column = columns[col]!._cn;
    const saving = store.save(row, column, value).catch((err: unknown) => {
      // Text the server refused is not lost: its editor opens again with it (with the message, not after it), while the cell is still the selected one.
      const a = store.active.peek();
      const r = store.rows.value.get(row);
      if (typeof value === 'string' && a && a.row === row && a.col === col) setEditState((open) => open ?? { row, col, typed: value, name: column, id: r && meta.pks.length ? store.idOf(r) : null });
      throw err;
    });
    await track(t('grid.cell.saving', { column }), saving, t('grid.cell.saved', { column })).catch(() => {});
  };

  /** Columns the keyboard moves across: the data columns, then the relation columns. */
  const colCount = columns.length + relations.length;
  const isRelation = (col: number) => col >= columns.length;
  const cellId = (row: number, col: number) => `${gridId}-r${row}-c${col}`;
  const headId = (col: number) => `${gridId}-h${col}`;
  /** Rows a page key moves: those in view. */
  const pageRows = () => Math.max(1, Math.floor((scroller.current?.clientHeight ?? rowHeight * 10) / rowHeight) - 1);
  /** Scrolls a data column into view beside the frozen ones (the virtualiser's own scrolling leaves it under them). */
  const showColumn = (col: number) => {
    const el = scroller.current;
    const m = cols.measurementsCache[col];
    if (!el || !m) return;
    const frozenEnd = frozen ? (cols.measurementsCache[frozen - 1]?.end ?? INDEX_WIDTH) : INDEX_WIDTH;
    const left = scrollLeftToShow(m, frozen, frozenEnd, { left: el.scrollLeft, width: el.clientWidth });
    if (left !== null) el.scrollLeft = left;
  };
  /** Brings a relation cell (not virtualised) into view once drawn. */
  const reveal = (id: string) => requestAnimationFrame(() => document.getElementById(id)?.scrollIntoView({ block: 'nearest', inline: 'nearest' }));

  /** ctrl+z undoes the user's own last edit, ctrl+shift+z (or ctrl+y) redoes it; true when the key was one of them. */
  const undoKey = (e: React.KeyboardEvent): boolean => {
    const k = e.key.toLowerCase();
    if (!(e.ctrlKey || e.metaKey) || (k !== 'z' && k !== 'y')) return false;
    e.preventDefault();
    const stack = undoStackOf(props.projectId);
    const redo = k === 'y' || e.shiftKey;
    void (redo ? stack.redo() : stack.undo()).then(
      (done) => (toast('success', done), store.refresh()),
      (err) => toast('error', (err as Error).message),
    );
    return true;
  };
  /**
   * The same keys on the grid's toolbar (the focus is back on the Delete button once rows are deleted);
   * the rows have their own handler, and fields, forms and dialogs keep ctrl+z to themselves.
   */
  const onToolbarKey = (e: React.KeyboardEvent) => {
    const target = e.target as HTMLElement;
    if (scroller.current?.contains(target) || target.closest('input, textarea, select, [contenteditable="true"], form, [role="dialog"], [role="menu"]')) return;
    undoKey(e);
  };
  const onKey = (e: React.KeyboardEvent) => {
    const target = e.target as HTMLElement;
    // ctrl+z also from a control of a cell just used (a star, a link's ×, a checkbox keep the focus), not from a text field, picker or menu.
    if (!editing && !target.closest('textarea, select, [contenteditable="true"], [role="dialog"], [role="menu"]') && !(target instanceof HTMLInputElement && target.type !== 'checkbox') && undoKey(e)) return;
    // Keys of a field, button, picker or menu opened from a cell are theirs, not the grid's.
    if (e.target !== e.currentTarget && target.closest('input, textarea, select, button, [role="dialog"], [role="menu"]')) return;
    const a = store.active.value;
    const ctrl = e.ctrlKey || e.metaKey;
    if (editing) return;
    if (head !== null) {
      // The header row: left and right between headers, down back to the rows, Enter opens the column's menu.
      const to = (col: number) => (e.preventDefault(), setHead(Math.max(0, Math.min(colCount - 1, col))));
      if (e.key === 'ArrowLeft') to(head - 1);
      else if (e.key === 'ArrowRight') to(head + 1);
      else if (e.key === 'Home') to(0);
      else if (e.key === 'End') to(colCount - 1);
      else if (e.key === 'ArrowDown' && !e.altKey && store.size() > 0) {
        e.preventDefault();
        setHead(null);
        store.active.value = { row: 0, col: head };
        rows.scrollToIndex(0);
      } else if (e.key === 'Enter' || e.key === 'F2' || e.key === ' ' || (e.key === 'ArrowDown' && e.altKey)) {
        e.preventDefault();
        document.getElementById(headId(head))?.querySelector<HTMLElement>('.grid-th-menu')?.click();
      } else if (e.key === 'Escape') setHead(null);
      return;
    }
    if (!a) {
      // Keyboard users start on the first cell with an arrow, Enter or F2 (on the headers when there are no rows).
      if ((e.key.startsWith('Arrow') || e.key === 'Enter' || e.key === 'F2' || e.key === 'Home' || e.key === 'PageDown') && e.target === e.currentTarget && colCount > 0) {
        e.preventDefault();
        if (store.size() > 0) store.active.value = { row: 0, col: 0 };
        else setHead(0);
      }
      return;
    }
    const move = (row: number, col: number) => {
      e.preventDefault();
      // shift+arrows grow a range from where it started (over data columns); other moves leave it.
      if (e.shiftKey && e.key.startsWith('Arrow') && !isRelation(col)) setAnchor((x) => x ?? a);
      else setAnchor(null);
      const next = { row: Math.max(0, Math.min(store.size() - 1, row)), col: Math.max(0, Math.min(colCount - 1, col)) };
      store.active.value = next;
      rows.scrollToIndex(next.row);
      if (isRelation(next.col)) reveal(cellId(next.row, next.col));
      else showColumn(next.col);
    };
    const col = isRelation(a.col) ? undefined : columns[a.col];
    const writable = !!col && !readOnly && !locked(col);
    if (e.key === 'ArrowDown') move(a.row + 1, a.col);
    else if (e.key === 'ArrowUp' && a.row === 0 && !e.shiftKey) {
      // Up from the first row reaches the column headers.
      e.preventDefault();
      setAnchor(null);
      store.active.value = null;
      setHead(a.col);
    } else if (e.key === 'ArrowUp') move(a.row - 1, a.col);
    else if (e.key === 'PageDown') move(a.row + pageRows(), a.col);
    else if (e.key === 'PageUp') move(a.row - pageRows(), a.col);
    else if (e.key === 'Home') move(ctrl ? 0 : a.row, 0);
    else if (e.key === 'End') move(ctrl ? store.size() - 1 : a.row, colCount - 1);
    // Tab moves along the row and leaves the grid past its last (or, with shift, first) column.
    else if (e.key === 'ArrowRight' || (e.key === 'Tab' && !e.shiftKey && a.col < colCount - 1)) move(a.row, a.col + 1);
    else if (e.key === 'ArrowLeft' || (e.key === 'Tab' && e.shiftKey && a.col > 0)) move(a.row, a.col - 1);
    else if (e.key === 'Enter' || e.key === 'F2') {
      e.preventDefault();
      // A checkbox toggles; other writable cells open their editor; relation cells open their picker.
      if (col && writable && col.kind === 'boolean') void save(a.row, a.col, !store.rows.value.get(a.row)?.[col._cn]);
      else if (col && writable) setEditing(a);
      else if (!col) pressFirstAction(document.getElementById(cellId(a.row, a.col)));
    } else if (e.key === ' ' && e.shiftKey) {
      // shift+Space ticks the row (for deleting several); Space opens it in the expanded form.
      e.preventDefault();
      if (mayDelete && store.rows.value.has(a.row)) store.toggleSelected(a.row);
    } else if (e.key === ' ' && !ctrl) {
      e.preventDefault();
      if (store.rows.value.has(a.row)) setExpanded(a.row);
    } else if (e.key === 'Escape') (store.active.value = null), setAnchor(null);
    else if ((e.key === 'Delete' || e.key === 'Backspace') && anchor && (anchor.row !== a.row || anchor.col !== a.col) && !readOnly) {
      // A range: every cell of it the user may change is emptied, as one undo step.
      e.preventDefault();
      void clearBlock(store, rangeOf(anchor, a), columns, (c) => !locked(c)).then(
        (o) => (toast(o.problems.length ? 'error' : 'success', clearedText(o)), store.refresh()),
        (err) => toast('error', (err as Error).message),
      );
    } else if ((e.key === 'Delete' || e.key === 'Backspace') && col && writable) {
      e.preventDefault();
      void save(a.row, a.col, col.nullable ? null : '');
    } else if (e.key.length === 1 && !ctrl && !e.altKey && col && writable && col.kind !== 'boolean') {
      // Typing on a selected cell starts editing it with that character.
      e.preventDefault();
      setEditing({ ...a, typed: e.key });
    }
  };

  const range = store.active.value ? rangeOf(anchor ?? store.active.value, store.active.value) : null;
  /** ctrl+c: the range (or the active cell) as TSV and an HTML table, which spreadsheets paste. */
  const onCopy = (e: React.ClipboardEvent) => {
    if (editing || !range || range.left >= columns.length) return;
    const out: string[][] = [];
    for (let r = range.top; r <= range.bottom; r++) {
      const row = store.rows.value.get(r);
      const line: string[] = [];
      for (let c = range.left; c <= Math.min(range.right, columns.length - 1); c++) line.push(row ? cellText(row[columns[c]!._cn], columns[c]) : '');
      out.push(line);
    }
    e.clipboardData.setData('text/plain', toTsv(out));
    e.clipboardData.setData('text/html', toHtml(out));
    e.preventDefault();
  };
  /** ctrl+v: a TSV block from a spreadsheet, at the active cell, as one bulk update (and insert). */
  const onPaste = (e: React.ClipboardEvent) => {
    const at = store.active.value;
    // A role that may add rows but not change them still pastes rows past the last one.
    if (editing || (readOnly && !mayAdd) || !at || at.col >= columns.length) return;
    // Files pasted onto an Attachment cell are uploaded to it.
    const pastedFiles = [...e.clipboardData.files];
    const ac = columns[at.col]!;
    const arow = store.rows.value.get(at.row);
    if (ac.uidt === 'Attachment' && pastedFiles.length && arow && !readOnly && !locked(ac)) {
      e.preventDefault();
      void uploadToCell({ projectId: props.projectId, table: meta._tn, rowId: store.idOf(arow), column: ac._cn }, pastedFiles, (p) => setUploads((u) => ({ ...u, [`${at.row}:${ac._cn}`]: p })), (v) => store.setCell(at.row, ac._cn, v));
      return;
    }
    const text = e.clipboardData.getData('text/plain');
    if (!text) return;
    e.preventDefault();
    // Rows past the last one are added only with the right to add rows, with the columns the role may set on one.
    const settable = (c: ColumnMeta & { virtual?: unknown }) => !c.pk && !c.virtual && (!meta.canCreateColumns || meta.canCreateColumns.includes(c._cn));
    void pasteBlock(store, text, at, columns, (c) => !readOnly && !locked(c), { may: mayAdd, settable }).then(
      (o) => (toast(o.problems.length || o.notAdded || o.addFailed ? 'error' : 'success', outcomeText(o, meta._tn)), store.refresh()),
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
        (o) => (toast('success', t('grid.fill.done', { count: o.updated, column: columns[f.col]!._cn })), store.refresh()),
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
  // The cell the keyboard is on, for screen readers (the grid keeps the focus; the cell must be drawn).
  const activeId =
    head !== null ? headId(head)
    : active && items.some((v) => v.index === active.row) && (isRelation(active.col) || shown.some((x) => x.ci === active.col)) ? cellId(active.row, active.col)
    : undefined;
  // Once rows are deleted the focus (on the Delete button, gone with the selection, or nowhere) goes back to the rows.
  const rowDelete = useRowDelete(store, () => {
    const at = document.activeElement;
    if (!at || at === document.body || wrapRef.current?.contains(at)) scroller.current?.focus({ preventScroll: true });
  });
  const wrapRef = useRef<HTMLDivElement>(null);
  const fit = useToolbarFit(wrapRef);
  const deleteRows = () => rowDelete.ask(active?.row ?? null);
  // The toolbar's actions are commands of the registry, so menus and shortcuts can run them too.
  const hasSelection = store.selected.value.size > 0 || !!active;
  useEffect(() => {
    activeGrid.value = {
      reload: () => store.reload(), addRow: () => setAdding(true), deleteRows, canAdd: mayAdd, canDelete: mayDelete, hasSelection,
      addColumn: canEditSchema ? () => (schemaDialog.value = { kind: 'addColumn', scope, meta }) : undefined,
    };
  });
  useEffect(() => () => void (activeGrid.value = null), []);
  const deleteLabel = store.selected.value.size ? t('grid.toolbar.deleteSelected', { count: store.selected.value.size }) : t('grid.toolbar.deleteRow');
  const groupColumns = all.filter((c) => !c.hidden && !c.virtual);
  const webhooks = canEditSchema ? () => (hookDialog.value = { scope, tn: meta.tn, _tn: meta._tn }) : undefined;
  // A saved view's export is named after the view; the table's own view's after the table.
  const view = binding ? (binding.store.byId(binding.view.id) ?? binding.view) : undefined;
  const fileName = view && !view.is_default ? view.title : meta._tn;
  const transferProps = { projectId: props.projectId, dbAlias: props.dbAlias, meta, fileName, query: store.exportQuery(columns.map((c) => c._cn)), canImport: mayAdd };
  const transfers = useTransfers(transferProps);
  return (
    <div className={`grid-wrap fit-${fit}`} ref={wrapRef} onKeyDown={onToolbarKey}>
      <div className="grid-toolbar">
        <QueryToolbar key={store.revision.value} store={store} columns={all.filter((c) => !c.hidden)} displayColumn={meta.displayColumn} />
        <span className="grid-toolbar-end">
          {/* A read that failed (its error shows above the rows) has no count to give: none is shown rather than 'unknown rows'. */}
          {store.error.value ? null : <span className="grid-count" data-testid="row-count">{count === null ? t('grid.toolbar.counting') : count === 'unknown' ? t('grid.toolbar.unknownRows') : t('grid.toolbar.rowCount', { count })}</span>}
          <Button variant="secondary" title={command('grid.reload').label} onClick={command('grid.reload').run}><RefreshCw size={15} aria-hidden /></Button>
        </span>
      </div>
      {/* The second row: adding rows, how they are shown (fields, height, groups), deleting the chosen ones, then what goes in and out
          (in the More menu where the toolbar is narrow: toolbar-fit.ts). */}
      <div className="grid-toolbar grid-toolbar-actions">
        {mayAdd ? <Button onClick={command('grid.addRow').run}>{command('grid.addRow').label}</Button> : null}
        <FieldsMenu store={store} columns={all.filter((c) => !c.hidden)} />
        {fit === 'phone' ? null : (
          <>
            <RowHeightMenu store={store} />
            <GroupByMenu store={store} columns={groupColumns} />
          </>
        )}
        {mayDelete ? (
          // Always laid out (hidden without a selection), so choosing a cell never moves the grid under the pointer.
          <span className="toolbar-slot" style={{ visibility: hasSelection ? 'visible' : 'hidden' }} aria-hidden={!hasSelection}>
            <button type="button" className="btn btn-danger grid-delete" onClick={command('grid.deleteRows').run} disabled={!hasSelection} aria-label={fit === 'phone' ? deleteLabel : undefined} title={fit === 'phone' ? deleteLabel : undefined}>
              {fit === 'phone' ? <Trash2 size={15} aria-hidden /> : deleteLabel}
            </button>
          </span>
        ) : null}
        <span className="grid-toolbar-end">
          {fit === 'wide' ? (
            <>
              {webhooks ? <Button variant="ghost" onClick={webhooks}>{t('grid.toolbar.webhooks')}</Button> : null}
              <TransferButtons {...transferProps} />
            </>
          ) : (
            <GridMoreMenu store={store} groupColumns={fit === 'phone' ? groupColumns : undefined} webhooks={webhooks} importInto={transfers.importInto} exportAs={transfers.exportAs} exportBusy={transfers.busy} />
          )}
        </span>
      </div>
      {rowDelete.dialog}
      {meta.readOnly ? <div className="read-only-note">{t('grid.readOnly', { reason: translateServerMessage(meta.readOnly, locale.value) })}</div> : null}
      {store.error.value ? <div className="form-message form-message-error">{store.error.value}</div> : null}
      {adding ? <AddRowForm meta={meta} parents={parents} initial={adding === true ? undefined : adding} upload={(column, file, onProgress) => uploadFormFile(props.projectId, meta._tn, column, file, onProgress)} onCancel={() => setAdding(false)} onSubmit={async (v) => { await track(t('grid.addRow.saving'), store.create(v), t('grid.addRow.saved')); setAdding(false); }} /> : null}
      {shownOpen ? (
        <ExpandForm
          // Another row is another form.
          key={store.idOf(shownOpen.row)}
          meta={meta}
          row={shownOpen.row}
          readOnly={readOnly}
          parents={parents}
          links={opened ? <RelationList store={store} meta={meta} index={opened.index} readOnly={readOnly} /> : null}
          activity={{ projectId: props.projectId, dbAlias: props.dbAlias, pk: store.idOf(shownOpen.row), canComment }}
          onClose={() => setExpanded(null)}
          onDuplicate={mayAdd ? (texts) => (setExpanded(null), setAdding(texts)) : undefined}
          onUploaded={(column, value) => opened && store.setCell(opened.index, column, value)}
          onSave={async (changes) => {
            await track(t('grid.expand.saving'), recordsApi.update(props.projectId, meta._tn, store.idOf(shownOpen.row), changes).then(() => store.refreshRow(shownOpen.index)), t('grid.expand.saved'));
            setExpanded(null);
          }}
        />
      ) : null}
      {groupBy ? <GroupedRows store={store} meta={meta} column={groupBy} columns={columns} widthOf={widthOf} readOnly={readOnly} locked={locked} dbAlias={props.dbAlias} canComment={canComment} /> : null}
      <div
        className={`grid row-h-${store.rowHeight.value}`}
        hidden={!!groupBy}
        role="grid"
        aria-label={t('grid.label', { table: meta._tn })}
        aria-multiselectable
        aria-rowcount={typeof count === 'number' ? count + 1 : -1}
        aria-colcount={colCount + 1 + (canEditSchema ? 1 : 0)}
        aria-activedescendant={activeId}
        tabIndex={0}
        onKeyDown={onKey}
        onCopy={onCopy}
        onPaste={onPaste}
        ref={scroller}
      >
        <div className="grid-head" role="row" aria-rowindex={1}>
          <div className="grid-index" role="presentation" />
          <div className="col-pad" style={{ width: leftPad }} />
          {shown.map(({ c, ci }) => (
            <ColumnHeader
              key={c.cn}
              id={headId(ci)}
              colIndex={ci + 2}
              focused={head === ci}
              sort={sortOf(store.sort.value, c._cn)}
              onMenuClosed={() => head === ci && scroller.current?.focus({ preventScroll: true })}
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
          {relations.map((r, i) => (
            <RelationHeader
              key={`${r.type}:${r.alias}`}
              id={headId(columns.length + i)}
              colIndex={columns.length + i + 2}
              focused={head === columns.length + i}
              onMenuClosed={() => head === columns.length + i && scroller.current?.focus({ preventScroll: true })}
              target={{ scope, meta, relation: r }}
            />
          ))}
          {canEditSchema ? (
            <div className="grid-th add-col-th" role="columnheader" aria-colindex={colCount + 2} aria-label={t('grid.header.newColumn')}>
              <button className="add-col-btn" aria-label={command('grid.addColumn').label} title={command('grid.addColumn').label} onClick={command('grid.addColumn').run}><Plus size={15} aria-hidden /></button>
            </div>
          ) : null}
        </div>
        {count === 0 ? <div className="grid-empty muted">{store.where.value ? t('grid.empty.noMatch') : store.search.value ? t('grid.empty.noSearchMatch') : t('grid.empty.noRows')}</div> : null}
        <div ref={rowsBox} style={{ height: rows.height, position: 'relative' }}>
          {items.map((vr) => {
            const row = store.rows.value.get(vr.index);
            return (
              // The row being edited keeps its element (and the editor its typed text) when it moves to another place.
              <div key={row && editState?.id != null && editing?.row === vr.index ? `edit:${editState.id}` : vr.index} className="grid-row" role="row" aria-rowindex={vr.index + 2} aria-selected={store.selected.value.has(vr.index) || undefined} style={{ transform: `translateY(${vr.start}px)`, height: rowHeight }}>
                <div className="grid-index" role="rowheader" aria-colindex={1}>
                  {!readOnly && row ? (
                    <input type="checkbox" className="row-select" aria-label={t('grid.row.select', { row: String(vr.index + 1) })} checked={store.selected.value.has(vr.index)} onChange={() => store.toggleSelected(vr.index)} />
                  ) : null}
                  <span className="row-number">{vr.index + 1}</span>
                  {row ? <button className="expand-btn" aria-label={t('grid.row.expand', { row: String(vr.index + 1) })} onClick={() => setExpanded(vr.index)}><Maximize2 size={12} aria-hidden /></button> : null}
                  {row && comments[store.idOf(row)] ? (
                    <button className="comment-count" aria-label={t('grid.row.comments', { count: comments[store.idOf(row)]!, row: String(vr.index + 1) })} onClick={() => setExpanded(vr.index)}><MessageSquare size={12} aria-hidden /> {comments[store.idOf(row)]}</button>
                  ) : null}
                </div>
                <div className="col-pad" style={{ width: leftPad }} />
                {shown.map(({ c, ci }) => {
                  const isActive = active?.row === vr.index && active.col === ci;
                  const isEditing = editing?.row === vr.index && editing.col === ci;
                  return (
                    <div
                      key={c.cn}
                      id={cellId(vr.index, ci)}
                      role="gridcell"
                      aria-colindex={ci + 2}
                      aria-selected={isActive || (!!anchor && inRange(range, vr.index, ci))}
                      aria-readonly={readOnly || locked(c) || undefined}
                      className={`grid-cell${isActive ? ' active' : ''}${inRange(range, vr.index, ci) && (anchor ? true : false) ? ' in-range' : ''}${fill && fill.col === ci && vr.index > fill.from && vr.index <= fill.to ? ' in-fill' : ''}${stickyLeft(ci) !== undefined ? ' frozen' : ''}`}
                      style={{ width: widthOf(c._cn), left: stickyLeft(ci) }}
                      onMouseDown={(e) => {
                        // Controls inside a cell (stars, checkboxes, links, chips) keep their own clicks.
                        if (e.button !== 0 || isEditing || (e.target as HTMLElement).closest('button, input, select, a, label, [role="checkbox"]')) return;
                        const here = { row: vr.index, col: ci };
                        setHead(null);
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
                        <CellEditor column={c} value={row[c._cn]} changedBy={store.writers.get(store.idOf(row))} typed={editing?.typed} onSave={(v) => save(vr.index, ci, v)} onCancel={stopEditing} onBlur={() => setEditing(null)} />
                      ) : c.uidt === 'Attachment' && meta.pks.length ? (
                        <AttachmentCell
                          target={{ projectId: props.projectId, table: meta._tn, rowId: store.idOf(row), column: c._cn }}
                          value={row[c._cn]}
                          readOnly={readOnly || locked(c)}
                          progress={uploads[`${vr.index}:${c._cn}`] ?? null}
                          onProgress={(p) => setUploads((u) => ({ ...u, [`${vr.index}:${c._cn}`]: p }))}
                          onValue={(v) => store.setCell(vr.index, c._cn, v)}
                          onRemove={(next) => store.save(vr.index, c._cn, next)}
                        />
                      ) : (
                        <CellView column={c} value={row[c._cn]} readOnly={readOnly || locked(c)} onToggle={() => save(vr.index, ci, !row[c._cn])} onSet={(v) => save(vr.index, ci, v)} />
                      )}
                      {isActive && !isEditing && row && !readOnly && !locked(c) ? (
                        <span
                          className="fill-handle"
                          aria-hidden="true"
                          title={t('grid.fill.title')}
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
                {relations.map((r, i) => {
                  const ci = columns.length + i;
                  const isActive = active?.row === vr.index && active.col === ci;
                  return (
                  <div
                    key={`${r.type}:${r.alias}`}
                    id={cellId(vr.index, ci)}
                    role="gridcell"
                    aria-colindex={ci + 2}
                    aria-selected={isActive}
                    className={`grid-cell relation${isActive ? ' active' : ''}`}
                    onMouseDown={() => (setHead(null), setAnchor(null))}
                    onClick={() => (store.active.value = { row: vr.index, col: ci })}
                  >
                    {row ? <RelationCell store={store} meta={meta} relation={r} row={row} index={vr.index} readOnly={readOnly} /> : <span className="cell-loading" />}
                  </div>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** How the grid is sorted by a column ('-Name,Id': descending by Name first), for aria-sort on its header. */
export function sortOf(sort: string, column: string): 'ascending' | 'descending' | undefined {
  const first = sort.split(',')[0]?.trim() ?? '';
  if (first === column) return 'ascending';
  if (first === `-${column}`) return 'descending';
  return undefined;
}

/** Position of a column in the view's order (unknown ones after the known, in table order). */
function rank(order: string[], name: string): number {
  const i = order.indexOf(name);
  return i < 0 ? order.length : i;
}
