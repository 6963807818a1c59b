/**
 * The write-event bus: every committed write of project rows (REST, GraphQL, the dashboard grid,
 * bulk calls, child routes, many-to-many link / unlink, and whatever else writes through the data
 * core) is announced here AFTER its transaction commits. Webhooks subscribe today; realtime grid
 * events and row history can subscribe the same way.
 *
 * Delivery to subscribers is deferred with setImmediate, so a subscriber runs after the writer's
 * answer has gone out (not on the request's critical path) and its errors never reach the writer;
 * events keep their order.
 */
import type { Actor } from '../lib/actor';

type Row = Record<string, unknown>;

/** One row written: its values after the write (for a delete: before it) and, for an update, before. */
export interface WrittenRow {
  data: Row;
  previous?: Row;
}

/** A committed write of one operation on one table; several rows for bulk calls. */
export interface WriteEvent {
  projectId: string;
  dbAlias: string;
  /** SQL name of the table. */
  tn: string;
  op: 'insert' | 'update' | 'delete';
  rows: WrittenRow[];
  actor: Actor;
}

export type WriteListener = (event: WriteEvent) => void | Promise<void>;

/** Publish / subscribe of committed writes, one bus per app. */
export class WriteEventBus {
  private listeners = new Set<WriteListener>();
  constructor(private onError: (err: unknown) => void = () => {}) {}

  /** Adds a listener; answers the function that removes it. */
  subscribe(fn: WriteListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** True when someone listens (writers skip building events otherwise). */
  get active(): boolean {
    return this.listeners.size > 0;
  }

  /** Hands the event to every listener once the current answers are out; never throws to the caller. */
  emit(event: WriteEvent): void {
    if (this.listeners.size === 0) return;
    const listeners = [...this.listeners];
    setImmediate(() => {
      for (const fn of listeners) {
        try {
          const r = fn(event);
          if (r && typeof (r as Promise<void>).catch === 'function') (r as Promise<void>).catch(this.onError);
        } catch (e) {
          this.onError(e);
        }
      }
    });
  }
}

/** Collects the events of one transaction; they are emitted only once it commits. */
export type PendingWrites = WriteEvent[];

/** Adds a written row: to the open transaction's list, or straight to the bus outside one. */
export function recordWrite(
  target: { events?: WriteEventBus; pending?: PendingWrites; pdb: { projectId: string; dbAlias: string }; actor: Actor },
  tn: string,
  op: WriteEvent['op'],
  row: WrittenRow,
): void {
  if (!target.events?.active) return;
  if (target.pending) {
    const last = target.pending[target.pending.length - 1];
    if (last && last.tn === tn && last.op === op) last.rows.push(row);
    else target.pending.push({ projectId: target.pdb.projectId, dbAlias: target.pdb.dbAlias, tn, op, rows: [row], actor: target.actor });
    return;
  }
  target.events.emit({ projectId: target.pdb.projectId, dbAlias: target.pdb.dbAlias, tn, op, rows: [row], actor: target.actor });
}

/** Emits a committed transaction's events in order. */
export function flushWrites(events: WriteEventBus | undefined, pending: PendingWrites): void {
  if (!events) return;
  for (const e of pending) events.emit(e);
}
