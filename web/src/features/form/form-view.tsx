/**
 * A form view in the dashboard: the builder (owners, creators, editors) beside the live form, and
 * submitting it creates a row through the REST API with the user's rights.
 */
import { useState } from 'react';
import type { TableMeta } from '../../api/dashboard';
import type { FormSpec } from '../../api/views';
import { recordsApi } from '../../api/records';
import { track } from '../../stores/notifications';
import { useSignals } from '../../stores/signals';
import type { ViewBinding } from '../views/view-binding';
import { FormBuilder } from './form-builder';
import { FormFill } from './form-fill';
import { formSpecOf } from './form-spec';

/** The form view of a dashboard tab: Build and Fill in. */
export function FormView(props: { projectId: string; dbAlias: string; meta: TableMeta; binding: ViewBinding }) {
  useSignals();
  const { meta, binding } = props;
  const spec = formSpecOf(binding.view.query_params.form, meta.columns, binding.view.title);
  // Editors start in the builder (their rights may be learnt after the first render).
  const [chosen, setMode] = useState<'build' | 'fill' | null>(null);
  const mode = chosen ?? (binding.canEdit ? 'build' : 'fill');
  const change = (next: FormSpec) => binding.change({ form: next });
  const canSubmit = meta.type === 'table' && !meta.readOnly;
  return (
    <div className="view-body form-view">
      {binding.canEdit ? (
        <div className="segmented" role="radiogroup" aria-label="Form mode">
          <button role="radio" aria-checked={mode === 'build'} className={mode === 'build' ? 'on' : ''} onClick={() => setMode('build')}>Build</button>
          <button role="radio" aria-checked={mode === 'fill'} className={mode === 'fill' ? 'on' : ''} onClick={() => setMode('fill')}>Fill in</button>
        </div>
      ) : null}
      <div className={`form-layout${mode === 'build' ? ' building' : ''}`}>
        {mode === 'build' ? <FormBuilder spec={spec} columns={meta.columns} onChange={change} /> : null}
        <div className="form-stage">
          <FormFill
            key={mode}
            spec={spec}
            columns={meta.columns}
            preview={mode === 'build'}
            // The builder's preview shows the form; rows are made in 'Fill in'.
            onSubmit={canSubmit && mode === 'fill' ? async (row) => void (await track('Submit form', recordsApi.create(props.projectId, meta._tn, row))) : undefined}
          />
        </div>
      </div>
    </div>
  );
}
