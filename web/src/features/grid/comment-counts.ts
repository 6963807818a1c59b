/**
 * Comment counts of the rows a grid has loaded: read for their ids (one call per change of the loaded
 * rows, a moment after it) and shown beside the row number.
 */
import { useEffect, useState } from 'react';
import { rowActivityApi } from '../../api/row-activity';
import type { GridStore } from './grid-store';

/** Ids asked for at once (the server takes up to 1000). */
const IDS_MAX = 1000;

export function useCommentCounts(store: GridStore, dbAlias: string, generation: number): Record<string, number> {
  const [counts, setCounts] = useState<Record<string, number>>({});
  const rows = store.rows.value;
  useEffect(() => {
    if (!store.meta.pks.length || rows.size === 0) return;
    let live = true;
    const timer = setTimeout(() => {
      const ids = [...rows.values()].slice(0, IDS_MAX).map((r) => store.idOf(r));
      rowActivityApi.counts(store.projectId, dbAlias, store.meta.tn, ids).then(
        (c) => live && setCounts(c),
        () => {},
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [rows, store, dbAlias, generation]);
  return counts;
}
