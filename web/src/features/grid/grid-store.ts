/**
 * The grid's hot state, outside React: rows fetched page by page as they scroll into view, the
 * count fetched apart ('unknown' when it times out), the active cell, filters, sorts, fields, widths
 * and row height kept by a persistence (the saved view; per table in localStorage when there is
 * none), and saving edits through the REST API.
 */
import { recordsApi } from '../../api/records';
import type { TableMeta } from '../../api/dashboard';
import { signal } from '../../stores/signals';
import { undoStackOf } from './undo-stack';
import { jsonColumns } from './written-rows';
import { toSort, type FilterRow, type SortRow } from './query-builder';
import type { RowHeight } from '../../api/views';
import { andWhere, clampWidth } from '../views/view-state';
import { searchWhere } from '../views/row-source';

type Row = Record<string, unknown>;
export const PAGE = 100;

/** What a grid remembers between visits. */
export interface GridState {
  where: string;
  sort: string;
  hidden: string[];
  widths: Record<string, number>;
  builder: { filters: FilterRow[]; sorts: SortRow[]; search: string; raw: string | null };
  /** Column names in the grid's order (empty: the table's order). */
  order?: string[];
  rowHeight?: RowHeight;
  /** Column whose values group the rows. */
  groupBy?: string;
}

/** Where a grid's state is kept: a saved view, or the browser for a table without views. */
export interface GridPersistence {
  load(): Partial<GridState> | null;
  save(state: GridState): void;
}

/** The grid's state per project and table in localStorage. */
export function localPersistence(projectId: string, tn: string): GridPersistence {
  const key = `tablo.grid.${projectId}.${tn}`;
  return {
    load: () => {
      const saved = localStorage.getItem(key);
      return saved ? (JSON.parse(saved) as Partial<GridState>) : null;
    },
    save: (state) => localStorage.setItem(key, JSON.stringify(state)),
  };
}

export class GridStore {
  /** Who last changed a row by a live update (row id -> e-mail): an editor open on it names them. */
  readonly writers = new Map<string, string>();
  readonly rows = signal<Map<number, Row>>(new Map());
  readonly count = signal<number | 'unknown' | null>(null);
  /** Rows known to exist when the count is not known yet. */
  readonly known = signal(0);
  readonly active = signal<{ row: number; col: number } | null>(null);
  /** Row indexes ticked for deletion. */
  readonly selected = signal<Set<number>>(new Set());
  readonly error = signal<string | null>(null);
  readonly where = signal('');
  readonly sort = signal('');
  /** Columns the user hid in this grid, and column widths in px (kept per table). */
  readonly hidden = signal<string[]>([]);
  readonly widths = signal<Record<string, number>>({});
  /** The filter and sort builders' state (or a raw where string), kept per table. */
  readonly builder = signal<{ filters: FilterRow[]; sorts: SortRow[]; search: string; raw: string | null }>({ filters: [], sorts: [], search: '', raw: null });
  /** Text searched in the display column, ANDed with the filters (not kept). */
  readonly search = signal('');
  /** Column names in the grid's order (empty: the table's order). */
  readonly order = signal<string[]>([]);
  readonly rowHeight = signal<RowHeight>('short');
  readonly groupBy = signal<string | undefined>(undefined);
  /** Bumped when rows are added or deleted (grouped rows count again). */
  readonly writes = signal(0);
  /** Bumped when the builders' state changes from outside the toolbar (a column menu's sort). */
  readonly revision = signal(0);
  private pending = new Set<number>();
  private generation = 0;
  /**
   * Other users' updates merged into the rows, by row id, each with the sequence number it was merged
   * at: a page read that was on its way when one arrived gets it laid over its (older) answer.
   */
  private merged = new Map<string, { seq: number; values: Row }>();
  private mergeSeq = 0;
  /** The sequence number each page read under way was sent at. */
  private reads: number[] = [];
  /** Bumped by every refresh: an earlier refresh answered after a later one is dropped. */
  private refreshes = 0;
  /** The refresh under way, and whether another was asked for meanwhile. */
  private refreshing: Promise<void> | null = null;
  private refreshAgain = false;
  /** Bumped by every count asked: only the latest one's answer is shown. */
  private counts = 0;
  /** The where the count shown (or on its way) was asked with; null before the first. */
  private countedWhere: string | null = null;
  /** The rows in view, [from, to), as the grid last showed them. */
  private view = { from: 0, to: PAGE };

