/**
 * The form builder: heading, subheading, the fields (drag or ↑ ↓ to order, each with its label,
 * help text and required switch; add or remove them), the submit message and the redirect URL.
 */
import { useState } from 'react';
import { GripVertical, X } from 'lucide-react';
import type { ColumnMeta } from '../../api/dashboard';
import type { FormField, FormSpec } from '../../api/views';
import { moveItem } from '../views/view-state';
import { formableColumns, formFields, safeRedirect } from './form-spec';

/** The builder of a form view; every change goes to `onChange` (saved in the view). */
export function FormBuilder(props: { spec: FormSpec; columns: ColumnMeta[]; onChange: (spec: FormSpec) => void }) {
  const { spec, columns } = props;
  const [dragging, setDragging] = useState<number | null>(null);
  const set = (patch: Partial<FormSpec>) => props.onChange({ ...spec, ...patch });
  const setField = (i: number, patch: Partial<FormField>) => set({ fields: spec.fields.map((f, j) => (j === i ? { ...f, ...patch } : f)) });
  const used = new Set(formFields(spec, columns).map((x) => x.column._cn));
  const unused = formableColumns(columns).filter((c) => !used.has(c._cn));
  const redirectBad = !!spec.redirectUrl?.trim() && !safeRedirect(spec.redirectUrl);
  return (
    <div className="form-builder" aria-label="Form builder" role="region">
      <div className="field">
        <label htmlFor="fb-heading">Heading</label>
        <input id="fb-heading" value={spec.heading} onChange={(e) => set({ heading: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="fb-subheading">Subheading</label>
        <textarea id="fb-subheading" rows={2} value={spec.subheading} onChange={(e) => set({ subheading: e.target.value })} />
      </div>
      <h3 className="fb-section">Fields</h3>
      <ol className="fb-fields">
        {spec.fields.map((f, i) => {
          const column = columns.find((c) => c._cn === f.cn || c.cn === f.cn);
          if (!column) return null;
          return (
            <li
              key={f.cn}
              className={`fb-field${dragging === i ? ' dragging' : ''}`}
              draggable
              onDragStart={(e) => (setDragging(i), e.dataTransfer.setData('text/plain', f.cn))}
              onDragOver={(e) => e.preventDefault()}
              onDrop={(e) => {
                e.preventDefault();
                if (dragging !== null) set({ fields: moveItem(spec.fields, dragging, i) });
                setDragging(null);
              }}
              onDragEnd={() => setDragging(null)}
              aria-label={`Field ${column._cn}`}
            >
              <div className="fb-field-head">
                <GripVertical size={14} className="drag-handle" aria-hidden />
                <strong>{column._cn}</strong> <span className="grid-type">{column.uidt}</span>
                <span className="field-moves">
                  <button type="button" aria-label={`Move ${column._cn} up`} disabled={i === 0} onClick={() => set({ fields: moveItem(spec.fields, i, i - 1) })}>↑</button>
                  <button type="button" aria-label={`Move ${column._cn} down`} disabled={i === spec.fields.length - 1} onClick={() => set({ fields: moveItem(spec.fields, i, i + 1) })}>↓</button>
                  <button type="button" aria-label={`Remove ${column._cn} from the form`} onClick={() => set({ fields: spec.fields.filter((_, j) => j !== i) })}><X size={13} /></button>
                </span>
              </div>
              <div className="fb-field-props">
                <input aria-label={`Label of ${column._cn}`} placeholder={`Label (${column._cn})`} value={f.label ?? ''} onChange={(e) => setField(i, { label: e.target.value || undefined })} />
                <input aria-label={`Help of ${column._cn}`} placeholder="Help text" value={f.help ?? ''} onChange={(e) => setField(i, { help: e.target.value || undefined })} />
                <label className="check">
                  <input type="checkbox" aria-label={`${column._cn} is required`} checked={!!f.required} onChange={(e) => setField(i, { required: e.target.checked })} /> Required
                </label>
              </div>
            </li>
          );
        })}
      </ol>
      {unused.length ? (
        <label className="toolbar-select">
          <span className="muted">Add a field</span>
          <select aria-label="Add a field" value="" onChange={(e) => e.target.value && set({ fields: [...spec.fields, { cn: e.target.value }] })}>
            <option value="">choose…</option>
            {unused.map((c) => <option key={c.cn} value={c._cn}>{c._cn}</option>)}
          </select>
        </label>
      ) : null}
      <h3 className="fb-section">After submitting</h3>
      <div className="field">
        <label htmlFor="fb-message">Submit message</label>
        <textarea id="fb-message" rows={2} value={spec.submitMessage} onChange={(e) => set({ submitMessage: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="fb-redirect">Redirect URL</label>
        <input id="fb-redirect" placeholder="https://example.com/thanks (optional)" value={spec.redirectUrl ?? ''} aria-invalid={redirectBad} onChange={(e) => set({ redirectUrl: e.target.value || undefined })} />
        {redirectBad ? <div className="field-error" role="alert">Only http:// and https:// addresses are followed; this one is ignored.</div> : null}
      </div>
    </div>
  );
}
