/**
 * The Attachment field of a form: choose one or more files (the column's accepted types), each
 * uploaded at once with a progress bar (the dashboard's or the shared link's upload route), listed
 * with its name and size, and removable before the form is submitted. Files past the column's
 * `maxFiles` are not uploaded, and the field says how many it takes; nor are files larger than the
 * server takes (it says so, naming them). The submission carries the
 * entries of the uploaded files; a file whose upload failed shows why and is left out.
 */
import { useState } from 'react';
import { Button as AriaButton, FileTrigger } from 'react-aria-components';
import { Paperclip, X } from 'lucide-react';
import type { ColumnMeta } from '../../api/dashboard';
import { uploadLimit, type FileEntry } from '../../api/attachments';
import { tooLarge } from '../grid/attachment-cell';
import { formatBytes } from '../api-client/units';
import { t } from '../../i18n';

/** Uploads one file for column `column`; answers the entry the row's create names it by. */
export type FormUpload = (column: string, file: File, onProgress: (share: number) => void) => Promise<FileEntry>;

/** A file chosen in a form: uploading (progress 0..1), uploaded (entry) or refused (error). */
export interface PickedFile {
  key: string;
  name: string;
  size: number;
  progress: number | null;
  entry?: FileEntry;
  error?: string;
}

/** The entries of the files uploaded so far (those the submission sends). */
export const uploadedEntries = (files: PickedFile[] | undefined): FileEntry[] => (files ?? []).flatMap((f) => (f.entry ? [f.entry] : []));

/** Whether any chosen file is still uploading. */
export const stillUploading = (all: Record<string, PickedFile[]>): boolean => Object.values(all).some((list) => list.some((f) => f.progress !== null));

let nextKey = 0;

/** The file picker of one Attachment field; `upload` absent (a preview): nothing can be chosen. `label`: the picker button's name, when no label names it. */
export function FormFiles(props: { id: string; column: ColumnMeta; files: PickedFile[]; onChange: (update: (files: PickedFile[]) => PickedFile[]) => void; upload?: FormUpload; label?: string }) {
  const { column, files, onChange, upload } = props;
  const patch = (key: string, p: Partial<PickedFile>) => onChange((list) => list.map((f) => (f.key === key ? { ...f, ...p } : f)));
  const max = column.meta?.maxFiles;
  // Files past the column's maxFiles are not uploaded: the field says so at once, not the submission.
  const [overLimit, setOverLimit] = useState(false);
  const choose = (list: FileList | null) => {
    if (!upload || !list) return;
    const room = max === undefined ? Infinity : Math.max(0, max - files.filter((f) => !f.error).length);
    setOverLimit(list.length > room);
    for (const file of [...list].slice(0, room)) {
      const key = `f${++nextKey}`;
      onChange((cur) => [...cur, { key, name: file.name, size: file.size, progress: 0 }]);
      // A file larger than the server takes is not sent: the field says so, naming it.
      uploadLimit()
        .then((limit) => {
          const why = tooLarge(file, limit);
          if (why) throw new Error(why);
          return upload(column._cn, file, (share) => patch(key, { progress: share }));
        })
        .then((entry) => patch(key, { entry, progress: null }))
        .catch((e: Error) => patch(key, { error: e.message, progress: null }));
    }
  };
  const accept = column.meta?.accept?.length ? column.meta.accept : undefined;
  return (
    <div className="form-files">
      <FileTrigger allowsMultiple={max !== 1} acceptedFileTypes={accept} onSelect={choose}>
        <AriaButton id={props.id} className="btn btn-secondary form-files-pick" isDisabled={!upload} aria-label={props.label}>
          <Paperclip size={14} aria-hidden /> {t('views.form.chooseFiles')}
        </AriaButton>
      </FileTrigger>
      {files.length ? (
        <ul className="form-files-list" aria-label={t('views.form.chosenFiles', { name: column._cn })}>
          {files.map((f) => (
            <li key={f.key} className={`form-file${f.error ? ' failed' : ''}`}>
              <span className="form-file-name">{f.name}</span> <span className="muted">{formatBytes(f.size)}</span>
              {f.progress !== null ? <progress className="upload-progress" max={1} value={f.progress} aria-label={t('views.form.uploadingFile', { name: f.name })} /> : null}
              <AriaButton className="icon-btn" aria-label={t('views.form.removeFile', { name: f.name })} onPress={() => (setOverLimit(false), onChange((list) => list.filter((x) => x.key !== f.key)))}>
                <X size={13} aria-hidden />
              </AriaButton>
              {f.error ? <div className="field-error" role="alert">{f.error}</div> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {overLimit && max !== undefined ? <div className="field-error" role="alert">{t('views.form.tooManyFiles', { count: max })}</div> : null}
    </div>
  );
}