  private readonly persistence: GridPersistence;
  /**
   * The where that is kept (in the saved view, or in this browser): the one shown, once a read
   * with it succeeded. A where the server cannot read (a misspelt column typed in Where…) shows its
   * error above the grid and is not saved, so the view keeps its last working filter (saving it
   * was refused too, in a second, raw toast).
   */
  private keptWhere = '';
  /** Set by a new where: the state is saved once a read with it succeeds. */
  private saveOnRead = false;

  /** The table as last read (columns, relations, rights); changed by `setMeta` after a schema change. */
  meta: TableMeta;

  constructor(readonly projectId: string, meta: TableMeta, persistence?: GridPersistence) {
    this.meta = meta;
    this.persistence = persistence ?? localPersistence(projectId, meta.tn);
    const s = this.persistence.load();
    if (s) {
      if (s.builder) this.builder.value = s.builder;
      this.where.value = s.where ?? '';
      this.keptWhere = this.where.value;
      this.sort.value = s.sort ?? '';
      this.hidden.value = s.hidden ?? [];
      this.widths.value = s.widths ?? {};
      this.order.value = s.order ?? [];
      this.rowHeight.value = s.rowHeight ?? 'short';
      this.groupBy.value = s.groupBy;
    }
  }

  /**
   * The table read again after a schema change (a column added, renamed, retyped or removed, by anyone):
   * the rows shown are read again in place, so the scroll position, the selection and a cell being
   * edited hold.
   */
  setMeta(meta: TableMeta): void {
    if (meta === this.meta) return;
    this.meta = meta;
    void this.refresh();
  }

  /** The where sent with every read: the filters and the search. */
  effectiveWhere(): string {
    return andWhere(this.where.value, searchWhere(this.meta.displayColumn, this.search.value));
  }

  /**
   * What an export of the grid asks: the rows shown (filters and the search), their order, and the
   * columns shown (`shown`, in the grid's order; none hidden: all of them).
   */
  exportQuery(shown: string[]): { where?: string; sort?: string; fields?: string } {
    const where = this.effectiveWhere();
    return { where: where || undefined, sort: this.sort.value || undefined, fields: this.hidden.value.length || this.order.value.length ? shown.join(',') : undefined };
  }

  /** Applies filter, sort and search (filter and sort are kept) and starts over. */
  setQuery(where: string, sort: string, search = this.search.value): void {
    const newWhere = where !== this.where.value;
    this.where.value = where;
    this.sort.value = sort;
    this.search.value = search;
    // A new where is saved once it reads (see keptWhere); a sort or a search at once.
    if (newWhere) this.saveOnRead = true;
    else this.persist();
    this.reload(true);
  }

  /** Sets the column order (names). */
  setOrder(names: string[]): void {
    this.order.value = names;
    this.persist();
  }

  setRowHeight(h: RowHeight): void {
    this.rowHeight.value = h;
    this.persist();
  }

  setGroupBy(column: string | undefined): void {
    this.groupBy.value = column || undefined;
    this.persist();
  }

  /** Sorts by one column only (the column menu's sort ascending / descending); filters stay. */
  sortBy(column: string, desc: boolean): void {
    const sorts: SortRow[] = [{ column, desc }];
    this.builder.value = { ...this.builder.value, sorts };
    this.revision.value++;
    this.setQuery(this.where.value, toSort(sorts));
  }

  toggleField(name: string): void {
    this.hidden.value = this.hidden.value.includes(name) ? this.hidden.value.filter((h) => h !== name) : [...this.hidden.value, name];
    this.persist();
  }

  setWidth(name: string, px: number): void {
    this.widths.value = { ...this.widths.value, [name]: clampWidth(px) };
    this.persist();
  }

  /**
   * Takes the saved view's state when it changed elsewhere (someone else, another tab): fields,
   * widths, order, row height and grouping at once; a new filter or sort reads the rows again.
   */
  adopt(s: Partial<GridState>): void {
    const hidden = s.hidden ?? [];
    if (hidden.length !== this.hidden.value.length || hidden.some((h) => !this.hidden.value.includes(h))) this.hidden.value = hidden;
    const widths = s.widths ?? {};
    const keys = new Set([...Object.keys(widths), ...Object.keys(this.widths.value)]);
    if ([...keys].some((k) => (widths[k] ?? null) !== (this.widths.value[k] ?? null))) this.widths.value = widths;
    const order = s.order ?? [];
    if (order.join('\u0000') !== this.order.value.join('\u0000')) this.order.value = order;
    if ((s.rowHeight ?? 'short') !== this.rowHeight.value) this.rowHeight.value = s.rowHeight ?? 'short';
    if (s.groupBy !== this.groupBy.value) this.groupBy.value = s.groupBy;
    const where = s.where ?? '';
    const sort = s.sort ?? '';
    if (where.trim() === this.where.value.trim() && sort.trim() === this.sort.value.trim()) return;
    // The view read again holds the where this grid last kept (the echo of its own save) while a where
    // the server could not read is being corrected: that where and its error stay.
    if (where.trim() === this.keptWhere.trim() && where.trim() !== this.where.value.trim() && sort.trim() === this.sort.value.trim()) return;
    if (s.builder) this.builder.value = { ...s.builder, search: this.search.value };
    this.revision.value++;
    this.where.value = where;
    this.keptWhere = where;
    this.saveOnRead = false;
    this.sort.value = sort;
    this.reload(true);
  }

