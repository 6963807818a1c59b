/** The environment of the API client: choose one, edit its variables (name, value, enabled), add or delete one. */
import { useState } from 'react';
import { apiClientApi, type EnvironmentData, type SavedItem } from '../../api/api-client';
import { Button } from '../../components/form';
import { toast } from '../../stores/toasts';
import { t } from '../../i18n';
import { KeyValueEditor } from './kv-editor';
import type { KeyValue } from './request-model';

export function EnvironmentBar(props: { projectId: string; envs: SavedItem<EnvironmentData>[]; envId: string; onChoose: (id: string) => void; onChanged: () => void; readOnly?: boolean }) {
  const [editing, setEditing] = useState<{ id?: string; name: string; variables: KeyValue[] } | null>(null);
  const current = props.envs.find((e) => e.id === props.envId);
  const save = async () => {
    if (!editing?.name.trim()) return toast('error', t('tools.env.nameNeeded'));
    try {
      const { id } = await apiClientApi.save(props.projectId, { id: editing.id, kind: 'environment', name: editing.name.trim(), data: { variables: editing.variables } });
      props.onChanged();
      props.onChoose(id);
      setEditing(null);
      toast('success', t('tools.env.saved', { name: editing.name.trim() }));
    } catch (e) {
      toast('error', (e as Error).message);
    }
  };
  return (
    <div className="environment-bar">
      <label className="field inline">
        <span>{t('tools.env.label')}</span>
        <select aria-label={t('tools.env.label')} value={props.envId} onChange={(e) => props.onChoose(e.target.value)}>
          <option value="">{t('tools.env.none')}</option>
          {props.envs.map((e) => <option key={e.id} value={e.id}>{e.name}</option>)}
        </select>
      </label>
      {current && !props.readOnly ? <Button variant="ghost" onClick={() => setEditing({ id: current.id, name: current.name, variables: current.data.variables })}>{t('tools.env.editVariables')}</Button> : null}
      {props.readOnly ? null : <Button variant="ghost" onClick={() => setEditing({ name: '', variables: [{ name: '', value: '', enabled: true }] })}>{t('tools.env.new')}</Button>}
      {current && !props.readOnly ? <Button variant="ghost" onClick={() => apiClientApi.remove(props.projectId, current.id).then(() => (props.onChoose(''), props.onChanged()), (e) => toast('error', e.message))}>{t('tools.env.delete')}</Button> : null}
      {editing ? (
        <div className="env-editor" role="group" aria-label={t('tools.env.variablesGroup')}>
          <input aria-label={t('tools.env.name')} placeholder={t('tools.env.name')} value={editing.name} onChange={(e) => setEditing({ ...editing, name: e.target.value })} />
          <KeyValueEditor label={t('tools.env.variables')} rows={editing.variables} onChange={(variables) => setEditing({ ...editing, variables })} />
          <div className="inline-actions">
            <Button onClick={save}>{t('tools.env.save')}</Button>
            <Button variant="ghost" onClick={() => setEditing(null)}>{t('tools.env.cancel')}</Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
