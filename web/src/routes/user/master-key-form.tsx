/**
 * Sign-in of a Tablo started with a master key (auth type masterKey): the key is checked with
 * POST /auth/admin/verify, then kept and sent as `xc-master-key` on every call.
 */
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { authApi } from '../../api/auth';
import { acceptMasterKey, returnTo } from '../../app/session-actions';
import { Button, FormMessage, TextField } from '../../components/form';
import { t } from '../../i18n';

/** The master key field, its check and the server's message when the key is wrong. */
export function MasterKeyForm() {
  const navigate = useNavigate();
  const location = useLocation();
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setServerError(null);
    setError(secret ? null : t('admin.auth.masterKeyRequired'));
    if (!secret) return;
    setBusy(true);
    try {
      await authApi.verifyMasterKey(secret);
      await acceptMasterKey(secret);
      navigate(returnTo(location.state), { replace: true });
    } catch (err) {
      setServerError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <TextField label={t('admin.auth.masterKey')} name="master-key" type="password" value={secret} onChange={setSecret} error={error} autoFocus />
      <FormMessage kind="error" text={serverError} />
      <Button type="submit" disabled={busy}>
        {busy ? t('admin.auth.checking') : t('admin.auth.signIn')}
      </Button>
    </form>
  );
}
