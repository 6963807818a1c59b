/** Reads a database's schema again (metaSync), says what changed, and lets the tree reload its groups. */
import { dashboardOp } from '../../api/projects';
import { track } from '../../stores/notifications';
import { toast } from '../../stores/toasts';
import { LIMITS } from '../../lib/limits';

interface SyncReport { added: string[]; removed: string[]; changed: unknown[] }

/** '2 tables added, 1 removed, 0 changed' style summary of a sync. */
export function syncSummary(r: SyncReport): string {
  if (!r.added.length && !r.removed.length && !r.changed.length) return 'The metadata already matched the database';
  const parts = [r.added.length && `added: ${r.added.join(', ')}`, r.removed.length && `removed: ${r.removed.join(', ')}`, r.changed.length && `${r.changed.length} changed`];
  return `Tables ${parts.filter(Boolean).join('; ')}`;
}

export function MetaSyncButton(props: { projectId: string; dbAlias: string; onSynced: () => void }) {
  const sync = () =>
    track(`Sync metadata of ${props.dbAlias}`, dashboardOp<SyncReport>('metaSync', { projectId: props.projectId, dbAlias: props.dbAlias })).then(
      (report) => {
        toast('info', syncSummary(report), LIMITS.toastMs.long);
        props.onSynced();
      },
      () => {},
    );
  return (
    <button className="icon-btn tree-sync" aria-label={`Sync metadata of ${props.dbAlias}`} title="Read the database schema again" onClick={() => void sync()}>
      ↻
    </button>
  );
}
