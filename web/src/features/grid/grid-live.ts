/**
 * Other users' changes in an open grid: updated rows are merged where they are shown; inserted or
 * removed rows (and a catch-up after a reconnect) re-read the loaded pages in place, so the reader's
 * scroll position and selection hold.
 */
import type { LiveRows } from '../../stores/realtime';
import type { GridStore } from './grid-store';

export function applyLive(store: GridStore, event: LiveRows | { type: 'resync' }, hasComputed: boolean): void {
  if (event.type === 'resync') return void store.refresh();
  if (event.op === 'update' && event.removed.length === 0) {
    for (const row of event.rows) if (event.by) store.writers.set(store.idOf(row), event.by);
    const found = store.mergeRows(event.rows);
    // Computed columns and nested relations are worked out by the server: read those rows again.
    if (found && hasComputed) void store.refresh();
    return;
  }
  void store.refresh();
}
