/**
 * The rows a calendar shows: only those in the visible range (the range's where ANDed with the
 * view's), read in pages up to CALENDAR_MAX_ROWS; dragging an entry to another day moves its date
 * (and its end by as many days) at once on screen, then updates the row (undone when refused).
 */
import { signal } from '../../stores/signals';
import { LIMITS } from '../../lib/limits';
import type { Row, RowSource } from '../views/row-source';
import { andWhere } from '../views/view-state';
import { daysBetween, moveValue, rangeWhere } from './calendar-range';

/** Rows read per call, and at most per range shown. */
export const CALENDAR_PAGE = LIMITS.calendarPage;
export const CALENDAR_MAX_ROWS = LIMITS.calendarMaxRows;

/** The rows of the range on screen and the moves of entries. */
export class CalendarStore {
  readonly rows = signal<Row[]>([]);
  readonly loading = signal(false);
  readonly truncated = signal(false);
  readonly error = signal<string | null>(null);
  /** Rows read from the server for the current range (the benchmark reports it). */
  readonly read = signal(0);
  private generation = 0;

  constructor(
    readonly source: RowSource,
    readonly dateColumn: string,
    readonly endColumn: string | undefined,
    readonly types: { dateTime: boolean; endDateTime: boolean },
    readonly query: { where: string; sort: string; search: string },
  ) {}

  whereFor(first: string, last: string): string {
    return andWhere(this.query.where, rangeWhere(this.dateColumn, this.endColumn, first, last, this.types.dateTime, this.types.endDateTime));
  }

  /** Reads the rows of [first, last]. */
  async load(first: string, last: string): Promise<void> {
    const gen = ++this.generation;
    this.loading.value = true;
    this.error.value = null;
    const where = this.whereFor(first, last);
    const sort = this.query.sort || this.dateColumn;
    const out: Row[] = [];
    try {
      for (;;) {
        const page = await this.source.list({ limit: CALENDAR_PAGE, offset: out.length, where, sort, search: this.query.search || undefined });
        if (gen !== this.generation) return;
        out.push(...page.list);
        // Entries show as their pages come (the first ones at once).
        this.rows.value = out.slice();
        if (page.list.length < CALENDAR_PAGE || out.length >= CALENDAR_MAX_ROWS) break;
      }
      this.read.value = out.length;
      this.truncated.value = out.length >= CALENDAR_MAX_ROWS;
    } catch (e) {
      if (gen === this.generation) this.error.value = (e as Error).message;
    } finally {
      if (gen === this.generation) this.loading.value = false;
    }
  }

  /** Moves a row's entry from day `from` to day `to`. */
  async move(row: Row, from: string, to: string): Promise<void> {
    const days = daysBetween(from, to);
    if (!days || !this.source.update) return;
    const changes: Row = { [this.dateColumn]: moveValue(row[this.dateColumn], days) };
    if (this.endColumn && row[this.endColumn]) changes[this.endColumn] = moveValue(row[this.endColumn], days);
    const moved = { ...row, ...changes };
    this.rows.value = this.rows.value.map((r) => (r === row ? moved : r));
    try {
      const saved = await this.source.update(row, changes);
      this.rows.value = this.rows.value.map((r) => (r === moved ? saved : r));
    } catch (e) {
      this.rows.value = this.rows.value.map((r) => (r === moved ? row : r));
      throw e;
    }
  }

  replace(before: Row, after: Row): void {
    this.rows.value = this.rows.value.map((r) => (r === before ? after : r));
  }
}
