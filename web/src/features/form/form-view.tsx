/**
 * A form view in the dashboard: the builder (owners, creators, editors) beside the live form, and
 * submitting it creates a row through the REST API with the user's rights. A foreign key whose
 * parent table the user may read picks the parent row (in the form and in the builder's preview).
 */
import { useState } from 'react';
import { ToggleButton, ToggleButtonGroup } from 'react-aria-components';
import type { TableMeta } from '../../api/dashboard';
import type { FormSpec } from '../../api/views';
import { recordsApi } from '../../api/records';
import { uploadFormFile } from '../../api/attachments';
import { track } from '../../stores/notifications';
import { useSignals } from '../../stores/signals';
import type { ViewBinding } from '../views/view-binding';
import { FormBuilder } from './form-builder';
import { FormFill } from './form-fill';
import type { ParentSource } from './form-parent';
import { formFields, formSpecOf } from './form-spec';
import { createRights, createRightsNote } from './create-rights';
import { t } from '../../i18n';
import '../views/views-aria.css';

/** The form view of a dashboard tab: Build and Fill in. */
export function FormView(props: { projectId: string; dbAlias: string; meta: TableMeta; binding: ViewBinding }) {
  useSignals();
  const { meta, binding } = props;
  const spec = formSpecOf(binding.view.query_params.form, meta.columns, binding.view.title);
  // Editors start in the builder (their rights may be learnt after the first render).
  const [chosen, setMode] = useState<'build' | 'fill' | null>(null);
  const mode = chosen ?? (binding.canEdit ? 'build' : 'fill');
  const change = (next: FormSpec) => binding.change({ form: next });
  // A form adds rows: it is submitted with the create right (a role may add rows it may not change).
  // Filled in, it asks only for the fields the role may set on a new row, and names those it leaves out.
  const rights = createRights(meta, formFields(spec, meta.columns).map((f) => f.column));
  const fillColumns = meta.columns.filter((c) => !rights.left.includes(c));
  const canSubmit = meta.type === 'table' && (meta.canCreate ?? !meta.readOnly) && rights.blocking.length === 0;
  const note = meta.canCreate === false ? null : createRightsNote(rights);
  // The table meta lists only the relations the user may read: a parent out of reach stays a plain input.
  const parents: ParentSource = { relations: meta.relations, list: (table, where) => recordsApi.list(props.projectId, table, { limit: 25, offset: 0, where }) };
  return (
    <div className="view-body form-view">
      {binding.canEdit ? (
        <ToggleButtonGroup
          className="segmented"
          aria-label={t('views.form.mode')}
          selectionMode="single"
          disallowEmptySelection
          selectedKeys={[mode]}
          onSelectionChange={(keys) => {
            const next = [...keys][0];
            if (next === 'build' || next === 'fill') setMode(next);
          }}
        >
          <ToggleButton id="build" className={mode === 'build' ? 'on' : ''}>{t('views.form.build')}</ToggleButton>
          <ToggleButton id="fill" className={mode === 'fill' ? 'on' : ''}>{t('views.form.fill')}</ToggleButton>
        </ToggleButtonGroup>
      ) : null}
      {mode === 'fill' && note ? <div className="read-only-note" role="note">{note}</div> : !canSubmit && mode === 'fill' ? <div className="read-only-note">{t('views.form.cannotAdd', { table: meta._tn })}</div> : null}
      <div className={`form-layout${mode === 'build' ? ' building' : ''}`}>
        {mode === 'build' ? <FormBuilder spec={spec} columns={meta.columns} onChange={change} /> : null}
        <div className="form-stage">
          <FormFill
            key={mode}
            spec={spec}
            columns={mode === 'fill' ? fillColumns : meta.columns}
            preview={mode === 'build'}
            parents={parents}
            // The builder's preview shows the form; rows are made in 'Fill in'.
            upload={canSubmit && mode === 'fill' ? (column, file, onProgress) => uploadFormFile(props.projectId, meta._tn, column, file, onProgress) : undefined}
            onSubmit={canSubmit && mode === 'fill' ? async (row) => void (await track(t('views.form.submitTrack'), recordsApi.create(props.projectId, meta._tn, row))) : undefined}
          />
        </div>
      </div>
    </div>
  );
}