  private persist(): void {
    this.persistence.save({
      where: this.keptWhere, sort: this.sort.value, hidden: this.hidden.value, widths: this.widths.value, builder: this.builder.value,
      order: this.order.value, rowHeight: this.rowHeight.value, groupBy: this.groupBy.value,
    });
  }

  /**
   * Starts over: the rows are read again from the first page. The count is asked again unless
   * `sameRows` says the rows are the same ones in another order or layout (a new sort) and the
   * count in hand (or on its way) was asked with the where in force: no new filter, search or where
   * changes how many rows there are, so the footer keeps its number instead of counting again.
   */
  reload(sameRows = false): void {
    this.generation++;
    this.pending.clear();
    this.rows.value = new Map();
    this.selected.value = new Set();
    this.known.value = 0;
    this.error.value = null;
    void this.ensure(0, PAGE);
    if (!sameRows || this.countedWhere !== this.effectiveWhere()) this.recount(true);
  }

  /** Asks the count of the rows under the where in force; `blank` shows "counting…" meanwhile. */
  private recount(blank: boolean): void {
    const where = this.effectiveWhere();
    const mine = ++this.counts;
    this.countedWhere = where;
    if (blank) this.count.value = null;
    recordsApi.count(this.projectId, this.meta._tn, where || undefined).then(
      (r) => mine === this.counts && (this.count.value = r.count),
      // A count that fails (times out) is unknown; a number in hand stays.
      () => mine === this.counts && this.count.value === null && (this.count.value = 'unknown'),
    );
  }

  /**
   * Re-reads the pages in view (and those of the ticked rows and the active cell) and the count in
   * place, after another user's change: the old rows stay until the new ones arrive, so nothing
   * blinks and the scroll position holds. Other pages loaded before are let go (an added or removed
   * row shifted them); they are read again when they come into view. A refresh asked for while one
   * is under way runs once more after it, so a stream of changes never keeps the grid behind.
   */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    const run = async () => {
      do {
        this.refreshAgain = false;
        const gen = this.generation;
        const since = this.beginRead();
        try {
          await this.refreshPages(gen, since);
        } finally {
          this.endRead(since);
        }
      } while (this.refreshAgain);
    };
    this.refreshing = run().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  /** The rows in view changed (the grid scrolled): remembered for refreshes, their missing pages fetched. */
  show(from: number, to: number): Promise<void> {
    this.view = { from, to: Math.max(to, from + 1) };
    return this.ensure(from, to);
  }

  /** The pages a refresh reads again: those of the rows in view, of the ticked rows and of the active cell. */
  private pagesToRefresh(): number[] {
    const pages = new Set<number>();
    for (let p = Math.floor(this.view.from / PAGE); p * PAGE < this.view.to; p++) pages.add(p);
    for (const i of this.selected.value) pages.add(Math.floor(i / PAGE));
    if (this.active.value) pages.add(Math.floor(this.active.value.row / PAGE));
    return [...pages].sort((a, b) => a - b);
  }

  private async refreshPages(gen: number, since: number): Promise<void> {
    const mine = ++this.refreshes;
    const current = () => gen === this.generation && mine === this.refreshes;
    const before = new Set([...this.rows.value.keys()].map((i) => Math.floor(i / PAGE)));
    const pages = this.pagesToRefresh();
    const next = new Map<number, Row>();
    for (const page of pages) {
      const list = await recordsApi.list(this.projectId, this.meta._tn, { limit: PAGE, offset: page * PAGE, where: this.effectiveWhere() || undefined, sort: this.sort.value || undefined, ...this.nesting() });
      if (!current()) return;
      list.forEach((r, i) => next.set(page * PAGE + i, this.withLaterMerges(r, since)));
    }
    // Pages scrolled into view meanwhile were read after this refresh began: they stay.
    const refreshed = new Set(pages);
    for (const [i, r] of this.rows.value) {
      const page = Math.floor(i / PAGE);
      if (!refreshed.has(page) && !before.has(page)) next.set(i, r);
    }
    this.followRows(next);
    this.rows.value = next;
    // Rows added or removed by others: counted again, the number in hand shown meanwhile.
    this.recount(false);
  }

