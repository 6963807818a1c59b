/**
 * Other users' changes for views that read through a RowSource (gallery, kanban, calendar): a
 * number that grows when the table changes (or the connection catches up after a drop); a view
 * makes its row source again with it, so it reads what it shows afresh. Bursts are taken together.
 */
import { useEffect, useState } from 'react';
import { liveConnection } from '../../stores/realtime';

/** How long changes are gathered before a view reads again. */
const SETTLE_MS = 150;

export function useLiveGeneration(projectId: string, table: string): number {
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = liveConnection(projectId).subscribe(table, () => {
      if (timer) return;
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
