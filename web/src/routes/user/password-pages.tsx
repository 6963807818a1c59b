/**
 * Password recovery: forgot (asks for the e-mail), reset form (validates the token first),
 * invalid and success screens, and the signed-in password change at /user/settings/password (inside the account settings).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { authApi } from '../../api/auth';
import { AuthCard, Button, FormMessage, TextField } from '../../components/form';
import { emailError, passwordError } from '../../lib/validation';
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
      setDone((await authApi.forgot(email.trim())).msg);
    } catch (x) {
      setError((x as Error).message);
    }
  };
  return (
    <AuthCard title="Forgot password" subtitle="Enter the e-mail you signed up with." footer={<Link to="/user/authentication/signin">Back to sign in</Link>}>
      {done ? (
        <FormMessage kind="success" text={done} />
      ) : (
        <form onSubmit={submit} noValidate>
          <TextField label="E-mail" name="email" type="email" value={email} onChange={setEmail} error={error} autoFocus />
          <Button type="submit">Send reset link</Button>
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
  if (!checked) return <AuthCard title="Reset password" subtitle="Checking your link…" />;
  return (
    <AuthCard title="Reset password" subtitle="Choose a new password.">
      <form onSubmit={submit} noValidate>
        <TextField label="New password" name="password" type="password" value={password} onChange={setPassword} error={error} autoFocus />
        <Button type="submit">Reset password</Button>
      </form>
    </AuthCard>
  );
}

/** Where a reset link that is unknown, used or expired lands. */
export function ResetInvalidPage() {
  return (
    <AuthCard title="Link invalid" subtitle="This password reset link is invalid or has expired." footer={<Link to="/user/password/forgot">Ask for a new link</Link>} />
  );
}

/** Where a successful reset lands, with the way back to sign-in. */
export function ResetSuccessPage() {
  return <AuthCard title="Password reset" subtitle="Your password was changed." footer={<Link to="/user/authentication/signin">Sign in</Link>} />;
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
    const v = { current: current || !hasPassword ? null : 'Password is required', next: passwordError(next) };
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
      <h2>{hasPassword ? 'Change password' : 'Set a password'}</h2>
      {hasPassword ? <TextField label="Current password" name="current" type="password" value={current} onChange={setCurrent} error={errors.current} /> : null}
      <TextField label="New password" name="new" type="password" value={next} onChange={setNext} error={errors.next} />
      <FormMessage kind={message?.kind ?? 'error'} text={message?.text ?? null} />
      <Button type="submit">{hasPassword ? 'Change password' : 'Set password'}</Button>
    </form>
  );
}
