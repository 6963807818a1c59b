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
import { t } from '../../i18n';
import { TipButton } from '../tree/tip-button';
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
    const problem = !name.trim() ? t('schema.problem.tableNameRequired') : sqlNameProblem(tn, 'Table name') ?? columnsProblem(columns);
    if (problem) return setError(problem);
    setError(null);
    setBusy(true);
    // Unchanged defaults are left to the server, which knows each engine's spelling of them.
    const changed = JSON.stringify(columns) !== JSON.stringify(DEFAULT_COLUMNS);
    const done = await proposeChange(t('schema.change.createTable', { name: name.trim() }), props.scope, 'tableCreate', { tn, _tn: name.trim(), ...(changed ? { columns } : {}) });
    setBusy(false);
    if (!done) return;
    close();
    const title = done.table?._tn ?? name.trim();
    const refused = openTab({ type: 'table', name: title, dbAlias: props.scope.dbAlias, title });
    if (refused) toast('error', refused, 5000);
  };
  return (
    <FormDialog heading={t('schema.createTable.heading')} wide onCancel={close} onSubmit={() => void save()} busy={busy} submitLabel={busy ? t('schema.createTable.creating') : t('schema.createTable.create')}>
      <TextField label={t('schema.createTable.tableName')} name="table-name" value={name} onChange={setName} autoFocus />
      {name.trim() && sqlNameFor(name) !== name.trim() ? <p className="muted">{t('schema.createTable.sqlName', { name: sqlNameFor(name) })}</p> : null}
      <table className="list-table columns-table" aria-label={t('schema.createTable.columns')}>
        <thead>
          <tr><th>{t('schema.createTable.column')}</th><th>{t('schema.createTable.type')}</th><th>{t('schema.createTable.primaryKey')}</th><th>{t('schema.createTable.autoIncrement')}</th><th /></tr>
        </thead>
        <tbody>
          {columns.map((c, i) => (
            <tr key={i}>
              <td><input aria-label={t('schema.createTable.columnName', { number: i + 1 })} value={c.cn} onChange={(e) => set(i, { cn: e.target.value })} /></td>
              <td>
                <select aria-label={t('schema.createTable.columnType', { number: i + 1 })} value={c.uidt} onChange={(e) => set(i, { uidt: e.target.value, default: undefined, meta: undefined, ai: e.target.value === 'Number' ? c.ai : false })}>
                  {COLUMN_TYPES.map((type) => <option key={type.uidt} value={type.uidt}>{type.label}</option>)}
                </select>
              </td>
              <td><input type="checkbox" aria-label={t('schema.createTable.columnPrimaryKey', { number: i + 1 })} checked={!!c.pk} onChange={(e) => set(i, { pk: e.target.checked, nullable: e.target.checked ? false : undefined })} /></td>
              <td><input type="checkbox" aria-label={t('schema.createTable.columnAutoIncrement', { number: i + 1 })} checked={!!c.ai} disabled={c.uidt !== 'Number'} onChange={(e) => set(i, { ai: e.target.checked })} /></td>
              <td><TipButton className="chip-x" label={t('schema.createTable.removeColumn', { number: i + 1 })} onPress={() => setColumns(columns.filter((_, j) => j !== i))}><span aria-hidden>×</span></TipButton></td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="inline-actions">
        <Button variant="ghost" onClick={() => setColumns([...columns, { cn: '', uidt: 'SingleLineText' }])}>{t('schema.createTable.addColumn')}</Button>
        <Button variant="ghost" onClick={() => setColumns(DEFAULT_COLUMNS)}>{t('schema.createTable.reset')}</Button>
      </div>
      <FormMessage kind="error" text={error} />
    </FormDialog>
  );
}
