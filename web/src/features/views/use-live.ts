/**
 * Other users' changes for views that read through a RowSource (gallery, kanban, calendar): a
 * number that grows when the table changes (or the connection catches up after a drop); a view
 * makes its row source again with it, so it reads what it shows afresh. Bursts are taken together;
 * the echo of the view's own updates (given `idOf`) is not a change.
 */
import { useEffect, useRef, useState } from 'react';
import { liveConnection } from '../../stores/realtime';
import { isOwnEcho } from './own-writes';
import type { Row } from './row-source';

/** How long changes are gathered before a view reads again. */
const SETTLE_MS = 150;

export function useLiveGeneration(projectId: string, table: string, idOf?: (row: Row) => string): number {
  const [generation, setGeneration] = useState(0);
  const rowId = useRef(idOf);
  rowId.current = idOf;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = liveConnection(projectId).subscribe(table, (event) => {
      if (timer) return;
      if (rowId.current && event.type === 'rows' && isOwnEcho(projectId, table, rowId.current, event.op, event.rows, event.removed)) return;
      timer = setTimeout(() => {
        timer = null;
        setGeneration((g) => g + 1);
      }, SETTLE_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [projectId, table]);
  return generation;
}
