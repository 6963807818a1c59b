/**
 * An invite link opened while signed in: says who is signed in and whom the invitation is for,
 * instead of a sign-up form under the signed-in top bar. Signing out continues with the invitation;
 * the invited account itself goes to its projects, the invited one among them. A link already used or
 * expired says so, with the way to the signed-in user's projects.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { signOut } from '../../app/session-actions';
import { AuthCard, Button, FormMessage } from '../../components/form';
import { t } from '../../i18n';

export function InviteWhileSignedIn(props: { signedInAs: string; invited: string | null; invalid: string | null }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  if (props.invalid) {
    return (
      <AuthCard title={t('admin.invite.title')} subtitle={t('admin.invite.signedInAs', { email: props.signedInAs })}>
        <FormMessage kind="error" text={props.invalid} />
        <div className="auth-actions">
          <Button onClick={() => navigate('/projects')}>{t('admin.invite.toProjects')}</Button>
        </div>
      </AuthCard>
    );
  }
  if (!props.invited) return null;
  const same = props.signedInAs.trim().toLowerCase() === props.invited.trim().toLowerCase();
  return (
    <AuthCard title={t('admin.invite.title')} subtitle={t('admin.invite.signedInAs', { email: props.signedInAs })}>
      <p>{same ? t('admin.invite.forYou') : t('admin.invite.forEmail', { invited: props.invited })}</p>
      <div className="auth-actions">
        {same ? <Button onClick={() => navigate('/projects')}>{t('admin.invite.toProjects')}</Button> : null}
        <Button
          variant={same ? 'secondary' : 'primary'}
          disabled={busy}
          onClick={() => {
            setBusy(true);
            // Signed out, this page shows the invitation's sign-up.
            void signOut().finally(() => setBusy(false));
          }}
        >
          {busy ? t('admin.invite.signingOut') : t('admin.invite.signOutContinue')}
        </Button>
      </div>
    </AuthCard>
  );
}