  /**
   * Before rows read again replace the loaded ones: the ticked rows and the active cell stay on their
   * rows (by key) when rows added or removed before them moved them, so a Delete or an edit never
   * lands on the row that took their place; a ticked row no longer among the rows is unticked.
   */
  private followRows(next: Map<number, Row>): void {
    if (!this.meta.pks.length) return;
    const at = new Map<string, number>();
    for (const [i, r] of next) at.set(this.idOf(r), i);
    const placeOf = (i: number) => {
      const row = this.rows.value.get(i);
      return row ? at.get(this.idOf(row)) : i;
    };
    if (this.selected.value.size) {
      const moved = new Set<number>();
      for (const i of this.selected.value) {
        const j = placeOf(i);
        if (j !== undefined) moved.add(j);
      }
      if ([...moved].join() !== [...this.selected.value].join()) this.selected.value = moved;
    }
    const active = this.active.value;
    if (active) {
      const j = placeOf(active.row);
      if (j !== undefined && j !== active.row) this.active.value = { ...active, row: j };
    }
  }

  /** Merges changed values into the loaded rows with these ids (another user's update); answers how many were found. */
  mergeRows(changed: Row[]): number {
    const byId = new Map(changed.map((r) => [this.idOf(r), r]));
    this.remember(byId);
    let found = 0;
    const next = new Map(this.rows.value);
    for (const [i, row] of next) {
      const c = byId.get(this.idOf(row));
      if (c) {
        next.set(i, { ...row, ...c });
        found++;
      }
    }
    if (found) this.rows.value = next;
    return found;
  }

  /** Keeps updated values for the page reads under way, which may answer what was there before. */
  private remember(byId: Map<string, Row>): void {
    if (!this.reads.length) return;
    const seq = ++this.mergeSeq;
    for (const [id, values] of byId) this.merged.set(id, { seq, values: { ...this.merged.get(id)?.values, ...values } });
  }

  /** A row read from the server, with the updates merged after the read was sent laid over it. */
  private withLaterMerges(row: Row, since: number): Row {
    const m = this.merged.size ? this.merged.get(this.idOf(row)) : undefined;
    return m && m.seq > since ? { ...row, ...m.values } : row;
  }

  private beginRead(): number {
    this.reads.push(this.mergeSeq);
    return this.mergeSeq;
  }

  /** Ends a page read; the merged updates that every read still under way has seen are dropped. */
  private endRead(since: number): void {
    this.reads.splice(this.reads.indexOf(since), 1);
    const oldest = this.reads.length ? Math.min(...this.reads) : this.mergeSeq;
    for (const [id, m] of this.merged) if (m.seq <= oldest) this.merged.delete(id);
  }

  /** Fetches the pages covering rows [from, to) that are not loaded yet. */
  async ensure(from: number, to: number): Promise<void> {
    const gen = this.generation;
    for (let page = Math.floor(from / PAGE); page * PAGE < to; page++) {
      if (this.pending.has(page) || this.rows.value.has(page * PAGE)) continue;
      this.pending.add(page);
      const since = this.beginRead();
      try {
        const list = await recordsApi.list(this.projectId, this.meta._tn, { limit: PAGE, offset: page * PAGE, where: this.effectiveWhere() || undefined, sort: this.sort.value || undefined, ...this.nesting() });
        if (gen !== this.generation) return;
        const next = new Map(this.rows.value);
        list.forEach((r, i) => next.set(page * PAGE + i, this.withLaterMerges(r, since)));
        this.rows.value = next;
        this.known.value = Math.max(this.known.value, page * PAGE + list.length + (list.length === PAGE ? PAGE : 0));
        if (this.saveOnRead) {
          this.saveOnRead = false;
          this.keptWhere = this.where.value;
          this.persist();
        }
      } catch (e) {
        if (gen === this.generation) this.error.value = (e as Error).message;
      } finally {
        this.pending.delete(page);
        this.endRead(since);
      }
    }
  }

  /** Relations shown as columns: nested with their key and display value, a few per cell. */
  private nesting(): Record<string, string> {
    const out: Record<string, string> = {};
    (['hm', 'bt', 'mm'] as const).forEach((type) => {
      const rels = this.meta.relations.filter((r) => r.type === type && !(r.type === 'hm' && r.targetIsJunction));
      if (!rels.length) return;
      out[type] = rels.map((r) => r.alias).join(',');
      if (type !== 'bt') rels.forEach((_, i) => (out[`${type === 'hm' ? 'h' : 'm'}limit${i + 1}`] = '10'));
    });
    return out;
  }

