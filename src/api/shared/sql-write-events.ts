/**
 * Rows of a project changed outside the data core (the SQL Client's INSERT, UPDATE, DELETE...): which
 * rows is not known, so the dashboards open on the project (realtime) read again what they show, as
 * after a drop of their socket. `meta` tells apps running in one process apart.
 */
import type { MetaStore } from '../../meta/store';
import { announcer } from '../../lib/announcer';

/** Rows of some tables of one database of a project changed, by statements Tablo did not parse. */
export interface RowsChangedBySql {
  meta: MetaStore;
  projectId: string;
  dbAlias: string;
}

const channel = announcer<RowsChangedBySql>();

/** Listens to rows changed by SQL; answers the function that stops listening. */
export const onRowsChangedBySql = channel.listen;

/** Announces rows changed by SQL; a listener's error never reaches the caller. */
export const rowsChangedBySql = channel.announce;
