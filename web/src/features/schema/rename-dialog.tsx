/**
 * Rename a table or a column: the display name, and only when asked (a checkbox) the SQL name.
 * Goes through the confirm step like every schema change.
 */
import { useState } from 'react';
import { FormMessage, TextField } from '../../components/form';
import { FormDialog } from '../../components/form-dialog';
import type { DbScope } from '../../api/schema';
import { schemaDialog } from '../../stores/schema-ui';
import { renameTabs } from '../../stores/tabs';
import { proposeChange } from './change-flow';
import { sqlNameFor, sqlNameProblem } from './column-types';
import { t } from '../../i18n';
import { OnOff } from './aria-fields';

interface Target {
  scope: DbScope;
  /** 'table' renames tn (tableRename); 'column' renames cn of table tn (columnUpdate). */
  kind: 'table' | 'column';
  tn: string;
  cn?: string;
  display: string;
  sqlName: string;
}

/** The rename dialog of a table or a column. */
export function RenameDialog(props: Target) {
  const [display, setDisplay] = useState(props.display);
  const [renameSql, setRenameSql] = useState(false);
  const [sqlName, setSqlName] = useState(props.sqlName);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const table = props.kind === 'table';
  const close = () => (schemaDialog.value = null);
  const save = async () => {
    if (!display.trim()) return setError(table ? t('schema.problem.tableRenameRequired') : t('schema.problem.columnRenameRequired'));
    const sqlProblem = renameSql ? sqlNameProblem(sqlName, 'SQL name') : null;
    if (sqlProblem) return setError(sqlProblem);
    const newDisplay = display.trim() !== props.display ? display.trim() : undefined;
    const newSql = renameSql && sqlName.trim() !== props.sqlName ? sqlName.trim() : undefined;
    if (!newDisplay && !newSql) return close();
    setBusy(true);
    const title = table ? t('schema.change.renameTable', { name: props.display }) : t('schema.change.renameColumn', { name: props.display });
    const done =
      props.kind === 'table'
        ? await proposeChange(title, props.scope, 'tableRename', { tn: props.tn, ...(newDisplay ? { _tn: newDisplay } : {}), ...(newSql ? { newTn: newSql } : {}) })
        : await proposeChange(title, props.scope, 'columnUpdate', { tn: props.tn, cn: props.cn, column: { ...(newDisplay ? { _cn: newDisplay } : {}), ...(newSql ? { cn: newSql } : {}) } });
    setBusy(false);
    if (!done) return;
    if (props.kind === 'table') renameTabs(props.scope.dbAlias, props.display, done.table?._tn ?? newDisplay ?? props.display);
    close();
  };
  return (
    <FormDialog heading={table ? t('schema.rename.tableHeading') : t('schema.rename.columnHeading')} onCancel={close} onSubmit={() => void save()} busy={busy} submitLabel={t('schema.rename.submit')}>
      <TextField label={table ? t('schema.rename.tableName') : t('schema.rename.columnName')} name="rename-display" value={display} onChange={setDisplay} autoFocus />
      <OnOff
        isSelected={renameSql}
        onChange={(on) => {
          setRenameSql(on);
          if (on && sqlName === props.sqlName && display.trim() !== props.display) setSqlName(sqlNameFor(display));
        }}
      >
        {table ? t('schema.rename.tableSql') : t('schema.rename.columnSql')}
      </OnOff>
      {renameSql ? <TextField label={t('schema.rename.sqlName')} name="rename-sql" value={sqlName} onChange={setSqlName} /> : <p className="muted">{t('schema.rename.sqlStays', { name: props.sqlName })}</p>}
      <FormMessage kind="error" text={error} />
    </FormDialog>
  );
}
