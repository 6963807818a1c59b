/**
 * The create-table dialog: the table name, and its first columns listed and editable (by default an
 * auto-increment id, title, created_at and updated_at). Goes through the confirm step.
 */
import { useState } from 'react';
import type { DbScope, ColumnInput } from '../../api/schema';
import { FormMessage, TextField, Button } from '../../components/form';
import { FormDialog } from '../../components/form-dialog';
import { schemaDialog } from '../../stores/schema-ui';
import { openTab } from '../../stores/tabs';
import { toast } from '../../stores/toasts';
import { proposeChange } from './change-flow';
import { COLUMN_TYPES, columnsProblem, DEFAULT_COLUMNS, sqlNameFor, sqlNameProblem } from './column-types';

/** The create-table dialog of one database; the new table opens in a tab once created. */
export function CreateTableDialog(props: { scope: DbScope }) {
  const [name, setName] = useState('');
  const [columns, setColumns] = useState<ColumnInput[]>(DEFAULT_COLUMNS);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => (schemaDialog.value = null);
  const set = (i: number, patch: Partial<ColumnInput>) => setColumns(columns.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const save = async () => {
    const tn = sqlNameFor(name);
    const problem = !name.trim() ? 'Table name is required' : sqlNameProblem(tn, 'Table name') ?? columnsProblem(columns);
    if (problem) return setError(problem);
    setError(null);
    setBusy(true);
    // Unchanged defaults are left to the server, which knows each engine's spelling of them.
    const changed = JSON.stringify(columns) !== JSON.stringify(DEFAULT_COLUMNS);
    const done = await proposeChange(`Create table ${name.trim()}`, props.scope, 'tableCreate', { tn, _tn: name.trim(), ...(changed ? { columns } : {}) });
    setBusy(false);
    if (!done) return;
    close();
    const title = done.table?._tn ?? name.trim();
    const refused = openTab({ type: 'table', name: title, dbAlias: props.scope.dbAlias, title });
    if (refused) toast('error', refused, 5000);
  };
  return (
    <FormDialog heading="Create table" wide onCancel={close} onSubmit={() => void save()} busy={busy} submitLabel={busy ? 'Creating…' : 'Create'}>
      <TextField label="Table name" name="table-name" value={name} onChange={setName} autoFocus />
      {name.trim() && sqlNameFor(name) !== name.trim() ? <p className="muted">SQL name: {sqlNameFor(name)}</p> : null}
      <table className="list-table columns-table" aria-label="Columns">
        <thead>
          <tr><th>Column</th><th>Type</th><th>Primary key</th><th>Auto increment</th><th /></tr>
        </thead>
        <tbody>
          {columns.map((c, i) => (
            <tr key={i}>
              <td><input aria-label={`Column ${i + 1} name`} value={c.cn} onChange={(e) => set(i, { cn: e.target.value })} /></td>
              <td>
                <select aria-label={`Column ${i + 1} type`} value={c.uidt} onChange={(e) => set(i, { uidt: e.target.value, default: undefined, ai: e.target.value === 'Number' ? c.ai : false })}>
                  {COLUMN_TYPES.map((t) => <option key={t.uidt} value={t.uidt}>{t.label}</option>)}
                </select>
              </td>
              <td><input type="checkbox" aria-label={`Column ${i + 1} primary key`} checked={!!c.pk} onChange={(e) => set(i, { pk: e.target.checked, nullable: e.target.checked ? false : undefined })} /></td>
              <td><input type="checkbox" aria-label={`Column ${i + 1} auto increment`} checked={!!c.ai} disabled={c.uidt !== 'Number'} onChange={(e) => set(i, { ai: e.target.checked })} /></td>
              <td><button type="button" className="chip-x" aria-label={`Remove column ${i + 1}`} onClick={() => setColumns(columns.filter((_, j) => j !== i))}>×</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="inline-actions">
        <Button variant="ghost" onClick={() => setColumns([...columns, { cn: '', uidt: 'SingleLineText' }])}>+ Column</Button>
        <Button variant="ghost" onClick={() => setColumns(DEFAULT_COLUMNS)}>Reset to the default columns</Button>
      </div>
      <FormMessage kind="error" text={error} />
    </FormDialog>
  );
}
