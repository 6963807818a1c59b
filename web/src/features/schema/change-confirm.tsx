/** The confirm step of a schema change: the SQL statements it will run, Cancel and Submit. */
import { ConfirmDialog } from '../../components/overlays';
import { useSignals } from '../../stores/signals';
import { pendingChange } from '../../stores/schema-ui';
import { cancelPending, confirmPending, isRemoval } from './change-flow';
import { t } from '../../i18n';

/** The confirm step of the pending change (nothing when none waits). */
export function ChangeConfirm() {
  useSignals();
  const p = pendingChange.value;
  if (!p) return null;
  return (
    <ConfirmDialog heading={isRemoval(p) || /^(Delete|Remove|Drop)\b/.test(p.title) ? t('schema.change.question', { title: p.title }) : p.title} wide onCancel={cancelPending} onSubmit={() => void confirmPending()}>
      {p.loses ? <p className="form-message form-message-error" role="alert">{p.loses}</p> : null}
      {p.statements === null ? (
        <p className="muted">{t('schema.change.virtualOnly')}</p>
      ) : p.statements.length === 0 ? (
        <p className="muted">{t('schema.change.metadataOnly')}</p>
      ) : (
        <>
          <p className="muted">{t('schema.change.statementsWillRun', { count: p.statements.length })}</p>
          <ol className="sql-statements" aria-label={t('schema.change.statements')}>
            {p.statements.map((s, i) => (
              <li key={i}>
                <pre>{s}</pre>
              </li>
            ))}
          </ol>
        </>
      )}
    </ConfirmDialog>
  );
}
