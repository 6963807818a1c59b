/** Import and export calls: the upload (multipart `file` + `json`), preview, start, progress, cancel; export downloads. */
import { errorText, http, refuseLongAddress } from './http';
import { t } from '../i18n';
import { dashboardOp } from './projects';
import { masterKey, token } from '../stores/session';
import { previewAs } from '../stores/preview';
import { appUrl } from './app-url';

export type ImportType = 'number' | 'decimal' | 'date' | 'datetime' | 'checkbox' | 'email' | 'url' | 'select' | 'text';
export const IMPORT_TYPES: ImportType[] = ['number', 'decimal', 'date', 'datetime', 'checkbox', 'email', 'url', 'select', 'text'];

export interface PreviewColumn { index: number; header: string; type: ImportType; choices: string[]; long: boolean }
export interface UploadAnswer {
  uploadId: string;
  filename: string;
  size: number;
  format: 'csv' | 'xlsx' | 'json';
  delimiter: string | null;
  sheets: string[] | null;
  sheet: string | null;
  /** `errors`: the cells of the sampled rows holding a workbook error (#DIV/0!, #N/A...), by row of the sample and column. */
  preview: { columns: PreviewColumn[]; rows: string[][]; sampled: number; errors?: PreviewError[] };
}
/** A cell of the sampled rows holding an error of the workbook: it has no value, and its row is reported when its column is imported. */
export interface PreviewError { row: number; column: number; error: string }
export interface ColumnSpec { index: number; skip?: boolean; type?: ImportType; cn?: string; _cn?: string }
export interface StartArgs {
  uploadId: string;
  sheet?: string;
  delimiter?: string;
  tn?: string;
  create?: { tn: string; _tn?: string };
  columns: ColumnSpec[];
  onError: 'skip' | 'stop';
  allOrNothing: boolean;
}
export interface ImportProblem { row: number; column: string | null; value: unknown; reason: string }
export interface ImportJob {
  id: string;
  status: 'running' | 'done' | 'stopped' | 'cancelled' | 'failed';
  table: { tn: string; _tn: string; created: boolean };
  rowsRead: number;
  rowsImported: number;
  rowsSkipped: number;
  problems: ImportProblem[];
  problemCount: number;
  estimatedRows: number | null;
  etaMs: number | null;
  elapsedMs: number;
  progress: number;
  message?: string;
  rolledBack: boolean;
}

const scoped = (projectId: string, dbAlias: string) => ({ projectId, dbAlias });

export const transferApi = {
  /**
   * Sends the file; `tn` names the existing table it is for (checked before the file is kept).
   * With `onProgress` it goes by XMLHttpRequest, which tells how much of the file has been sent.
   */
  upload(projectId: string, dbAlias: string, file: File, tn?: string, onProgress?: (sent: number, total: number) => void): Promise<UploadAnswer> {
    const form = new FormData();
    form.set('json', JSON.stringify({ api: 'importUpload', project_id: projectId, dbAlias, args: tn ? { tn } : {} }));
    form.set('file', file, file.name);
    if (!onProgress) return http<UploadAnswer>('/dashboard', { query: { q: 'sqlOp_importUpload' }, body: form });
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', appUrl('/dashboard?q=sqlOp_importUpload'));
      for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded, e.total);
      xhr.onerror = () => reject(new Error(t('app.http.unreachable')));
      xhr.onload = () => {
        let body: { msg?: string } | null = null;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {}
        if (xhr.status >= 200 && xhr.status < 300) resolve(body as UploadAnswer);
        else reject(new Error(errorText(body, xhr.status)));
      };
      xhr.send(form);
    });
  },
  preview: (projectId: string, dbAlias: string, args: { uploadId: string; sheet?: string; delimiter?: string }) => dashboardOp<UploadAnswer>('importPreview', { ...scoped(projectId, dbAlias), args }),
  start: (projectId: string, dbAlias: string, args: StartArgs) => dashboardOp<ImportJob>('importStart', { ...scoped(projectId, dbAlias), args }),
  status: (projectId: string, dbAlias: string, jobId: string) => dashboardOp<ImportJob>('importStatus', { ...scoped(projectId, dbAlias), args: { jobId } }),
  cancel: (projectId: string, dbAlias: string, jobId: string) => dashboardOp<ImportJob>('importCancel', { ...scoped(projectId, dbAlias), args: { jobId } }),
};

/** The headers that carry the caller (session or master key) and a previewed role. */
function authHeaders(): Record<string, string> {
  const headers: Record<string, string> = { 'xc-gui': 'true' };
  if (masterKey.value) headers['xc-master-key'] = masterKey.value;
  else if (token.value) headers['xc-auth'] = token.value;
  if (previewAs.value) headers['xc-preview'] = previewAs.value;
  return headers;
}

/** The list parameters of an export: the grid's where (filters and search), sort and shown fields. */
export interface ExportQuery {
  where?: string;
  sort?: string;
  fields?: string;
}

/** Downloads a table's export (with the grid's where, sort and fields) and saves it as `<fileName>.<format>` (the table's name by default). */
export async function downloadExport(projectId: string, table: string, format: 'csv' | 'xlsx', query: ExportQuery = {}, fileName = table): Promise<void> {
  const url = new URL(appUrl(`/nc/${projectId}/api/v1/${encodeURIComponent(table)}/export/${format}`));
  for (const k of ['where', 'sort', 'fields'] as const) if (query[k]) url.searchParams.set(k, query[k]);
  if (format === 'csv') url.searchParams.set('bom', 'true');
  refuseLongAddress(url.href);
  const res = await fetch(url.href, { headers: authHeaders(), credentials: 'include' });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { msg?: string } | null;
    throw new Error(body?.msg ? errorText(body, res.status) : t('app.export.failed', { status: res.status }));
  }
  const blob = await res.blob();
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `${fileName}.${format}`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
