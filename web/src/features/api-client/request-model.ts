/**
 * The API client's requests as data: params and headers each with a name, a value and an enabled
 * switch; environments whose variables are written `{{name}}`; what is actually sent (only enabled
 * params and headers with a name, variables filled in); copy as curl; the history (newest first,
 * capped). Pure functions, no React, so they are unit tested.
 */
import { serverLink } from '../../api/app-url';
import type { PerfResult } from './perf-test';

/** A name/value pair with an enabled switch (params, headers, variables). */
export interface KeyValue {
  name: string;
  value: string;
  enabled: boolean;
}

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export type Method = (typeof METHODS)[number];

/** A request as the user builds it. */
export interface ApiRequest {
  method: Method;
  url: string;
  params: KeyValue[];
  headers: KeyValue[];
  /** Sent as the `xc-auth` header when set: the caller's session by default. */
  auth: string;
  body: string;
  /** Only in a kept request (draft, history): the auth was the caller's session token, not written down. */
  sessionAuth?: boolean;
}

/** What an answer showed. */
export interface ApiResponse {
  status: number;
  statusText?: string;
  headers: [string, string][];
  /** The body as text ('' for a binary one). */
  data: string;
  /** A body that is not text: its media type ('' when the answer named none). */
  binary?: string;
  /** The bytes of a binary body, on screen only (never kept in the history). */
  blob?: Blob;
  size: number;
  timeTaken: number;
}

/** Media types whose bodies are text whatever their charset says. */
const TEXT_TYPE = /^text\/|[/+](json|xml|javascript|ecmascript|x-www-form-urlencoded|csv|yaml|x-yaml|graphql|x-ndjson)\b/i;

/** The body of an answer as shown: text when its media type is textual (or missing) and its bytes are UTF-8, else binary. */
export function responseBody(contentType: string | null, bytes: Uint8Array): { data: string; binary?: string; blob?: Blob } {
  const type = (contentType ?? '').split(';')[0]!.trim();
  if (!type || TEXT_TYPE.test(type)) {
    try {
      return { data: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
    } catch {
      // not UTF-8: shown as bytes
    }
  }
  return { data: '', binary: type, blob: new Blob([bytes as BlobPart], type ? { type } : {}) };
}

/** The bytes of a base64 text. */
export function base64Bytes(text: string): Uint8Array {
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** An answer as the history keeps it: a binary body's bytes stay on screen only. */
export const keptResponse = (r: ApiResponse): ApiResponse => (r.blob ? { ...r, blob: undefined } : r);

/** One history entry: the request as sent and its answer. */
export interface HistoryEntry {
  id?: string;
  createdAt: string;
  request: ApiRequest;
  /** The answer of a single send (absent for a performance test). */
  response?: ApiResponse | { error: string };
  /** A performance test of the request: what it measured. */
  perf?: PerfResult;
}

/** The newest entries kept per user (spec: request history 500, newest first). */
export const HISTORY_MAX = 500;

export const emptyRequest = (): ApiRequest => ({ method: 'GET', url: '', params: [], headers: [], auth: '', body: '' });

const VAR = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

/** The variables a text names (`{{name}}`), in order, without repeats. */
export function variableNames(text: string): string[] {
  return [...new Set([...text.matchAll(VAR)].map((m) => m[1]!))];
}

/** The enabled variables of an environment by name. */
export function variableMap(vars: KeyValue[]): Map<string, string> {
  return new Map(vars.filter((v) => v.enabled && v.name.trim()).map((v) => [v.name.trim(), v.value]));
}

/** The names a text uses that the environment lacks: a text is valid only when this is empty. */
export function missingVariables(text: string, vars: Map<string, string>): string[] {
  return variableNames(text).filter((n) => !vars.has(n));
}

/** The text with every known `{{name}}` replaced by its value (unknown ones stay as written). */
export function substitute(text: string, vars: Map<string, string>): string {
  return text.replace(VAR, (whole, name: string) => (vars.has(name) ? vars.get(name)! : whole));
}

/**
 * The partial name being typed right after an opening `{{` before the caret (the suggestion menu's
 * filter), or null when the caret is not inside an unclosed `{{`.
 */
export function suggestionQuery(text: string, caret: number): string | null {
  const before = text.slice(0, caret);
  const open = before.lastIndexOf('{{');
  if (open < 0 || before.slice(open).includes('}}')) return null;
  const partial = before.slice(open + 2);
  return /^\s*[\w.-]*$/.test(partial) ? partial.trim() : null;
}

/** The text with the `{{partial` before the caret completed to `{{name}}`; answers the new text and caret. */
export function applySuggestion(text: string, caret: number, name: string): { text: string; caret: number } {
  const open = text.slice(0, caret).lastIndexOf('{{');
  const after = text.slice(caret).replace(/^[\w.-]*\s*\}\}/, '');
  const inserted = `{{${name}}}`;
  return { text: text.slice(0, open) + inserted + after, caret: open + inserted.length };
}

