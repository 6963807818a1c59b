/** New Project: the name of a project on a new embedded SQLite database. */
import { useState, type FormEvent } from 'react';
import { projectsApi } from '../../api/projects';
import { Button, TextField } from '../../components/form';
import { toast } from '../../stores/toasts';
import { t } from '../../i18n';

/** The name of a new embedded project; `onDone` gets its id (the page opens it). */
export function NewProjectForm(props: { onDone: (id: string) => void; onCancel: () => void }) {
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!title.trim()) return setError(t('admin.projects.nameRequired'));
    setBusy(true);
    try {
      const made = await projectsApi.createEmbedded(title.trim());
      toast('success', t('admin.projects.createdNamed', { title: title.trim() }));
      props.onDone(made.id);
    } catch (x) {
      setError((x as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="inline-form" onSubmit={submit} noValidate>
      <TextField label={t('admin.projects.name')} name="title" value={title} onChange={setTitle} error={error} autoFocus />
      <div className="inline-actions">
        <Button variant="secondary" onClick={props.onCancel}>{t('admin.common.cancel')}</Button>
        <Button type="submit" disabled={busy}>{busy ? t('admin.projects.creating') : t('admin.projects.create')}</Button>
      </div>
    </form>
  );
}
