/**
 * A form to fill in: heading, subheading, the form's fields with their labels, help and required
 * marks; an Attachment field is a file picker (form-files.tsx) whose files upload as they are chosen;
 * a belongs-to foreign key picks its parent row (form-parent.tsx) where `parents` knows the relation.
 * A submission with no field filled in is refused before any call (an empty row answers nothing);
 * else the row is created, then the submit message shows or the redirect URL opens.
 * Used in the dashboard (the user's rights) and on a shared form link.
 */
import { useState, type FormEvent } from 'react';
import type { ColumnMeta } from '../../api/dashboard';
import type { FormSpec } from '../../api/views';
import { Button, FormMessage } from '../../components/form';
import { FieldInput, incompleteField } from '../grid/field-input';
import { FormFiles, stillUploading, uploadedEntries, type FormUpload, type PickedFile } from './form-files';
import { ParentField, parentRelationOf, type ParentSource } from './form-parent';
import { t } from '../../i18n';
import { defaultSubmitMessage, formFields, labelOf, missingRequired, nothingFilled, rowOf, safeRedirect } from './form-spec';

/** The form to fill in; without `onSubmit` it only shows (a preview). */
export function FormFill(props: { spec: FormSpec; columns: ColumnMeta[]; onSubmit?: (row: Record<string, unknown>) => Promise<{ message?: string } | void>; upload?: FormUpload; parents?: ParentSource; preview?: boolean }) {
  const { spec, columns } = props;
  const [values, setValues] = useState<Record<string, string>>({});
  const [files, setFiles] = useState<Record<string, PickedFile[]>>({});
  const fileFields = formFields(spec, columns).filter(({ column }) => column.uidt === 'Attachment');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** A submission with no field filled in was refused: the message shows until a field changes. */
  const [nothing, setNothing] = useState(false);
  /** A field's "is required" goes once the field is changed (it is checked again on submit). */
  const answered = (cn: string) => (setNothing(false), setErrors((all) => (cn in all ? Object.fromEntries(Object.entries(all).filter(([k]) => k !== cn)) : all)));
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!props.onSubmit) return;
    // A date or time left half typed reads as empty: refused, naming the field, not sent without it.
    const incomplete = incompleteField(e.currentTarget);
    if (incomplete) {
      const found = formFields(spec, columns).find(({ column }) => column._cn === incomplete);
      return setError(t('grid.cell.incomplete', { column: found ? labelOf(found.field, found.column) : incomplete }));
    }
    if (stillUploading(files)) return setError(t('views.form.waitUploads'));
    // An Attachment field counts as filled in when a file of it is uploaded; the row gets their entries.
    const attached = Object.fromEntries(fileFields.map(({ column }) => [column._cn, uploadedEntries(files[column._cn])]));
    const filled = Object.fromEntries(Object.entries(attached).map(([cn, list]) => [cn, list.length ? String(list.length) : '']));
    const missing = missingRequired(spec, columns, { ...values, ...filled });
    setErrors(missing);
    if (Object.keys(missing).length) return;
    const row = rowOf(spec, columns, values);
    for (const [cn, list] of Object.entries(attached)) if (list.length) row[cn] = list;
    setNothing(nothingFilled(row));
    if (nothingFilled(row)) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await props.onSubmit(row);
      const to = safeRedirect(spec.redirectUrl);
      if (to) {
        window.location.assign(to);
        return;
      }
      setDone((answer && answer.message) || spec.submitMessage || defaultSubmitMessage());
      setValues({});
      setFiles({});
    } catch (x) {
      setError((x as Error).message);
    } finally {
      setBusy(false);
    }
  };
  if (done) {
    return (
      <div className="form-card form-done" role="status">
        <h2>{spec.heading}</h2>
        <p className="form-submit-message">{done}</p>
        <Button variant="secondary" onClick={() => setDone(null)}>{t('views.form.another')}</Button>
      </div>
    );
  }
  return (
    <form className="form-card" aria-label={spec.heading || t('views.kind.form')} onSubmit={submit} noValidate>
      {spec.heading ? <h2 className="form-heading">{spec.heading}</h2> : null}
      {spec.subheading ? <p className="form-subheading muted">{spec.subheading}</p> : null}
      {formFields(spec, columns).map(({ field, column }) => {
        const id = `form-${column.cn}`;
        const parent = parentRelationOf(props.parents, column);
        return (
          <div key={column.cn} className="field form-field">
            <label htmlFor={id} id={`${id}-label`}>
              {labelOf(field, column)}
              {field.required ? <span className="required" aria-label={t('views.form.requiredMark')}> *</span> : null}
            </label>
            {column.uidt === 'Attachment' ? (
              <FormFiles id={id} column={column} files={files[column._cn] ?? []} upload={props.preview ? undefined : props.upload} onChange={(update) => (setFiles((all) => ({ ...all, [column._cn]: update(all[column._cn] ?? []) })), answered(column._cn))} />
            ) : parent && props.parents ? (
              <ParentField id={id} labelId={`${id}-label`} name={labelOf(field, column)} relation={parent} source={props.parents} text={values[column._cn] ?? ''} onChange={(t) => (setValues((all) => ({ ...all, [column._cn]: t })), answered(column._cn))} />
            ) : (
              <FieldInput column={column} id={id} text={values[column._cn] ?? ''} onChange={(t) => (setValues({ ...values, [column._cn]: t }), answered(column._cn))} />
            )}
            {field.help ? <div className="field-help muted">{field.help}</div> : null}
            {errors[column._cn] ? <div className="field-error" role="alert">{errors[column._cn]}</div> : null}
          </div>
        );
      })}
      <FormMessage kind="error" text={nothing ? t('views.form.fillOne') : error} />
      {props.preview ? <p className="muted">{t('views.form.previewNote')}</p> : null}
      <Button type="submit" disabled={busy || !props.onSubmit}>{t('views.form.submit')}</Button>
    </form>
  );
}
