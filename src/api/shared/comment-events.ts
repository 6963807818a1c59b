/**
 * Comments added, edited or deleted, announced by table so that the dashboards that show the table
 * (realtime) read the comments of their open rows again: a comment written by one person shows in
 * everyone's open expanded row without a reload. `meta` tells apps running in one process apart.
 */
import type { MetaStore } from '../../meta/store';
import { announcer } from '../../lib/announcer';

/** One change of the comments of a table's rows (`tn`: the table's SQL name). */
export interface CommentsChanged {
  meta: MetaStore;
  projectId: string;
  dbAlias: string;
  tn: string;
}

const channel = announcer<CommentsChanged>();

/** Listens to changes of a table's comments; answers the function that stops listening. */
export const onCommentsChanged = channel.listen;

/** Announces a change of a table's comments; a listener's error never reaches the caller. */
export const commentsChanged = channel.announce;
