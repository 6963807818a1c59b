/** /user/settings/profile: the display name (first and last name); the e-mail is shown, not edited. */
import { useState, type FormEvent } from 'react';
import { authApi } from '../../../api/auth';
import { Button, FormMessage, TextField } from '../../../components/form';
import { user } from '../../../stores/session';
import { useSignals } from '../../../stores/signals';
import { t } from '../../../i18n';

export function ProfileSettings() {
  useSignals();
  const [firstname, setFirstname] = useState(user.value?.firstname ?? '');
  const [lastname, setLastname] = useState(user.value?.lastname ?? '');
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const res = await authApi.updateProfile(firstname, lastname);
      if (user.value) user.value = { ...user.value, firstname: res.firstname, lastname: res.lastname };
      setMessage({ kind: 'success', text: res.msg });
    } catch (x) {
      setMessage({ kind: 'error', text: (x as Error).message });
    }
  };
  return (
    <form className="settings-form" onSubmit={submit} noValidate>
      <h2>{t('admin.settings.profile')}</h2>
      <p className="muted">{t('admin.settings.signedInAs', { email: user.value?.email ?? '' })}</p>
      <TextField label={t('admin.settings.firstName')} name="firstname" value={firstname} onChange={setFirstname} />
      <TextField label={t('admin.settings.lastName')} name="lastname" value={lastname} onChange={setLastname} />
      <FormMessage kind={message?.kind ?? 'error'} text={message?.text ?? null} />
      <Button type="submit">{t('admin.common.save')}</Button>
    </form>
  );
}
