/**
 * Sign in: email, password, forgot-password and sign-up links; the server's message on failure;
 * buttons for the configured providers (Google, GitHub, OpenID Connect).
 * A Tablo started with a master key asks for that key instead.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { authApi } from '../../api/auth';
import { acceptToken, returnTo, signedInElsewhere } from '../../app/session-actions';
import { AuthCard, Button, FormMessage, TextField } from '../../components/form';
import { t, tx } from '../../i18n';
import { emailError, passwordError } from './auth-validation';
import { isSignedIn, projectInfo } from '../../stores/session';
import { useSignals } from '../../stores/signals';
import { MasterKeyForm } from './master-key-form';
import { ProviderButtons } from './provider-buttons';

/** /user/authentication/signin: e-mail and password (or the master key), validated with the spec's messages. */
export function SigninPage() {
  useSignals();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string | null; password?: string | null }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Signed in from another tab while this page shows: back to where this tab was.
  const seen = useRef(signedInElsewhere.value);
  useEffect(() => {
    if (signedInElsewhere.value === seen.current) return;
    seen.current = signedInElsewhere.value;
    if (isSignedIn.value) navigate(returnTo(location.state), { replace: true });
  }, [signedInElsewhere.value]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next = { email: emailError(email), password: passwordError(password) };
    setErrors(next);
    setServerError(null);
    if (next.email || next.password) return;
    setBusy(true);
    try {
      const { token } = await authApi.signin(email.trim(), password);
      await acceptToken(token);
      navigate(returnTo(location.state), { replace: true });
    } catch (err) {
      setServerError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  if (projectInfo.value?.authType === 'masterKey') {
    return (
      <AuthCard title={t('admin.auth.signIn')} subtitle={t('admin.auth.masterKeySubtitle')}>
        <MasterKeyForm />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('admin.auth.signIn')}
      subtitle={t('admin.auth.welcomeBack')}
      footer={
        <>
          <Link to="/user/password/forgot">{t('admin.auth.forgotPasswordLink')}</Link>
          <span>
            {tx('admin.auth.noAccount', { link: (chunks) => <Link to="/user/authentication/signup">{chunks}</Link> })}
          </span>
        </>
      }
    >
      <form onSubmit={submit} noValidate>
        <TextField label={t('admin.auth.email')} name="email" type="email" autoComplete="username" value={email} onChange={setEmail} error={errors.email} autoFocus />
        <TextField label={t('admin.auth.password')} name="password" type="password" autoComplete="current-password" value={password} onChange={setPassword} error={errors.password} />
        <FormMessage kind="error" text={serverError} />
        <Button type="submit" disabled={busy}>
          {busy ? t('admin.auth.signingIn') : t('admin.auth.signIn')}
        </Button>
      </form>
      <ProviderButtons />
    </AuthCard>
  );
}
