/**
 * A row expanded into a form: every column with its value, editable unless read-only, each by type
 * (field-input.tsx); a belongs-to foreign key picks its parent row where `parents` knows the
 * relation (form-parent.tsx). A react-aria
 * modal: on the page's body, it takes the focus and Esc closes it.
 * The row follows other people's changes while it is open (the realtime row events of its table):
 * fields not edited here take the new values silently; when the form holds unsaved edits, a notice
 * says who changed which fields, with the choice to reload the row's values or keep one's own (a
 * save then writes only the fields edited here). The echo of one's own writes made from the form
 * (a file uploaded, a link changed) is no news, unless it changed a field edited here. A row deleted meanwhile
 * (or moved out of the user's rows) stays on screen, saying so, without Save.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Dialog, Modal, ModalOverlay } from 'react-aria-components';
import type { TableMeta } from '../../api/dashboard';
import { Button, FormMessage } from '../../components/form';
import { parseInput } from './grid-cell';
import { FieldInput, fieldText, incompleteField } from './field-input';
import { RowActivity } from './row-activity';
import { TypeIcon, typeLabel } from './type-icon';
import { AttachmentCell } from './attachment-cell';
import { ParentField, parentRelationOf, type ParentSource } from '../form/form-parent';
import { relationKey } from './relation-cell';
import { liveConnection } from '../../stores/realtime';
import { recordsApi } from '../../api/records';
import { HttpError } from '../../api/http';
import { user } from '../../stores/session';
import { localeTag, t } from '../../i18n';

type Row = Record<string, unknown>;

/** Another person's change of the open row while it holds unsaved edits: who (when known) and which fields. */
interface Meanwhile {
  by?: string;
  columns: string[];
}

/**
 * `links`: the row's relations, editable; `activity` shows the row's comments and history (when the row has a key);
 * `liveProject`: the project whose realtime row events the form follows (the activity's project by default).
 */
