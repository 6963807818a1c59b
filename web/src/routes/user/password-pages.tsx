/**
 * Password recovery: forgot (asks for the e-mail), reset form (validates the token first),
 * invalid and success screens, and the signed-in password change at /user/settings/password (inside the account settings).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { authApi } from '../../api/auth';
import { AuthCard, Button, FormMessage, TextField } from '../../components/form';
import { locale, t } from '../../i18n';
import { translateServerMessage } from '../../i18n/server-messages';
import { emailError, passwordError } from './auth-validation';
import { setToken, user } from '../../stores/session';
import { useSignals } from '../../stores/signals';

/** Asks for the sign-up e-mail and shows the server's answer ('Please check your email to reset the password'). */
export function ForgotPage() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const err = emailError(email);
    setError(err);
    if (err) return;
    try {
      // The server's answer in the reader's language (src/i18n/server-messages.ts).
      setDone(translateServerMessage((await authApi.forgot(email.trim())).msg, locale.value));
    } catch (x) {
      setError((x as Error).message);
    }
  };
  return (
    <AuthCard title={t('admin.password.forgotTitle')} subtitle={t('admin.password.forgotSubtitle')} footer={<Link to="/user/authentication/signin">{t('admin.password.backToSignIn')}</Link>}>
      {done ? (
        <FormMessage kind="success" text={done} />
      ) : (
        <form onSubmit={submit} noValidate>
          <TextField label={t('admin.auth.email')} name="email" type="email" value={email} onChange={setEmail} error={error} autoFocus />
          <Button type="submit">{t('admin.password.sendResetLink')}</Button>
        </form>
      )}
    </AuthCard>
  );
}

/** The reset link's form: checks the token first (invalid -> the invalid page), then sets the new password. */
export function ResetFormPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const resetToken = params.get('token') ?? '';
  const [checked, setChecked] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    authApi
      .validateReset(resetToken)
      .then(() => setChecked(true))
      .catch(() => navigate('/user/password/reset/invalid', { replace: true }));
  }, [resetToken]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const err = passwordError(password);
    setError(err);
    if (err) return;
    try {
      await authApi.reset(resetToken, password);
      navigate('/user/password/reset/success');
    } catch (x) {
      setError((x as Error).message);
    }
  };
  if (!checked) return <AuthCard title={t('admin.password.resetTitle')} subtitle={t('admin.password.checkingLink')} />;
  return (
    <AuthCard title={t('admin.password.resetTitle')} subtitle={t('admin.password.chooseNew')}>
      <form onSubmit={submit} noValidate>
        <TextField label={t('admin.password.newPassword')} name="password" type="password" autoComplete="new-password" value={password} onChange={setPassword} error={error} autoFocus />
        <Button type="submit">{t('admin.password.resetButton')}</Button>
      </form>
    </AuthCard>
  );
}

/** Where a reset link that is unknown, used or expired lands. */
export function ResetInvalidPage() {
  return (
    <AuthCard title={t('admin.password.linkInvalid')} subtitle={t('admin.password.linkInvalidText')} footer={<Link to="/user/password/forgot">{t('admin.password.askNewLink')}</Link>} />
  );
}

/** Where a successful reset lands, with the way back to sign-in. */
export function ResetSuccessPage() {
  return <AuthCard title={t('admin.password.resetDone')} subtitle={t('admin.password.changed')} footer={<Link to="/user/authentication/signin">{t('admin.auth.signIn')}</Link>} />;
}

/** /user/settings/password: current and new password; the server's message either way. */
export function ChangePasswordPage() {
  useSignals();
  // An account that signs in only with a provider sets its first password without a current one.
  const hasPassword = user.value?.hasPassword !== false;
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [errors, setErrors] = useState<{ current?: string | null; next?: string | null }>({});
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const v = { current: current || !hasPassword ? null : t('admin.auth.passwordRequired'), next: passwordError(next) };
    setErrors(v);
    setMessage(null);
    if (v.current || v.next) return;
    try {
      const res = await authApi.changePassword(hasPassword ? current : undefined, next);
      setToken(res.token);
      if (user.value) user.value = { ...user.value, hasPassword: true };
      setCurrent('');
      setNext('');
      setMessage({ kind: 'success', text: res.msg });
    } catch (x) {
      setMessage({ kind: 'error', text: (x as Error).message });
    }
  };
  return (
    <form className="settings-form" onSubmit={submit} noValidate>
      <h2>{hasPassword ? t('admin.password.changeTitle') : t('admin.password.setTitle')}</h2>
      {hasPassword ? <TextField label={t('admin.password.current')} name="current" type="password" autoComplete="current-password" value={current} onChange={setCurrent} error={errors.current} /> : null}
      <TextField label={t('admin.password.newPassword')} name="new" type="password" autoComplete="new-password" value={next} onChange={setNext} error={errors.next} />
      <FormMessage kind={message?.kind ?? 'error'} text={message?.text ?? null} />
      <Button type="submit">{hasPassword ? t('admin.password.changeButton') : t('admin.password.setButton')}</Button>
    </form>
  );
}
