/**
 * Rename a project from the projects list: the title only (the id and every API address stay); the
 * server's refusal (a title another project has) shows in the dialog, which stays open to correct it.
 */
import { useState } from 'react';
import { projectsApi, type ProjectSummary } from '../../api/projects';
import { FormDialog } from '../../components/form-dialog';
import { FormMessage, TextField } from '../../components/form';
import { t } from '../../i18n';

/** `onDone` hears the new title once the server kept it. */
export function RenameProjectDialog(props: { project: ProjectSummary; onCancel: () => void; onDone: (title: string) => void }) {
  const [title, setTitle] = useState(props.project.title);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (!title.trim()) return setError(t('schema.connect.titleRequired'));
    if (title.trim() === props.project.title) return props.onCancel();
    setBusy(true);
    try {
      const res = await projectsApi.rename(props.project.id, title.trim());
      props.onDone(res.title);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog heading={t('admin.projects.renameHeading', { title: props.project.title })} onCancel={props.onCancel} onSubmit={() => void save()} busy={busy} submitLabel={t('admin.projects.rename')}>
      <TextField label={t('schema.connect.projectName')} name="title" value={title} onChange={(v) => (setTitle(v), setError(null))} autoFocus />
      <FormMessage kind="error" text={error} />
    </FormDialog>
  );
}
