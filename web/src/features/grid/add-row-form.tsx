/**
 * The form to add a row: one field per column the database does not fill itself, each edited by
 * type (field-input.tsx); a belongs-to foreign key picks its parent row, as in a form view, where
 * `parents` knows the relation; an Attachment column takes files chosen there (uploaded at once, as
 * in a form view) besides the links typed as JSON. It takes the focus when it opens, Esc cancels it (not while the row
 * picker is open: Esc closes that), and the focus goes back to what opened it when it closes.
 * Columns the role may not set on a new row are left out, and a note names them (create-rights.ts).
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { TableMeta } from '../../api/dashboard';
import { Button, FormMessage } from '../../components/form';
import { FieldInput, incompleteField } from './field-input';
import { parseInput } from './grid-cell';
import { ParentField, parentRelationOf, type ParentSource } from '../form/form-parent';
import { FormFiles, stillUploading, uploadedEntries, type FormUpload, type PickedFile } from '../form/form-files';
import { createRights, createRightsNote } from '../form/create-rights';
import { t } from '../../i18n';

/** `initial`: the fields' texts to start from (a row duplicated from the expanded row); keys and attachments start empty. */
export function AddRowForm(props: { meta: TableMeta; parents?: ParentSource; upload?: FormUpload; initial?: Record<string, string>; onSubmit: (values: Record<string, unknown>) => Promise<void>; onCancel: () => void }) {
  const rights = createRights(props.meta, props.meta.columns);
  const columns = rights.settable.filter((c) => !c.ai);
  const note = createRightsNote(rights);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(columns.filter((c) => !c.pk && c.uidt !== 'Attachment' && props.initial?.[c._cn] !== undefined).map((c) => [c._cn, props.initial![c._cn]!])),
  );
  /** Files chosen per Attachment column. */
  const [files, setFiles] = useState<Record<string, PickedFile[]>>({});
  const [error, setError] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // The first field takes the focus (a select's button, a date's first segment; not the hidden select a react-aria select keeps).
    [...(form.current?.querySelectorAll<HTMLElement>('input, select, textarea, button, [role="spinbutton"]') ?? [])].find((el) => el.tabIndex >= 0 && !el.closest('[aria-hidden="true"]'))?.focus();
    return () => {
      // Closed (saved or cancelled): the focus, lost with the form, goes back to the opener.
      if (opener?.isConnected && (!document.activeElement || document.activeElement === document.body)) opener.focus();
    };
  }, []);
  const cancelOnEsc = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    e.preventDefault();
    props.onCancel();
  };
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    // A date or time left half typed reads as empty: refused, not saved as an empty cell.
    const incomplete = incompleteField(e.currentTarget);
    if (incomplete) return setError(t('grid.cell.incomplete', { column: incomplete }));
    if (stillUploading(files)) return setError(t('views.form.waitUploads'));
    const body: Record<string, unknown> = {};
    for (const c of columns) {
      const text = values[c._cn];
      const uploaded = uploadedEntries(files[c._cn]);
      if (uploaded.length) {
        // The files chosen join the links typed (a JSON list, or one entry).
        let typed: unknown = [];
        try {
          typed = text?.trim() ? JSON.parse(text) : [];
        } catch {
          return setError(t('grid.addRow.badLinks', { column: c._cn }));
        }
        body[c._cn] = [...(Array.isArray(typed) ? typed : [typed]), ...uploaded];
        continue;
      }
      if (text === undefined || text === '') continue;
      body[c._cn] = c.kind === 'boolean' ? text === 'true' : parseInput(c, text);
    }
    try {
      await props.onSubmit(body);
    } catch (x) {
      setError((x as Error).message);
    }
  };
  return (
    <form ref={form} className="add-row" onSubmit={submit} onKeyDown={cancelOnEsc} noValidate aria-label={t('grid.addRow.label')}>
      {note ? <div className="read-only-note" role="note">{note}</div> : null}
      <div className="add-row-fields">
        {columns.map((c) => {
          const id = `new-${c.cn}`;
          const parent = parentRelationOf(props.parents, c);
          const change = (v: string) => setValues((all) => ({ ...all, [c._cn]: v }));
          return (
            <div key={c.cn} className="field">
              <label htmlFor={id} id={`${id}-label`}>{c.nullable ? c._cn : t('grid.addRow.required', { column: c._cn })}</label>
              {parent && props.parents ? (
                <ParentField id={id} labelId={`${id}-label`} name={c._cn} relation={parent} source={props.parents} text={values[c._cn] ?? ''} onChange={change} />
              ) : (
                <FieldInput column={c} id={id} text={values[c._cn] ?? ''} onChange={change} />
              )}
              {c.uidt === 'Attachment' && props.upload ? (
                <FormFiles id={`${id}-files`} column={c} files={files[c._cn] ?? []} upload={props.upload} label={t('grid.addRow.chooseFiles', { column: c._cn })} onChange={(update) => setFiles((all) => ({ ...all, [c._cn]: update(all[c._cn] ?? []) }))} />
              ) : null}
            </div>
          );
        })}
      </div>
      <FormMessage kind="error" text={error} />
      <div className="inline-actions">
        <Button variant="secondary" onClick={props.onCancel}>{t('grid.addRow.cancel')}</Button>
        <Button type="submit" disabled={rights.blocking.length > 0}>{t('grid.addRow.save')}</Button>
      </div>
    </form>
  );
}
