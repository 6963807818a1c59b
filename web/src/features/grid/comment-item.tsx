/**
 * One comment of the expanded row: author, time ("edited" once changed) and text; Edit (its author)
 * turns it into a text area with Save and Cancel, Delete (its author, owners and creators) asks first.
 * What the caller may do comes from the server (canEdit, canDelete), which checks again on every call.
 */
import { useState, type ReactNode } from 'react';
import { Button as AriaButton, TextArea, TextField } from 'react-aria-components';
import type { RowComment } from '../../api/row-activity';
import { Button } from '../../components/form';
import { ConfirmDialog } from '../../components/overlays';
import { formatDateTime, t } from '../../i18n';

export function CommentItem(props: { comment: RowComment; when: (iso: string) => ReactNode; onSave: (body: string) => Promise<void>; onDelete: () => Promise<void> }) {
  const c = props.comment;
  const [draft, setDraft] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (draft === null || !draft.trim() || busy) return;
    setBusy(true);
    try {
      await props.onSave(draft.trim());
      setDraft(null);
    } catch {
      // The error is shown above the list; the text stays for another try.
    } finally {
      setBusy(false);
    }
  };
  return (
    <li>
      <div className="comment-head">
        <strong>{c.user ?? t('grid.activity.someone')}</strong> {props.when(c.createdAt)}
        {c.updatedAt ? <span className="muted comment-edited" title={formatDateTime(c.updatedAt)}> · {t('grid.activity.edited')}</span> : null}
        {draft === null && (c.canEdit || c.canDelete) ? (
          <span className="comment-actions">
            {c.canEdit ? <AriaButton className="link-like" onPress={() => setDraft(c.body)}>{t('grid.activity.edit')}</AriaButton> : null}
            {c.canDelete ? <AriaButton className="link-like" onPress={() => setAsking(true)}>{t('grid.activity.delete')}</AriaButton> : null}
          </span>
        ) : null}
      </div>
      {draft === null ? (
        <div className="comment-body">{c.body}</div>
      ) : (
        <div className="comment-form">
          <TextField aria-label={t('grid.activity.editComment')} value={draft} onChange={setDraft} autoFocus>
            <TextArea
              rows={2}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void save();
                if (e.key === 'Escape') setDraft(null);
              }}
            />
          </TextField>
          <Button onClick={() => void save()} disabled={!draft.trim() || busy}>{t('grid.activity.save')}</Button>
          <Button variant="secondary" onClick={() => setDraft(null)}>{t('grid.activity.cancel')}</Button>
        </div>
      )}
      {asking ? (
        <ConfirmDialog
          heading={t('grid.activity.deleteHeading')}
          submitLabel={t('grid.activity.delete')}
          onCancel={() => setAsking(false)}
          onSubmit={() => {
            setAsking(false);
            void props.onDelete().catch(() => {});
          }}
        >
          <p>{t('grid.activity.deleteBody')}</p>
        </ConfirmDialog>
      ) : null}
    </li>
  );
}
