/** The confirm step of a schema change: the SQL statements it will run, Cancel and Submit. */
import { ConfirmDialog } from '../../components/overlays';
import { useSignals } from '../../stores/signals';
import { pendingChange } from '../../stores/schema-ui';
import { cancelPending, confirmPending } from './change-flow';

/** The confirm step of the pending change (nothing when none waits). */
export function ChangeConfirm() {
  useSignals();
  const p = pendingChange.value;
  if (!p) return null;
  return (
    <ConfirmDialog heading={/^(Delete|Remove|Drop)\b/.test(p.title) ? `${p.title}?` : p.title} wide onCancel={cancelPending} onSubmit={() => void confirmPending()}>
      {p.loses ? <p className="form-message form-message-error" role="alert">{p.loses}</p> : null}
      {p.statements === null ? (
        <p className="muted">This column is kept in Tablo’s metadata and computed when rows are read: no SQL statement runs on the database.</p>
      ) : p.statements.length === 0 ? (
        <p className="muted">Only Tablo’s metadata changes: no SQL statement runs on the database.</p>
      ) : (
        <>
          <p className="muted">{p.statements.length === 1 ? 'This statement will run:' : `These ${p.statements.length} statements will run, in this order:`}</p>
          <ol className="sql-statements" aria-label="SQL statements">
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
