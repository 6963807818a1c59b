/**
 * Saved views created, changed or deleted, announced by table so that the dashboards that show the
 * table (realtime) read its views again: a filter, sort or field layout changed by one person shows
 * in everyone's open view without a reload. `meta` tells apps running in one process apart.
 */
import type { MetaStore } from '../../meta/store';
import { announcer } from '../../lib/announcer';

/** One change of a table's saved views (`tn`: the table's SQL name). */
export interface ViewsChanged {
  meta: MetaStore;
  projectId: string;
  dbAlias: string;
  tn: string;
}

const channel = announcer<ViewsChanged>();

/** Listens to changes of a table's views; answers the function that stops listening. */
export const onViewsChanged = channel.listen;

/** Announces a change of a table's views; a listener's error never reaches the caller. */
export const viewsChanged = channel.announce;
