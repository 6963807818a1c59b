/** Reads a database's schema again (metaSync), says what changed, and lets the tree reload its groups. */
import { dashboardOp } from '../../api/projects';
import { track } from '../../stores/notifications';
import { toast } from '../../stores/toasts';
import { LIMITS } from '../../lib/limits';
import { t } from '../../i18n';
import { TipButton } from './tip-button';

interface SyncReport { added: string[]; removed: string[]; changed: unknown[] }

/** '2 tables added, 1 removed, 0 changed' style summary of a sync. */
export function syncSummary(r: SyncReport): string {
  if (!r.added.length && !r.removed.length && !r.changed.length) return t('schema.tree.syncNothing');
  const parts = [
    r.added.length ? t('schema.tree.syncAdded', { names: r.added.join(', ') }) : '',
    r.removed.length ? t('schema.tree.syncRemoved', { names: r.removed.join(', ') }) : '',
    r.changed.length ? t('schema.tree.syncChanged', { count: r.changed.length }) : '',
  ];
  return t('schema.tree.syncSummary', { parts: parts.filter(Boolean).join('; ') });
}

export function MetaSyncButton(props: { projectId: string; dbAlias: string; onSynced: () => void }) {
  const sync = () =>
    track(t('schema.tree.syncLabel', { db: props.dbAlias }), dashboardOp<SyncReport>('metaSync', { projectId: props.projectId, dbAlias: props.dbAlias })).then(
      (report) => {
        toast('info', syncSummary(report), LIMITS.toastMs.long);
        props.onSynced();
      },
      () => {},
    );
  return (
    <TipButton className="icon-btn tree-sync" label={t('schema.tree.syncLabel', { db: props.dbAlias })} tip={t('schema.tree.syncTip')} onPress={() => void sync()}>
      <span aria-hidden>↻</span>
    </TipButton>
  );
}
