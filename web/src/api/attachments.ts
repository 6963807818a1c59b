/**
 * Attachment uploads and file links: files go to `POST .../{Table}/{id}/attachments/{column}` one
 * request per file (XMLHttpRequest, for upload progress); a form's files, before its row exists, to
 * `POST .../{Table}/attachments/{column}` (the row's create names them); a file is shown through a
 * short-lived link from `GET .../attachments/{column}/{fileId}?link=1`, kept until shortly before it expires.
 */
import { authHeaders, errorText, http, HttpError } from './http';
import { t } from '../i18n';
import { appUrl, serverLink } from './app-url';

export interface FileEntry { id?: string; url?: string; path?: string; title?: string; mimetype?: string; size?: number }

const cellPath = (projectId: string, table: string, id: string, column: string) =>
  `/nc/${encodeURIComponent(projectId)}/api/v1/${encodeURIComponent(table)}/${encodeURIComponent(id)}/attachments/${encodeURIComponent(column)}`;

/** A refused upload as an error: the server's answer (`{msg, code}`) and status. */
export type UploadFailure = (message: string, status: number, body: { msg?: string; code?: string } & Record<string, unknown>) => Error;

const httpFailure: UploadFailure = (message, status) => new HttpError(message, status);

/** POSTs one file as multipart field `file` with `headers`, reporting the bytes sent. */
export function postFile(path: string, file: File, onProgress: (loaded: number) => void, headers: Record<string, string> = authHeaders(path), fail: UploadFailure = httpFailure): Promise<{ uploaded: FileEntry[]; value: unknown }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', appUrl(path));
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      let body: { msg?: string } & Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {}
      if (xhr.status === 200) resolve(body as never);
      else reject(fail(body.msg ? errorText(body, xhr.status) : t('app.upload.failed', { status: xhr.status }), xhr.status, body));
    };
    xhr.onerror = () => reject(fail(t('app.http.unreachable'), 0, {}));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

let limitOnce: Promise<number> | undefined;

/** The largest attachment file the server takes (`GET /ui_ability`, read once); Infinity when it cannot be read (the server still checks). */
export function uploadLimit(): Promise<number> {
  limitOnce ??= fetch(appUrl('/ui_ability'), { headers: { 'xc-gui': 'true' } })
    .then((r) => (r.ok ? r.json() : null))
    .then((b: { attachmentMaxBytes?: unknown } | null) => (typeof b?.attachmentMaxBytes === 'number' ? b.attachmentMaxBytes : Infinity))
    .catch(() => Infinity);
  return limitOnce;
}

/** What an upload of several files did: the cell value after the last one that went in, and each file refused with why. */
export interface UploadOutcome {
  value: unknown;
  uploaded: string[];
  failed: { name: string; error: string }[];
}

/**
 * Uploads files one after the other; `onProgress` gets 0..1 over all of them. A file the server
 * refuses does not stop the others: the outcome lists it with the server's reason.
 */
export async function uploadFiles(projectId: string, table: string, id: string, column: string, files: File[], onProgress: (share: number) => void): Promise<UploadOutcome> {
  const total = files.reduce((n, f) => n + f.size, 0) || 1;
  let done = 0;
  const out: UploadOutcome = { value: undefined, uploaded: [], failed: [] };
  for (const f of files) {
    try {
      const r = await postFile(cellPath(projectId, table, id, column), f, (loaded) => onProgress(Math.min(1, (done + loaded) / total)));
      out.value = r.value;
      out.uploaded.push(f.name);
    } catch (e) {
      out.failed.push({ name: f.name, error: (e as Error).message });
    }
    done += f.size;
  }
  onProgress(1);
  return out;
}

/** Uploads one file for a form's Attachment field before the row exists; answers its entry for the row's create. */
export async function uploadFormFile(projectId: string, table: string, column: string, file: File, onProgress: (share: number) => void): Promise<FileEntry> {
  const path = `/nc/${encodeURIComponent(projectId)}/api/v1/${encodeURIComponent(table)}/attachments/${encodeURIComponent(column)}`;
  const r = await postFile(path, file, (loaded) => onProgress(Math.min(1, loaded / (file.size || 1))));
  return r.uploaded[0]!;
}

const links = new Map<string, { url: string; until: number }>();

/** A link to show or open one stored file (cached until 30 s before it expires). */
export async function fileLink(projectId: string, table: string, id: string, column: string, fileId: string): Promise<string> {
  const path = `${cellPath(projectId, table, id, column)}/${encodeURIComponent(fileId)}`;
  const hit = links.get(path);
  if (hit && hit.until > Date.now()) return hit.url;
  const r = await http<{ url: string; expiresAt: string }>(path, { query: { link: '1' } });
  const url = serverLink(r.url);
  links.set(path, { url, until: new Date(r.expiresAt).getTime() - 30_000 });
  return url;
}
