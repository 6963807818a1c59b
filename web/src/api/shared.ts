/**
 * The public routes of a shared view (api-contract section 6): no session, only the link's uuid
 * and, for a protected link, its password in `xc-password`. Errors carry the server's msg and status.
 */
import type { ColumnMeta } from './dashboard';
import { errorText } from './http';
import { postFile, type FileEntry } from './attachments';
import { t } from '../i18n';
import type { QueryParams, ViewType } from './views';
import { appUrl } from './app-url';

/** What a shared link shows: the view's kind, title, shown columns and settings. */
export interface SharedViewMeta {
  title: string;
  type: ViewType;
  columns: (ColumnMeta & { uidt: string })[];
  query_params: QueryParams;
  allowCsvDownload?: boolean;
  /** The display column (searched), when the server says. */
  displayColumn?: string | null;
  pks?: string[];
  /** The table's own view (its title, while nobody renamed it, is shown in the visitor's language). */
  isDefault?: boolean;
  /** A form that leaves out a column a new row needs (or its creator may not set it): it cannot be sent. */
  formMissesRequired?: boolean;
}

/**
 * A failed public call: the server's msg, the status (403 wrong password or a link its creator can no
 * longer read, 404 no such link) and the server's error code (`INVALID_PASSWORD` tells the two 403s apart).
 */
export class SharedError extends Error {
  constructor(message: string, readonly status: number, readonly code?: string) {
    super(message);
  }
}

const codeOf = (body: unknown) => (body && typeof body === 'object' && typeof (body as { code?: unknown }).code === 'string' ? (body as { code: string }).code : undefined);

/** True when a shared call was refused for its password (missing, wrong, or changed since it was typed). */
export const isPasswordRefusal = (e: unknown) => e instanceof SharedError && e.status === 403 && (e.code === 'INVALID_PASSWORD' || (!e.code && e.message === INVALID_PASSWORD));

/** True when the link itself is gone (deleted, or its view deleted) or refused for its password: the page must open it again. */
export const isLinkLost = (e: unknown) => (e instanceof SharedError && e.status === 404) || isPasswordRefusal(e);

/** The message of a missing or wrong password (a 403 of a shared link). */
export const INVALID_PASSWORD = 'Invalid password';

/** The REST address of a shared view under `origin` (where the app is served): its rows (a form: the link itself, which takes POST rows). */
export const sharedApiUrl = (origin: string, uuid: string, type?: ViewType) => `${origin}/api/v1/shared/${encodeURIComponent(uuid)}${type === 'form' ? '' : '/rows'}`;

/**
 * The `xc-password` header of a link's password. A header holds Latin-1 at most (fetch refuses '密码'),
 * so a password with any character outside printable ASCII goes percent-encoded (UTF-8); the server
 * tries the header as it came, then decoded.
 */
export function passwordHeader(password: string | null): Record<string, string> {
  if (!password) return {};
  // Spaces at either end go encoded too: a header value loses them on the way.
  return { 'xc-password': /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(password) ? password : encodeURIComponent(password) };
}

async function call<T>(uuid: string, path: string, password: string | null, opts: { method?: string; body?: unknown; query?: Record<string, string | number | undefined> } = {}): Promise<T> {
  const url = new URL(appUrl(`/api/v1/shared/${encodeURIComponent(uuid)}${path}`));
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  const headers: Record<string, string> = passwordHeader(password);
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url.href, { method: opts.method ?? 'GET', headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  } catch {
    throw new SharedError(t('app.http.unreachable'), 0);
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {}
  if (!res.ok) throw new SharedError(errorText(body, res.status), res.status, codeOf(body));
  return body as T;
}

/** Calls of one shared link. */
export const sharedApi = {
  meta: (uuid: string, password: string | null) => call<SharedViewMeta>(uuid, '', password),
  rows: (uuid: string, password: string | null, q: { limit: number; offset: number; where?: string; sort?: string; search?: string }) =>
    call<{ list: Record<string, unknown>[]; pageInfo: { totalRows?: number; limit: number; offset: number } }>(uuid, '/rows', password, { query: q }),
  /** The groups of a grid grouped by a shown column: its values and their counts (within the view and the search). */
  groups: (uuid: string, password: string | null, search?: string) =>
    call<{ column: string; groups: { value: unknown; count: number }[] }>(uuid, '/groups', password, { query: { search: search?.trim() || undefined } }),
  submit: (uuid: string, password: string | null, row: Record<string, unknown>) => call<{ ok: true; message?: string }>(uuid, '/rows', password, { method: 'POST', body: row }),
  /** Uploads one file for a shared form's Attachment field; answers its entry for the submission. */
  upload: async (uuid: string, password: string | null, column: string, file: File, onProgress: (share: number) => void): Promise<FileEntry> => {
    const path = `/api/v1/shared/${encodeURIComponent(uuid)}/attachments/${encodeURIComponent(column)}`;
    const r = await postFile(path, file, (loaded) => onProgress(Math.min(1, loaded / (file.size || 1))), passwordHeader(password), (msg, status, body) => new SharedError(msg, status, codeOf(body)));
    return r.uploaded[0]!;
  },
  /** The CSV of the view's rows (those a search finds, when given), as a file to save. */
  csv: async (uuid: string, password: string | null, search?: string): Promise<Blob> => {
    const query = search?.trim() ? `?search=${encodeURIComponent(search.trim())}` : '';
    const res = await fetch(appUrl(`/api/v1/shared/${encodeURIComponent(uuid)}/rows.csv${query}`), { headers: passwordHeader(password) });
    if (!res.ok) {
      const body = await res.json().catch(() => null);
      throw new SharedError(errorText(body, res.status), res.status, codeOf(body));
    }
    return res.blob();
  },
};

const KEY = (uuid: string) => `tablo.shared.${uuid}`;

/** The password typed for a link, kept for this browser session only (sessionStorage). */
export const sharedPassword = {
  get: (uuid: string): string | null => sessionStorage.getItem(KEY(uuid)),
  set: (uuid: string, password: string) => sessionStorage.setItem(KEY(uuid), password),
  clear: (uuid: string) => sessionStorage.removeItem(KEY(uuid)),
};
