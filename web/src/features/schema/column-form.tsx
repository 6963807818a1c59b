/**
 * The add / edit column form: name, type picker (the logical types, "Link to another record",
 * Formula, Rollup, Lookup), the type's options, and Save, which goes through the confirm step.
 * A column inserted left or right of another is then moved there (display order).
 */
import { useState } from 'react';
import type { ColumnMeta, TableMeta, VirtualMeta } from '../../api/dashboard';
import { schemaApi, type DbScope } from '../../api/schema';
import { TextField, FormMessage } from '../../components/form';
import { FormDialog } from '../../components/form-dialog';
import { track } from '../../stores/notifications';
import { schemaChanged, schemaDialog } from '../../stores/schema-ui';
import { proposeChange, proposeVirtual } from './change-flow';
import { columnChanges, columnInput, draftOf, draftOfVirtual, draftProblem, newDraft, orderWith, virtualInput, withName, withType, type ColumnDraft } from './column-draft';
import { COLUMN_TYPES, VIRTUAL_TYPES } from './column-types';
import { TypeOptions } from './type-options';
import { FormulaEditor } from './formula-editor';
import { t } from '../../i18n';
import { SectionSelect } from './aria-fields';
import { LinkPicker, RelationColumnPicker } from './relation-pickers';

type Props = { scope: DbScope; meta: TableMeta } & ({ insertAt?: number; column?: undefined; virtual?: undefined } | { column: ColumnMeta; virtual?: undefined; insertAt?: undefined } | { virtual: VirtualMeta; column?: undefined; insertAt?: undefined });

const VIRTUAL = ['Formula', 'Rollup', 'Lookup'];

/** Add a column (at a position, or last), or edit a database or virtual column. */
export function ColumnForm(props: Props) {
  const { scope, meta } = props;
  const [initial] = useState<ColumnDraft>(() => (props.column ? draftOf(props.column) : props.virtual ? draftOfVirtual(props.virtual) : newDraft()));
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const editing = props.column?._cn ?? props.virtual?._cn ?? null;
  const close = () => (schemaDialog.value = null);
  const columnNames = [...meta.columns.map((c) => c._cn), ...(meta.virtuals ?? []).map((v) => v._cn)].filter((n) => n !== editing);

  const save = async () => {
    const problem = draftProblem(draft, meta, editing);
    if (problem) return setError(problem);
    setError(null);
    setBusy(true);
    try {
      if (await run()) close();
    } finally {
      setBusy(false);
    }
  };

  /** Proposes the change; true once it ran. */
  const run = async (): Promise<boolean> => {
    const tn = meta.tn;
    if (props.virtual) {
      const column = virtualInput(draft);
      return !!(await proposeVirtual(t('schema.change.changeColumn', { name: props.virtual._cn }), scope, 'virtualColumnUpdate', { tn, _cn: props.virtual._cn, column }));
    }
    if (props.column) {
      const column = columnChanges(initial, draft);
      if (!Object.keys(column).length) return true;
      return !!(await proposeChange(t('schema.change.changeColumn', { name: props.column._cn }), scope, 'columnUpdate', { tn, cn: props.column.cn, column }));
    }
    if (draft.uidt === 'Links') {
      const args = { type: draft.linkType, parentTn: tn, childTn: draft.linkTable };
      const names = { table: meta._tn, other: draft.linkTitle || draft.linkTable };
      const title = draft.linkType === 'hm' ? t('schema.change.linkHasMany', names) : t('schema.change.linkManyToMany', names);
      return !!(await proposeChange(title, scope, 'relationCreate', args));
    }
    if (VIRTUAL.includes(draft.uidt)) return !!(await proposeVirtual(t('schema.change.addColumn', { name: draft.name.trim() }), scope, 'virtualColumnCreate', { tn, column: virtualInput(draft) }));
    const column = columnInput(draft);
    const done = await proposeChange(t('schema.change.addColumn', { name: column._cn }), scope, 'columnAdd', { tn, column });
    if (!done) return false;
    if (props.insertAt !== undefined) {
      await track(t('schema.change.moveColumn', { name: column._cn }), schemaApi.reorder(scope, tn, orderWith(meta, column.cn, props.insertAt))).then(schemaChanged, () => {});
    }
    return true;
  };

  const isVirtual = VIRTUAL.includes(draft.uidt);
  const heading = editing ? t('schema.form.editColumn', { name: editing }) : props.insertAt !== undefined ? t('schema.form.insertColumn') : t('schema.form.addColumn');
  return (
    <FormDialog heading={heading} wide onCancel={close} onSubmit={() => void save()} busy={busy} submitLabel={busy ? t('schema.form.saving') : t('schema.form.save')}>
      <div className="column-form">
        {draft.uidt !== 'Links' ? <TextField label={t('schema.form.columnName')} name="col-name" value={draft.name} onChange={(v) => setDraft(withName(draft, v))} autoFocus /> : null}
        <SectionSelect
          label={t('schema.form.columnType')}
          name="col-type"
          value={draft.uidt}
          isDisabled={!!props.virtual || !!props.column?.pk}
          onChange={(uidt) => setDraft(withType(draft, uidt))}
          loose={props.column && !COLUMN_TYPES.some((c) => c.uidt === props.column!.uidt) ? [{ id: props.column.uidt, label: props.column.uidt }] : []}
          sections={[
            { heading: t('schema.form.fields'), items: COLUMN_TYPES.map((c) => ({ id: c.uidt, label: c.label })) },
            ...(!props.column ? [{ heading: t('schema.form.relationsAndComputed'), items: VIRTUAL_TYPES.filter((v) => !props.virtual || v.uidt !== 'Links').map((v) => ({ id: v.uidt, label: v.label })) }] : []),
          ]}
        />
        {draft.uidt === 'Links' ? (
          <LinkPicker scope={scope} meta={meta} draft={draft} onChange={setDraft} />
        ) : draft.uidt === 'Formula' ? (
          <FormulaEditor scope={scope} tn={meta.tn} columns={columnNames} value={draft.formula} onChange={(formula) => setDraft({ ...draft, formula })} editing={props.virtual?._cn} />
        ) : isVirtual ? (
          <RelationColumnPicker scope={scope} meta={meta} draft={draft} onChange={setDraft} />
        ) : (
          <TypeOptions draft={draft} onChange={setDraft} isKey={!!props.column?.pk} />
        )}
      </div>
      <FormMessage kind="error" text={error} />
    </FormDialog>
  );
}
