/** Sign up: says you will be the Super Admin when you are the first user; carries an invite token. */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { authApi } from '../../api/auth';
import { acceptToken } from '../../app/session-actions';
import { AuthCard, Button, FormMessage, TextField } from '../../components/form';
import { t, tx } from '../../i18n';
import { emailError, passwordError } from './auth-validation';
import { isSignedIn, projectInfo, user } from '../../stores/session';
import { InviteWhileSignedIn } from './invite-signed-in';
import { useSignals } from '../../stores/signals';

/** /user/authentication/signup and /signup/{token}: creates the account (the first one is the Super Admin). */
export function SignupPage() {
  useSignals();
  const { token: inviteToken } = useParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string | null; password?: string | null }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const first = !!projectInfo.value?.firstUser;
  /** Sign-up needs an invite here and none came: said at once, rather than after the form is filled in. */
  const inviteOnly = !first && !inviteToken && projectInfo.value?.allowSignup === false;
  /** Why an invite link cannot be used (used or expired), said before anything is typed. */
  const [inviteInvalid, setInviteInvalid] = useState<string | null>(null);
  /** The address the invite went to, once read. */
  const [invited, setInvited] = useState<string | null>(null);
  useEffect(() => {
    if (!inviteToken) return;
    // The address the invite went to fills the e-mail field, unless something was typed already.
    authApi.invite(inviteToken).then(
      (r) => {
        setInvited(r.email);
        setEmail((typed) => typed || r.email);
        // The e-mail is known: what is left to type is the password (unless someone is typing already).
        const field = document.getElementById('f-email');
        if (field && document.activeElement === field && !(field as HTMLInputElement).value) document.getElementById('f-password')?.focus();
      },
      (e) => setInviteInvalid((e as Error).message),
    );
  }, [inviteToken]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next = { email: emailError(email), password: passwordError(password) };
    setErrors(next);
    setServerError(null);
    if (next.email || next.password) return;
    setBusy(true);
    try {
      const { token } = await authApi.signup(email.trim(), password, inviteToken);
      await acceptToken(token);
      navigate('/projects');
    } catch (err) {
      setServerError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  // Signed in already: who is, and whom the invitation is for, rather than a sign-up form.
  if (inviteToken && isSignedIn.value) return <InviteWhileSignedIn signedInAs={user.value?.email ?? ''} invited={invited} invalid={inviteInvalid} />;

  return (
    <AuthCard
      title={t('admin.auth.signUp')}
      subtitle={
        first ? (
          <strong className="super-admin-note">{t('admin.auth.firstUserNote')}</strong>
        ) : inviteToken ? (
          t('admin.auth.acceptInvitation')
        ) : inviteOnly ? null : (
          t('admin.auth.createAccount')
        )
      }
      footer={
        <span>
          {tx('admin.auth.haveAccount', { link: (chunks) => <Link to="/user/authentication/signin">{chunks}</Link> })}
        </span>
      }
    >
      {inviteInvalid ? (
        <FormMessage kind="error" text={inviteInvalid} />
      ) : inviteOnly ? (
        <p className="form-message form-message-info" role="status">{t('admin.auth.inviteOnly')}</p>
      ) : (
      <form onSubmit={submit} noValidate>
        <TextField label={t('admin.auth.email')} name="email" type="email" autoComplete="username" value={email} onChange={setEmail} error={errors.email} autoFocus={!invited} />
        <TextField label={t('admin.auth.password')} name="password" type="password" autoComplete="new-password" value={password} onChange={setPassword} error={errors.password} autoFocus={!!invited} />
        <FormMessage kind="error" text={serverError} />
        <Button type="submit" disabled={busy}>
          {busy ? t('admin.auth.creatingAccount') : t('admin.auth.signUp')}
        </Button>
      </form>
      )}
    </AuthCard>
  );
}
