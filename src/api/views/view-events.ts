/**
 * Saved views created, changed or deleted, announced by table so that the dashboards that show the
 * table (realtime) read its views again: a filter, sort or field layout changed by one person shows
 * in everyone's open view without a reload. `meta` tells apps running in one process apart.
 */
import type { MetaStore } from '../../meta/store';

/** One change of a table's saved views (`tn`: the table's SQL name). */
export interface ViewsChanged {
  meta: MetaStore;
  projectId: string;
  dbAlias: string;
  tn: string;
}

type Listener = (e: ViewsChanged) => void;
const listeners = new Set<Listener>();

/** Listens to view changes; answers the function that stops listening. */
export function onViewsChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Announces a change of a table's views; a listener's error never reaches the caller. */
export function viewsChanged(e: ViewsChanged): void {
  for (const l of [...listeners]) {
    try {
      l(e);
    } catch {}
  }
}
