/**
 * Comment counts of the rows a grid shows: read for the ids of the rows in view (one call a moment
 * after they change, after the loaded rows change, or after anyone changed the table's comments) and
 * shown beside the row number. Counts read before stay, so rows scrolled back into view show theirs at once.
 */
import { useEffect, useState } from 'react';
import { rowActivityApi } from '../../api/row-activity';
import type { GridStore } from './grid-store';
import { liveConnection } from '../../stores/realtime';

/** Ids asked for at once (the server takes up to 1000). */
const IDS_MAX = 1000;

/** The ids of the loaded rows among `indexes` (the rows in view), at most IDS_MAX. */
export function idsInView(store: GridStore, indexes: number[]): string[] {
  const rows = store.rows.value;
  const ids: string[] = [];
  for (const i of indexes) {
    const row = rows.get(i);
    if (row) ids.push(store.idOf(row));
    if (ids.length >= IDS_MAX) break;
  }
  return ids;
}

/** `counts` with the answer for `asked` laid over it (an id asked for and not answered has none). */
export function mergeCounts(counts: Record<string, number>, asked: string[], answer: Record<string, number>): Record<string, number> {
  const next = { ...counts };
  for (const id of asked) delete next[id];
  return Object.assign(next, answer);
}

export function useCommentCounts(store: GridStore, dbAlias: string, generation: number, indexes: number[]): Record<string, number> {
  const [counts, setCounts] = useState<Record<string, number>>({});
  // Comments written by anyone meanwhile: the counts are read again.
  const [written, setWritten] = useState(0);
  useEffect(() => liveConnection(store.projectId).onComments(store.meta._tn, () => setWritten((n) => n + 1)), [store]);
  const rows = store.rows.value;
  const ids = store.meta.pks.length ? idsInView(store, indexes) : [];
  const key = ids.join('\u0000');
  useEffect(() => {
    if (!ids.length) return;
    let live = true;
    const timer = setTimeout(() => {
      rowActivityApi.counts(store.projectId, dbAlias, store.meta.tn, ids).then(
        (c) => live && setCounts((old) => mergeCounts(old, ids, c)),
        () => {},
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, rows, store, dbAlias, generation, written]);
  return counts;
}
