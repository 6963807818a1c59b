/**
 * A kanban's lanes outside React: one lane per choice of the lane column plus 'Uncategorized'
 * (blank or not a choice), each read page by page with its value ANDed into the view's where, its
 * count read apart; moving a card shows at once and updates the row (undone when refused).
 */
import { signal } from '../../stores/signals';
import { LIMITS } from '../../lib/limits';
import { canChange, type Row, type RowSource } from '../views/row-source';
import { andWhere } from '../views/view-state';
import { otherWhere, valueWhere } from '../views/lane-where';

/** Cards read at a time per lane. */
export const LANE_PAGE = LIMITS.kanbanLanePage;
export { UNCATEGORIZED } from './lane-order';
import { UNCATEGORIZED } from './lane-order';

/** One lane: its cards so far, its count, whether a page is on its way or all are there. */
export interface LaneState {
  rows: Row[];
  total: number | null;
  loading: boolean;
  done: boolean;
  error: string | null;
}

const empty = (): LaneState => ({ rows: [], total: null, loading: false, done: false, error: null });

/** The lanes of one kanban (one store per lane column, where, sort and search). */
export class KanbanStore {
  readonly lanes = signal<Record<string, LaneState>>({});
  private generation = 0;

  constructor(
    readonly source: RowSource,
    readonly column: string,
    readonly choices: string[],
    readonly query: { where: string; sort: string; search: string },
  ) {}

  /** The where of a lane: the view's, and the lane's value. */
  whereOf(lane: string): string {
    return andWhere(this.query.where, lane === UNCATEGORIZED ? otherWhere(this.column, this.choices) || `(${this.column},blank)` : valueWhere(this.column, lane));
  }

  lane(key: string): LaneState {
    return this.lanes.value[key] ?? empty();
  }

  private set(key: string, patch: Partial<LaneState>): void {
    this.lanes.value = { ...this.lanes.value, [key]: { ...this.lane(key), ...patch } };
  }

  /** Starts every lane over (first page and count). */
  reset(): void {
    this.generation++;
    this.lanes.value = Object.fromEntries([UNCATEGORIZED, ...this.choices].map((k) => [k, empty()]));
    for (const k of [...this.choices, UNCATEGORIZED]) {
      void this.loadMore(k);
      if (!this.source.pageTotals) void this.countLane(k);
    }
  }

  private async countLane(key: string): Promise<void> {
    const gen = this.generation;
    const n = await this.source.count(this.whereOf(key), this.query.search);
    if (gen === this.generation && n !== null) this.set(key, { total: n });
  }

  /** Reads the next page of a lane (nothing when one is on its way or all are there). */
  async loadMore(key: string): Promise<void> {
    const l = this.lane(key);
    if (l.loading || l.done) return;
    const gen = this.generation;
    this.set(key, { loading: true });
    try {
      const page = await this.source.list({ limit: LANE_PAGE, offset: l.rows.length, where: this.whereOf(key), sort: this.query.sort || undefined, search: this.query.search || undefined });
      if (gen !== this.generation) return;
      // A card moved in meanwhile may come again on a later page: kept once.
      const have = new Set(this.lane(key).rows.map((r) => this.source.idOf(r)));
      const rows = [...this.lane(key).rows, ...page.list.filter((r) => !have.has(this.source.idOf(r)))];
      this.set(key, { rows, loading: false, done: page.list.length < LANE_PAGE, error: null, ...(page.total !== undefined ? { total: page.total } : {}) });
    } catch (e) {
      if (gen === this.generation) this.set(key, { loading: false, error: (e as Error).message });
    }
  }

  /** Moves a card to another lane: on screen at once, then the row's lane column is updated. */
  async move(id: string, from: string, to: string): Promise<void> {
    if (from === to || !this.source.update || !canChange(this.source, this.column)) return;
    const src = this.lane(from);
    const row = src.rows.find((r) => this.source.idOf(r) === id);
    if (!row) return;
    const dst = this.lane(to);
    const value = to === UNCATEGORIZED ? null : to;
    const moved = { ...row, [this.column]: value };
    const gen = this.generation;
    this.set(from, { rows: src.rows.filter((r) => r !== row), total: src.total === null ? null : src.total - 1 });
    this.set(to, { rows: [moved, ...dst.rows], total: dst.total === null ? null : dst.total + 1 });
    try {
      const saved = await this.source.update(row, { [this.column]: value });
      this.set(to, { rows: this.lane(to).rows.map((r) => (r === moved ? saved : r)) });
    } catch (e) {
      // Refused: the card goes back where it was (unless the lanes were read again meanwhile: they hold it there).
      if (gen !== this.generation) throw e;
      this.set(to, { rows: this.lane(to).rows.filter((r) => r !== moved), total: this.lane(to).total === null ? null : this.lane(to).total! - 1 });
      this.set(from, { rows: [row, ...this.lane(from).rows], total: this.lane(from).total === null ? null : this.lane(from).total! + 1 });
      throw e;
    }
  }

  /** Replaces a row after it was edited elsewhere (the expanded card). */
  replace(lane: string, before: Row, after: Row): void {
    this.set(lane, { rows: this.lane(lane).rows.map((r) => (r === before ? after : r)) });
  }
}
