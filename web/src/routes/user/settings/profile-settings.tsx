/** /user/settings/profile: the display name (first and last name); the e-mail is shown, not edited. */
import { useState, type FormEvent } from 'react';
import { authApi } from '../../../api/auth';
import { Button, FormMessage, TextField } from '../../../components/form';
import { user } from '../../../stores/session';
import { useSignals } from '../../../stores/signals';

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
      <h2>Profile</h2>
      <p className="muted">Signed in as {user.value?.email}</p>
      <TextField label="First name" name="firstname" value={firstname} onChange={setFirstname} />
      <TextField label="Last name" name="lastname" value={lastname} onChange={setLastname} />
      <FormMessage kind={message?.kind ?? 'error'} text={message?.text ?? null} />
      <Button type="submit">Save</Button>
    </form>
  );
}
