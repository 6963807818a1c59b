/** The open schema dialog (create table, rename, add or edit column) and the confirm step above it. */
import { useSignals } from '../../stores/signals';
import { schemaDialog } from '../../stores/schema-ui';
import { ChangeConfirm } from './change-confirm';
import { ColumnForm } from './column-form';
import { CreateTableDialog } from './create-table-dialog';
import { RenameDialog } from './rename-dialog';

/** Mounted once by the project page: whichever schema dialog is open, and the confirm step. */
export function SchemaDialogs() {
  useSignals();
  const d = schemaDialog.value;
  return (
    <>
      {d?.kind === 'createTable' ? <CreateTableDialog scope={d.scope} /> : null}
      {d?.kind === 'renameTable' ? <RenameDialog scope={d.scope} kind="table" tn={d.tn} display={d._tn} sqlName={d.tn} /> : null}
      {d?.kind === 'renameColumn' ? <RenameDialog scope={d.scope} kind="column" tn={d.meta.tn} cn={d.column.cn} display={d.column._cn} sqlName={d.column.cn} /> : null}
      {d?.kind === 'addColumn' ? <ColumnForm scope={d.scope} meta={d.meta} insertAt={d.insertAt} /> : null}
      {d?.kind === 'editColumn' ? <ColumnForm scope={d.scope} meta={d.meta} column={d.column} /> : null}
      {d?.kind === 'editVirtual' ? <ColumnForm scope={d.scope} meta={d.meta} virtual={d.virtual} /> : null}
      <ChangeConfirm />
    </>
  );
}
