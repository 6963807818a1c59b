/**
 * Row updates this tab made through a gallery, kanban or calendar. The realtime socket sends every
 * change back to its own author too; a view that already shows the update (it moved the card at
 * once, then took the saved row) need not read all its rows again for that echo — a read that would
 * also take the keyboard focus off the card just moved.
 */
import type { Row } from './row-source';

interface OwnWrite {
  id: string;
  /** The changed values as sent; then the row as saved. */
  values: Row;
  saved?: Row;
  at: number;
}

/** How long an update waits for its echo. */
const KEEP_MS = 10_000;
const writes = new Map<string, OwnWrite[]>();
const keyOf = (projectId: string, table: string) => `${projectId}\u0000${table}`;

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);
/** True when every value of `expected` that the echo carries is the echo's. */
const agrees = (echo: Row, expected: Row) => Object.keys(expected).every((k) => !(k in echo) || same(echo[k], expected[k]));

function fresh(key: string): OwnWrite[] {
  const now = Date.now();
  const list = (writes.get(key) ?? []).filter((w) => now - w.at < KEEP_MS);
  if (list.length) writes.set(key, list);
  else writes.delete(key);
  return list;
}

/** Notes an update of one row by this tab; the returned function records the row as saved. */
export function noteOwnWrite(projectId: string, table: string, id: string, values: Row): (saved: Row) => void {
  const key = keyOf(projectId, table);
  const write: OwnWrite = { id, values, at: Date.now() };
  writes.set(key, [...fresh(key), write]);
  return (saved) => {
    write.saved = saved;
  };
}

/**
 * True when a change sent by the server is only the echo of this tab's own updates (each row one
 * this tab updated, with the values it sent or got back); those writes are then forgotten.
 */
export function isOwnEcho(projectId: string, table: string, idOf: (row: Row) => string, op: string, rows: Row[], removed: string[]): boolean {
  if (op !== 'update' || removed.length || !rows.length) return false;
  const key = keyOf(projectId, table);
  const list = fresh(key);
  const matched = rows.map((r) => list.find((w) => w.id === idOf(r) && (agrees(r, w.values) || (!!w.saved && agrees(r, w.saved)))));
  if (matched.some((w) => !w)) return false;
  writes.set(key, list.filter((w) => !matched.includes(w)));
  return true;
}