/**
 * What is sent: variables filled in, only enabled params and headers that have a name, params added to the URL.
 * A server path ('/nc/...') goes under the directory of `page`, where the app is served (serverLink).
 * The caller's `session` token, the Auth field's default, goes only to this server: a request to another
 * host is sent without it (an auth typed in by hand still goes).
 */
export function buildRequest(req: ApiRequest, vars: Map<string, string>, page: string, session: string | null = null): { method: Method; url: string; headers: Record<string, string>; body?: string } {
  const fill = (s: string) => substitute(s, vars);
  const url = new URL(serverLink(fill(req.url.trim()) || '/', page), page);
  for (const p of req.params) if (p.enabled && p.name.trim()) url.searchParams.append(fill(p.name.trim()), fill(p.value));
  const headers: Record<string, string> = {};
  for (const h of req.headers) if (h.enabled && h.name.trim()) headers[fill(h.name.trim())] = fill(h.value);
  const auth = fill(req.auth.trim());
  const sessionElsewhere = !!session && auth === session && url.origin !== new URL(page).origin;
  if (auth && !sessionElsewhere && !Object.keys(headers).some((k) => k.toLowerCase() === 'xc-auth')) headers['xc-auth'] = auth;
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body.trim() !== '';
  if (hasBody && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = looksLikeJson(req.body) ? 'application/json' : 'text/plain';
  return { method: req.method, url: url.toString(), headers, body: hasBody ? fill(req.body) : undefined };
}

/** A header name HTTP allows (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header value HTTP can carry: one line of Latin-1 characters. */
const HEADER_VALUE = /^[^\0\r\n\u0100-\uffff]*$/;

/** The first header of a built request that no request can carry (its name or its value), or null. */
export function headerProblem(headers: Record<string, string>): { name: string; part: 'name' | 'value' } | null {
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) return { name, part: 'name' };
    if (!HEADER_VALUE.test(value)) return { name, part: 'value' };
  }
  return null;
}

/** Whether text parses as JSON (the body and auth are sent as JSON when they do). */
export function looksLikeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Every name a request uses that the environment lacks (URL, params, headers, auth, body). */
export function requestMissing(req: ApiRequest, vars: Map<string, string>): string[] {
  const texts = [req.url, req.auth, req.body, ...req.params.filter((p) => p.enabled).flatMap((p) => [p.name, p.value]), ...req.headers.filter((h) => h.enabled).flatMap((h) => [h.name, h.value])];
  return [...new Set(texts.flatMap((t) => missingVariables(t, vars)))];
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The request as a curl command line. */
export function toCurl(built: ReturnType<typeof buildRequest>): string {
  const parts = ['curl', '-X', built.method, shellQuote(built.url)];
  for (const [k, v] of Object.entries(built.headers)) parts.push('-H', shellQuote(`${k}: ${v}`));
  if (built.body !== undefined) parts.push('--data-raw', shellQuote(built.body));
  return parts.join(' ');
}

/**
 * The request as it is kept (the draft in the browser, history entries on the server): an auth that is
 * the caller's session token is left out and marked, so the token is not stored and a later session
 * (after signing in again or a refresh) sends its own token instead of an expired one.
 */
export function keptRequest(req: ApiRequest, session: string | null): ApiRequest {
  const { sessionAuth: _, ...rest } = req;
  return session && req.auth.trim() === session ? { ...rest, auth: '', sessionAuth: true } : rest;
}

/** A kept request made ready to send again: a marked auth becomes the current session token. */
export function restoredRequest(kept: Partial<ApiRequest>, session: string | null): ApiRequest {
  const { sessionAuth, ...rest } = kept;
  const req = { ...emptyRequest(), ...rest };
  return sessionAuth ? { ...req, auth: session ?? '' } : req;
}

/** The history with `entry` first and at most `max` entries. */
export function addToHistory(list: HistoryEntry[], entry: HistoryEntry, max = HISTORY_MAX): HistoryEntry[] {
  return [entry, ...list].slice(0, max);
}
