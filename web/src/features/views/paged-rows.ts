/**
 * Rows of a view read page by page as they come into view (gallery, shared grid): a sparse map
 * by index, the count read apart (or taken from the page answer), pages never read twice.
 */
import { signal } from '../../stores/signals';
import { LIMITS } from '../../lib/limits';
import type { Row, RowQuery, RowSource } from './row-source';

/** Rows per page. */
export const VIEW_PAGE = LIMITS.viewPage;

/** The rows of one query of a view, by index. */
export class PagedRows {
  readonly rows = signal<Map<number, Row>>(new Map());
  readonly count = signal<number | null>(null);
  readonly known = signal(0);
  readonly error = signal<string | null>(null);
  /** Rows read from the server so far (the benchmark reports it). */
  readonly read = signal(0);
  private pending = new Set<number>();
  private generation = 0;

  constructor(readonly source: RowSource, readonly query: Omit<RowQuery, 'limit' | 'offset'>) {}

  /** Starts over: the first page, and the count apart. */
  reset(): void {
    this.generation++;
    this.pending.clear();
    this.rows.value = new Map();
    this.count.value = null;
    this.known.value = 0;
    this.read.value = 0;
    this.error.value = null;
    void this.ensure(0, VIEW_PAGE);
    if (this.source.pageTotals) return;
    const gen = this.generation;
    void this.source.count(this.query.where, this.query.search).then((n) => gen === this.generation && n !== null && (this.count.value = n));
  }

  /** How many rows to lay out. */
  size(): number {
    return this.count.value ?? this.known.value;
  }

  /** Reads the pages covering rows [from, to) not read yet. */
  async ensure(from: number, to: number): Promise<void> {
    const gen = this.generation;
    for (let page = Math.floor(from / VIEW_PAGE); page * VIEW_PAGE < to; page++) {
      if (this.pending.has(page) || this.rows.value.has(page * VIEW_PAGE)) continue;
      this.pending.add(page);
      try {
        const answer = await this.source.list({ ...this.query, limit: VIEW_PAGE, offset: page * VIEW_PAGE });
        if (gen !== this.generation) return;
        const next = new Map(this.rows.value);
        answer.list.forEach((r, i) => next.set(page * VIEW_PAGE + i, r));
        this.rows.value = next;
        this.read.value += answer.list.length;
        if (answer.total !== undefined && this.count.value === null) this.count.value = answer.total;
        this.known.value = Math.max(this.known.value, page * VIEW_PAGE + answer.list.length + (answer.list.length === VIEW_PAGE ? VIEW_PAGE : 0));
      } catch (e) {
        if (gen === this.generation) this.error.value = (e as Error).message;
      } finally {
        this.pending.delete(page);
      }
    }
  }

  /** Replaces the row at `index` (after an edit). */
  set(index: number, row: Row): void {
    const next = new Map(this.rows.value);
    next.set(index, row);
    this.rows.value = next;
  }
}
