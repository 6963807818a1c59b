/**
 * An Attachment cell of the grid: image thumbnails (the browser scales the served image) and file
 * names that open the file; files dropped on the cell, pasted into it or picked with its + button
 * (several at once) are uploaded with a progress bar. Pasted files are handed over by the grid.
 */
import { useEffect, useRef, useState } from 'react';
import { fileLink, uploadFiles, uploadLimit, type FileEntry } from '../../api/attachments';
import { formatBytes } from '../api-client/units';
import { toast } from '../../stores/toasts';
import { t } from '../../i18n';

const isImage = (f: FileEntry) => /^image\//.test(f.mimetype ?? '') && f.mimetype !== 'image/svg+xml';

export function entriesOf(v: unknown): FileEntry[] {
  let list = v;
  if (typeof v === 'string') {
    try {
      list = JSON.parse(v);
    } catch {
      return [];
    }
  }
  return Array.isArray(list) ? list.filter((f) => f && typeof f === 'object') : [];
}

export interface AttachmentTarget { projectId: string; table: string; rowId: string; column: string }

/** One file of the cell, with its remove button when the cell may be changed. */
function FileItem(props: { target: AttachmentTarget; file: FileEntry; onRemove?: () => void }) {
  const f = props.file;
  const where = f.url ?? f.path ?? '';
  const name = f.title || where.split(/[/?#]/).filter(Boolean).pop() || t('grid.attachment.file');
  return (
    <span className="file-item">
      <Thumb target={props.target} file={f} />
      {props.onRemove ? (
        <button type="button" className="file-remove" aria-label={t('grid.attachment.remove', { name })} title={t('grid.attachment.remove', { name })} onClick={(e) => (e.stopPropagation(), props.onRemove!())}>
          ×
        </button>
      ) : null}
    </span>
  );
}

function Thumb(props: { target: AttachmentTarget; file: FileEntry }) {
  const [src, setSrc] = useState<string | null>(null);
  // Asked again when the image no longer loads (its short-lived link expired while the grid was open), once per load.
  const [attempt, setAttempt] = useState(0);
  const [retried, setRetried] = useState(false);
  const { target: at, file: f } = props;
  useEffect(() => {
    if (!f.id || !isImage(f)) return;
    let live = true;
    fileLink(at.projectId, at.table, at.rowId, at.column, f.id).then((u) => live && setSrc(u), () => {});
    return () => void (live = false);
  }, [at.projectId, at.table, at.rowId, at.column, f.id, attempt]);
  const failed = () => {
    if (retried) return;
    setRetried(true);
    setAttempt((n) => n + 1);
  };
  const open = async (e: React.MouseEvent) => {
    e.stopPropagation();
    if (f.id) window.open(await fileLink(at.projectId, at.table, at.rowId, at.column, f.id), '_blank', 'noopener');
    else if (f.url && /^https?:\/\//.test(f.url)) window.open(f.url, '_blank', 'noopener');
  };
  const where = f.url ?? f.path ?? '';
  const name = f.title || where.split(/[/?#]/).filter(Boolean).pop() || t('grid.attachment.file');
  if (src) return <img className="cell-thumb" src={src} alt={name} title={name} onClick={open} onLoad={() => setRetried(false)} onError={failed} />;
  // Entries that are not uploads keep what the cell always showed: a link for a web address, else the name.
  if (!f.id && f.url && /^https?:\/\//i.test(f.url)) return <a className="file-link" href={f.url} target="_blank" rel="noreferrer noopener" onClick={(e) => e.stopPropagation()}>{name}</a>;
  if (!f.id) return <span className="file-link">{name}</span>;
  return <button type="button" className="file-link file-chip" title={name} onClick={open}>{name}</button>;
}

/** Why a file is refused before it is sent (larger than the server takes), or null. */
export const tooLarge = (file: File, limit: number): string | null =>
  file.size > limit ? t('grid.attachment.tooLarge', { name: file.name, size: formatBytes(file.size), limit: formatBytes(limit) }) : null;

/**
 * Uploads files to a cell and reports the new value; used by drop, pick and the grid's paste. Files
 * larger than the server takes are not sent, and one the server refuses does not stop the others:
 * the cell shows what went in, and a toast names each file left out and why.
 */
export async function uploadToCell(at: AttachmentTarget, files: File[], onProgress: (p: number | null) => void, onValue: (v: unknown) => void): Promise<void> {
  if (!files.length) return;
  onProgress(0);
  try {
    const limit = await uploadLimit();
    const refused = files.flatMap((f) => {
      const why = tooLarge(f, limit);
      return why ? [{ name: f.name, error: why }] : [];
    });
    const sent = files.filter((f) => f.size <= limit);
    const r = sent.length ? await uploadFiles(at.projectId, at.table, at.rowId, at.column, sent, onProgress) : { value: undefined, uploaded: [], failed: [] };
    if (r.uploaded.length) {
      onValue(r.value);
      toast('success', r.uploaded.length === 1 ? t('grid.attachment.uploadedOne', { name: r.uploaded[0]! }) : t('grid.attachment.uploaded', { count: r.uploaded.length }));
    }
    const failed = [...refused, ...r.failed];
    if (failed.length) toast('error', failed.map((f) => f.error).join(' '), 8000);
  } catch (e) {
    toast('error', (e as Error).message);
  } finally {
    onProgress(null);
  }
}

/**
 * Removes the file at `index` from a cell: writes the list without it (`write`: the grid's or the
 * form's save, which the undo stack records) and offers Undo in the toast; the sweep removes the
 * stored file only well after.
 */
export async function removeFile(value: unknown, index: number, write: (next: FileEntry[]) => Promise<void>): Promise<void> {
  const files = entriesOf(value);
  const gone = files[index];
  if (!gone) return;
  const name = gone.title || t('grid.attachment.file');
  try {
    await write(files.filter((_, i) => i !== index));
  } catch (e) {
    toast('error', (e as Error).message);
    return;
  }
  toast('success', t('grid.attachment.removed', { name }), 8000, {
    label: t('grid.attachment.undoRemove'),
    run: () => void write(files).catch((e: Error) => toast('error', e.message)),
  });
}

export function AttachmentCell(props: { target: AttachmentTarget; value: unknown; readOnly: boolean; progress: number | null; onProgress: (p: number | null) => void; onValue: (v: unknown) => void; onRemove?: (next: FileEntry[]) => Promise<void> }) {
  const [over, setOver] = useState(false);
  const pick = useRef<HTMLInputElement>(null);
  const files = entriesOf(props.value);
  const upload = (list: File[]) => uploadToCell(props.target, list, props.onProgress, props.onValue);
  return (
    <span
      className={`cell-files attachment-cell${over ? ' drop-over' : ''}`}
      data-testid={`attachments-${props.target.column}-${props.target.rowId}`}
      onDragOver={(e) => {
        if (props.readOnly || !e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        setOver(false);
        if (props.readOnly) return;
        e.preventDefault();
        void upload([...e.dataTransfer.files]);
      }}
    >
      {files.map((f, i) => <FileItem key={f.id ?? i} target={props.target} file={f} onRemove={!props.readOnly && props.onRemove ? () => void removeFile(props.value, i, props.onRemove!) : undefined} />)}
      {props.progress !== null ? <progress className="upload-progress" max={1} value={props.progress} aria-label={t('grid.attachment.progress')} /> : null}
      {!props.readOnly ? (
        <>
          <button type="button" className="attach-add" aria-label={t('grid.attachment.add', { column: props.target.column })} title={t('grid.attachment.addHint')} onClick={(e) => (e.stopPropagation(), pick.current?.click())}>+</button>
          <input ref={pick} type="file" multiple hidden aria-label={t('grid.attachment.pick', { column: props.target.column })} onChange={(e) => { void upload([...(e.target.files ?? [])]); e.target.value = ''; }} />
        </>
      ) : null}
    </span>
  );
}
