/**
 * The grid's hot state, outside React: rows fetched page by page as they scroll into view, the
 * count fetched apart ('unknown' when it times out), the active cell, filters and sorts kept per
 * table in localStorage, and saving edits through the REST API.
 */
import { recordsApi } from '../../api/records';
import type { TableMeta } from '../../api/dashboard';
import { signal } from '../../stores/signals';
import { toSort, type FilterRow, type SortRow } from './query-builder';

type Row = Record<string, unknown>;
export const PAGE = 100;

export class GridStore {
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
  /** Bumped when the builders' state changes from outside the toolbar (a column menu's sort). */
  readonly revision = signal(0);
  private pending = new Set<number>();
  private generation = 0;

  constructor(readonly projectId: string, readonly meta: TableMeta) {
    const saved = localStorage.getItem(this.storageKey);
    if (saved) {
      const s = JSON.parse(saved) as { where?: string; sort?: string; hidden?: string[]; widths?: Record<string, number>; builder?: GridStore['builder']['value'] };
      if (s.builder) this.builder.value = s.builder;
      this.where.value = s.where ?? '';
      this.sort.value = s.sort ?? '';
      this.hidden.value = s.hidden ?? [];
      this.widths.value = s.widths ?? {};
    }
  }

  private get storageKey() {
    return `tablo.grid.${this.projectId}.${this.meta.tn}`;
  }

  /** Applies filter and sort (kept per table) and starts over. */
  setQuery(where: string, sort: string): void {
    this.where.value = where;
    this.sort.value = sort;
    this.persist();
    this.reload();
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
    this.widths.value = { ...this.widths.value, [name]: Math.max(60, Math.min(800, Math.round(px))) };
    this.persist();
  }

  private persist(): void {
    localStorage.setItem(this.storageKey, JSON.stringify({ where: this.where.value, sort: this.sort.value, hidden: this.hidden.value, widths: this.widths.value, builder: this.builder.value }));
  }

  reload(): void {
    this.generation++;
    this.pending.clear();
    this.rows.value = new Map();
    this.selected.value = new Set();
    this.known.value = 0;
    this.count.value = null;
    this.error.value = null;
    void this.ensure(0, PAGE);
    const gen = this.generation;
    recordsApi.count(this.projectId, this.meta._tn, this.where.value || undefined).then(
      (r) => gen === this.generation && (this.count.value = r.count),
      () => gen === this.generation && (this.count.value = 'unknown'),
    );
  }

  /** Fetches the pages covering rows [from, to) that are not loaded yet. */
  async ensure(from: number, to: number): Promise<void> {
    const gen = this.generation;
    for (let page = Math.floor(from / PAGE); page * PAGE < to; page++) {
      if (this.pending.has(page) || this.rows.value.has(page * PAGE)) continue;
      this.pending.add(page);
      try {
        const list = await recordsApi.list(this.projectId, this.meta._tn, { limit: PAGE, offset: page * PAGE, where: this.where.value || undefined, sort: this.sort.value || undefined, ...this.nesting() });
        if (gen !== this.generation) return;
        const next = new Map(this.rows.value);
        list.forEach((r, i) => next.set(page * PAGE + i, r));
        this.rows.value = next;
        this.known.value = Math.max(this.known.value, page * PAGE + list.length + (list.length === PAGE ? PAGE : 0));
      } catch (e) {
        if (gen === this.generation) this.error.value = (e as Error).message;
      } finally {
        this.pending.delete(page);
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
    const where = this.meta.pks.map((pk) => `(${pk},eq,${String(row[pk])})`).join('~and');
    const [fresh] = await recordsApi.list(this.projectId, this.meta._tn, { limit: 1, offset: 0, where, ...this.nesting() });
    if (!fresh) return;
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

  /** Saves one cell; the row is replaced by the row the server re-read. */
  async save(index: number, column: string, value: unknown): Promise<void> {
    const row = this.rows.value.get(index);
    if (!row) return;
    const updated = await recordsApi.update(this.projectId, this.meta._tn, this.idOf(row), { [column]: value });
    const next = new Map(this.rows.value);
    next.set(index, updated);
    this.rows.value = next;
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
    await recordsApi.create(this.projectId, this.meta._tn, values);
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
    const ids = [...this.selected.value].map((i) => this.rows.value.get(i)).filter((r): r is Row => !!r).map((r) => this.idOf(r));
    if (!ids.length) return 0;
    const n = await recordsApi.removeMany(this.projectId, this.meta._tn, ids);
    this.reload();
    return n;
  }

  async remove(index: number): Promise<void> {
    const row = this.rows.value.get(index);
    if (!row) return;
    await recordsApi.remove(this.projectId, this.meta._tn, this.idOf(row));
    this.reload();
  }
}
