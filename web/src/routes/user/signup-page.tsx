/** Sign up: says you will be the Super Admin when you are the first user; carries an invite token. */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { authApi } from '../../api/auth';
import { acceptToken } from '../../app/session-actions';
import { AuthCard, Button, FormMessage, TextField } from '../../components/form';
import { emailError, passwordError } from '../../lib/validation';
import { projectInfo } from '../../stores/session';
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

  return (
    <AuthCard
      title="Sign up"
      subtitle={
        first ? (
          <strong className="super-admin-note">You will be the Super Admin of this Tablo: the first account manages users and projects.</strong>
        ) : inviteToken ? (
          'Set a password to accept your invitation.'
        ) : (
          'Create your Tablo account.'
        )
      }
      footer={
        <span>
          Already have an account? <Link to="/user/authentication/signin">Sign in</Link>
        </span>
      }
    >
      <form onSubmit={submit} noValidate>
        <TextField label="E-mail" name="email" type="email" value={email} onChange={setEmail} error={errors.email} autoFocus />
        <TextField label="Password" name="password" type="password" value={password} onChange={setPassword} error={errors.password} />
        <FormMessage kind="error" text={serverError} />
        <Button type="submit" disabled={busy}>
          {busy ? 'Creating account…' : 'Sign up'}
        </Button>
      </form>
    </AuthCard>
  );
}