  /** Re-reads one row (after a relation change) keeping its nested relations. */
  async refreshRow(index: number): Promise<void> {
    const row = this.rows.value.get(index);
    if (!row) return;
    const gen = this.generation;
    const where = this.meta.pks.map((pk) => `(${pk},eq,${String(row[pk])})`).join('~and');
    const [fresh] = await recordsApi.list(this.projectId, this.meta._tn, { limit: 1, offset: 0, where, ...this.nesting() });
    // The grid started over meanwhile (another filter or sort): the index is another row's now.
    if (!fresh || gen !== this.generation) return;
    const next = new Map(this.rows.value);
    next.set(index, fresh);
    this.rows.value = next;
  }

  /** How many rows the grid should lay out. */
  size(): number {
    const c = this.count.value;
    return typeof c === 'number' ? c : this.known.value;
  }

  idOf(row: Row): string {
    return this.meta.pks.map((pk) => String(row[pk])).join('___');
  }

  /** The stored columns of a row (no nested relations, no computed columns): what a write takes back. */
  storedValues(row: Row): Row {
    const out: Row = {};
    for (const c of this.meta.columns) if (c._cn in row) out[c._cn] = row[c._cn];
    return out;
  }

  /** Saves one cell; the row is replaced by the row the server re-read. */
  async save(index: number, column: string, value: unknown): Promise<void> {
    const row = this.rows.value.get(index);
    if (!row) return;
    const gen = this.generation;
    const updated = await recordsApi.update(this.projectId, this.meta._tn, this.idOf(row), { [column]: value });
    if (this.meta.pks.length) undoStackOf(this.projectId).record({ kind: 'update', projectId: this.projectId, table: this.meta._tn, id: this.idOf(row), before: { [column]: row[column] }, after: { [column]: updated[column] }, json: jsonColumns(this.meta) });
    // The answer holds the table's own columns: related rows and computed values shown in the grid stay,
    // and computed values are read again when the table has any.
    this.remember(new Map([[this.idOf(row), updated]]));
    if (gen !== this.generation) return;
    const next = new Map(this.rows.value);
    next.set(index, { ...row, ...updated });
    this.rows.value = next;
    if (this.meta.virtuals?.length) await this.refreshRow(index).catch(() => {});
  }

  /** Sets one cell to a value the server already wrote (an attachment upload answers the new list). */
  setCell(index: number, column: string, value: unknown): void {
    const row = this.rows.value.get(index);
    if (!row) return;
    const next = new Map(this.rows.value);
    next.set(index, { ...row, [column]: value });
    this.rows.value = next;
  }

  async create(values: Row): Promise<void> {
    const made = await recordsApi.create(this.projectId, this.meta._tn, values);
    if (this.meta.pks.length && made) undoStackOf(this.projectId).record({ kind: 'insert', projectId: this.projectId, table: this.meta._tn, id: this.idOf(made), row: this.storedValues(made), json: jsonColumns(this.meta) });
    this.writes.value++;
    this.reload();
  }

  toggleSelected(index: number): void {
    const next = new Set(this.selected.value);
    if (next.has(index)) next.delete(index);
    else next.add(index);
    this.selected.value = next;
  }

  /** Deletes the ticked rows in one all-or-nothing call. */
  async removeSelected(): Promise<number> {
    const rows = [...this.selected.value].map((i) => this.rows.value.get(i)).filter((r): r is Row => !!r);
    const ids = rows.map((r) => this.idOf(r));
    if (!ids.length) return 0;
    const n = await recordsApi.removeMany(this.projectId, this.meta._tn, ids);
    undoStackOf(this.projectId).record({ kind: 'delete', projectId: this.projectId, table: this.meta._tn, rows: rows.map((r) => ({ id: this.idOf(r), row: this.storedValues(r) })), json: jsonColumns(this.meta) });
    this.writes.value++;
    this.reload();
    return n;
  }

  async remove(index: number): Promise<void> {
    const row = this.rows.value.get(index);
    if (!row) return;
    await recordsApi.remove(this.projectId, this.meta._tn, this.idOf(row));
    undoStackOf(this.projectId).record({ kind: 'delete', projectId: this.projectId, table: this.meta._tn, rows: [{ id: this.idOf(row), row: this.storedValues(row) }], json: jsonColumns(this.meta) });
    this.writes.value++;
    this.reload();
  }
}