export function ExpandForm(props: { meta: TableMeta; row: Row; readOnly: boolean; parents?: ParentSource; links?: ReactNode; onSave: (changes: Row) => Promise<void>; onClose: () => void; onDuplicate?: (texts: Record<string, string>) => void; activity?: { projectId: string; dbAlias: string; pk: string; canComment: boolean }; liveProject?: string; onUploaded?: (column: string, value: unknown) => void }) {
  /** Columns the caller's role may not update are shown, not edited (a save naming one was refused). */
  const locked = (name: string) => !!props.meta.canUpdate && !props.meta.canUpdate.includes(name);
  const columns = props.meta.columns;
  /** The row's values the edits are made on: as opened, then as changed by others meanwhile. */
  const [base, setBase] = useState<Record<string, string>>(() => Object.fromEntries(columns.map((c) => [c._cn, fieldText(c, props.row[c._cn])])));
  const [values, setValues] = useState<Record<string, string>>(base);
  const [meanwhile, setMeanwhile] = useState<Meanwhile | null>(null);
  /** The row was deleted meanwhile (or left the rows the user may see): by whom when known, and whether deleted. */
  const [gone, setGone] = useState<{ by?: string; deleted: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef({ base, values });
  latest.current = { base, values };
  const rowKey = props.meta.pks.length ? props.meta.pks.map((pk) => String(props.row[pk])).join('___') : null;
  const liveProject = props.liveProject ?? props.activity?.projectId;
  useEffect(() => {
    if (!liveProject || rowKey === null) return;
    const idOf = (row: Row) => props.meta.pks.map((pk) => String(row[pk])).join('___');
    /** A newer state of the row, written by `by` (an e-mail, when a signed-in member wrote). */
    const arrived = (row: Row, by: string | undefined) => {
      const { base, values } = latest.current;
      const now = { ...base };
      for (const c of columns) if (c._cn in row) now[c._cn] = fieldText(c, row[c._cn]);
      const moved = columns.map((c) => c._cn).filter((cn) => now[cn] !== base[cn]);
      if (!moved.length) return;
      // Fields not edited here follow the row; edited ones keep what was typed.
      const follow = (current: Record<string, string>) => {
        const out = { ...current };
        for (const cn of moved) if (current[cn] === base[cn]) out[cn] = now[cn]!;
        return out;
      };
      const next = follow(values);
      latest.current = { base: now, values: next };
      setBase(now);
      setValues(follow);
      // A value the form holds already (a file it uploaded) is no news; nor is anything when nothing is left unsaved.
      const news = moved.filter((cn) => values[cn] !== now[cn]);
      const edited = columns.map((c) => c._cn).filter((cn) => next[cn] !== now[cn]);
      if (!news.length || !edited.length) return;
      // The echo of one's own write from this form (a link changed) tells nothing, unless it changed an edited field.
      if (by && by === user.value?.email && !news.some((cn) => edited.includes(cn))) return;
      setMeanwhile((was) => ({ by, columns: [...new Set([...(was?.columns ?? []), ...news])] }));
    };
    return liveConnection(liveProject).subscribe(props.meta._tn, (e) => {
      if (e.type === 'resync') {
        // Back after a dropped connection: what changed meanwhile was not told, so the row is read again.
        void recordsApi.read(liveProject, props.meta._tn, rowKey).then(
          (row) => arrived(row, undefined),
          (x) => x instanceof HttpError && x.status === 404 && setGone({ deleted: true }),
        );
        return;
      }
      if (e.type !== 'rows') return;
      if (e.removed.includes(rowKey)) return setGone({ by: e.by, deleted: e.op === 'delete' });
      if (e.op !== 'update') return;
      const row = e.rows.find((r) => idOf(r) === rowKey);
      if (row) arrived(row, e.by);
    });
  }, [liveProject, props.meta._tn, rowKey]);
  const unsaved = columns.some((c) => values[c._cn] !== base[c._cn]);
  const told = meanwhile && unsaved ? meanwhile : null;
  /** Upload progress per Attachment column (files dropped, pasted or picked here). */
  const [progress, setProgress] = useState<Record<string, number | null>>({});
  // Esc closes the form even when the focus was lost (a link picker that closed gave it back to nothing).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && (document.activeElement === document.body || !document.activeElement) && props.onClose();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [props.onClose]);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    // A date or time left half typed reads as empty: refused, not saved as an empty value.
    const incomplete = incompleteField(e.currentTarget);
    if (incomplete) return setError(t('grid.cell.incomplete', { column: incomplete }));
    const changes: Row = {};
    for (const c of props.meta.columns) {
      if (c.pk || values[c._cn] === base[c._cn]) continue;
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
      <form onSubmit={submit} noValidate>
        <h2>{props.meta._tn}</h2>
        {gone ? (
          <div className="expand-meanwhile" role="alert">
            <p>{gone.deleted && gone.by ? t('grid.expand.deletedBy', { email: gone.by }) : t('grid.expand.gone')}</p>
          </div>
        ) : told ? (
          <div className="expand-meanwhile" role="alert">
            <p>
              {told.by
                ? t('grid.expand.changedBy', { email: told.by, columns: listFormat(told.columns) })
                : t('grid.expand.changedMeanwhile', { columns: listFormat(told.columns) })}
            </p>
            <div className="expand-meanwhile-actions">
              <Button variant="secondary" onClick={() => (setValues(base), setMeanwhile(null))}>{t('grid.expand.reload')}</Button>
              <Button variant="secondary" onClick={() => setMeanwhile(null)}>{t('grid.expand.keepMine')}</Button>
            </div>
          </div>
        ) : null}
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
              {told?.columns.includes(c._cn) && values[c._cn] !== base[c._cn] ? (
                <div className="field-now">{t('grid.expand.now', { value: base[c._cn] || t('grid.activity.empty') })}</div>
              ) : null}
              {c.uidt === 'Attachment' && props.activity && props.meta.pks.length ? (
                <div className="expand-attachments">
                  <AttachmentCell
                    target={{ projectId: props.activity.projectId, table: props.meta._tn, rowId: props.activity.pk, column: c._cn }}
                    value={props.row[c._cn]}
                    readOnly={props.readOnly || locked(c._cn)}
                    progress={progress[c._cn] ?? null}
                    onProgress={(p) => setProgress((x) => ({ ...x, [c._cn]: p }))}
                    onValue={(v) => {
                      // Uploaded: the row holds the new list already, it is no edit left to save.
                      setBase((x) => ({ ...x, [c._cn]: fieldText(c, v) }));
                      setValues((x) => ({ ...x, [c._cn]: fieldText(c, v) }));
                      props.onUploaded?.(c._cn, v);
                    }}
                    onRemove={async (next) => {
                      const at = props.activity!;
                      const v = (await recordsApi.update(at.projectId, props.meta._tn, at.pk, { [c._cn]: next }))[c._cn];
                      setBase((x) => ({ ...x, [c._cn]: fieldText(c, v) }));
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
        {props.activity && props.meta.pks.length ? <RowActivity {...props.activity} canComment={props.activity.canComment && !gone} tn={props.meta.tn} table={props.meta._tn} pks={props.meta.pks} columns={props.meta.columns} /> : null}
        <FormMessage kind="error" text={error} />
        <div className="dialog-actions">
          <Button variant="secondary" onClick={props.onClose}>{t('grid.expand.close')}</Button>
          {/* A new row from this one's values as the form holds them, in the add-row form (a key of its own is typed there). */}
          {props.onDuplicate && !gone ? <Button variant="secondary" onClick={() => props.onDuplicate?.(values)}>{t('grid.expand.duplicate')}</Button> : null}
          {!props.readOnly && !gone ? <Button type="submit">{t('grid.expand.save')}</Button> : null}
        </div>
      </form>
      </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

/** 'a, b, c' in the current language. */
const listFormat = (names: string[]) => new Intl.ListFormat(localeTag(), { type: 'conjunction' }).format(names);
