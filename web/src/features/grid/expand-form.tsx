/**
 * A row expanded into a form: every column with its value, editable unless read-only, each by type
 * (field-input.tsx); a belongs-to foreign key picks its parent row where `parents` knows the
 * relation (form-parent.tsx). A react-aria
 * modal: on the page's body, it takes the focus and Esc closes it.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Dialog, Modal, ModalOverlay } from 'react-aria-components';
import type { TableMeta } from '../../api/dashboard';
import { Button, FormMessage } from '../../components/form';
import { parseInput } from './grid-cell';
import { FieldInput, fieldText } from './field-input';
import { RowActivity } from './row-activity';
import { TypeIcon, typeLabel } from './type-icon';
import { AttachmentCell } from './attachment-cell';
import { ParentField, parentRelationOf, type ParentSource } from '../form/form-parent';
import { relationKey } from './relation-cell';
import { t } from '../../i18n';

type Row = Record<string, unknown>;

/** `links`: the row's relations, editable; `activity` shows the row's comments and history (when the row has a key). */
export function ExpandForm(props: { meta: TableMeta; row: Row; readOnly: boolean; parents?: ParentSource; links?: ReactNode; onSave: (changes: Row) => Promise<void>; onClose: () => void; activity?: { projectId: string; dbAlias: string; pk: string; canComment: boolean }; onUploaded?: (column: string, value: unknown) => void }) {
  /** Columns the caller's role may not update are shown, not edited (a save naming one was refused). */
  const locked = (name: string) => !!props.meta.canUpdate && !props.meta.canUpdate.includes(name);
  const initial = Object.fromEntries(props.meta.columns.map((c) => [c._cn, fieldText(c, props.row[c._cn])]));
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [error, setError] = useState<string | null>(null);
  /** Upload progress per Attachment column (files dropped, pasted or picked here). */
  const [progress, setProgress] = useState<Record<string, number | null>>({});
  // Esc closes the form even when the focus was lost (a link picker that closed gave it back to nothing).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && (document.activeElement === document.body || !document.activeElement) && props.onClose();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [props.onClose]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const changes: Row = {};
    for (const c of props.meta.columns) {
      if (c.pk || values[c._cn] === initial[c._cn]) continue;
      changes[c._cn] = c.kind === 'boolean' ? values[c._cn] === 'true' : parseInput(c, values[c._cn]!);
    }
    if (!Object.keys(changes).length) return props.onClose();
    try {
      await props.onSave(changes);
    } catch (x) {
      setError((x as Error).message);
    }
  };
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && props.onClose()} className="dialog-backdrop">
      <Modal className="dialog expand">
      <Dialog className="expand-dialog" aria-label={t('grid.expand.label')}>
      <form onSubmit={submit}>
        <h2>{props.meta._tn}</h2>
        <div className="expand-fields">
          {props.meta.columns.map((c) => {
            const id = `expand-${c.cn}`;
            const disabled = props.readOnly || c.pk || locked(c._cn);
            const parent = disabled ? undefined : parentRelationOf(props.parents, c);
            const change = (text: string) => setValues((all) => ({ ...all, [c._cn]: text }));
            return (
            <div key={c.cn} className="field">
              <label htmlFor={id} id={`${id}-label`} title={typeLabel(c.uidt)}><TypeIcon uidt={c.uidt} />{c._cn}</label>
              {parent && props.parents ? (
                <ParentField id={id} labelId={`${id}-label`} name={c._cn} relation={parent} source={props.parents} text={values[c._cn]!} onChange={change} parent={props.row[relationKey(parent)] as Row | null | undefined} />
              ) : (
                <FieldInput column={c} id={id} text={values[c._cn]!} disabled={disabled} onChange={change} />
              )}
              {c.uidt === 'Attachment' && props.activity && props.meta.pks.length ? (
                <div className="expand-attachments">
                  <AttachmentCell
                    target={{ projectId: props.activity.projectId, table: props.meta._tn, rowId: props.activity.pk, column: c._cn }}
                    value={props.row[c._cn]}
                    readOnly={props.readOnly || locked(c._cn)}
                    progress={progress[c._cn] ?? null}
                    onProgress={(p) => setProgress((x) => ({ ...x, [c._cn]: p }))}
                    onValue={(v) => {
                      setValues((x) => ({ ...x, [c._cn]: fieldText(c, v) }));
                      props.onUploaded?.(c._cn, v);
                    }}
                  />
                </div>
              ) : null}
            </div>
            );
          })}
        </div>
        {props.links}
        {props.activity && props.meta.pks.length ? <RowActivity {...props.activity} tn={props.meta.tn} table={props.meta._tn} columns={props.meta.columns} /> : null}
        <FormMessage kind="error" text={error} />
        <div className="dialog-actions">
          <Button variant="secondary" onClick={props.onClose}>{t('grid.expand.close')}</Button>
          {!props.readOnly ? <Button type="submit">{t('grid.expand.save')}</Button> : null}
        </div>
      </form>
      </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
