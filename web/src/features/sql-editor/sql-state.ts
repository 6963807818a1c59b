/**
 * What the SQL Client keeps across reloads, per project database in localStorage: its editors
 * (title, text; three temporary ones at start, more on demand), which one is active, and the
 * statement time-out (per user, in seconds).
 */
import { signal, type Signal } from '../../stores/signals';
import { intlFor, LOCALES, t } from '../../i18n';

export interface EditorDoc {
  id: string;
  title: string;
  text: string;
  /** The saved query this editor holds, if any. */
  savedId?: string;
}

export interface SqlClientState {
  editors: EditorDoc[];
  active: string;
}

/** Default statement time-out in seconds. */
export const DEFAULT_TIMEOUT_S = 60;

const key = (projectId: string, dbAlias: string) => `tablo.sqlClient.${projectId}.${dbAlias}`;
const TIMEOUT_KEY = 'tablo.sqlClient.timeoutSeconds';

let seq = 0;
export const newEditorId = () => `ed${Date.now().toString(36)}${(++seq).toString(36)}`;

function fresh(): SqlClientState {
  const editors = [1, 2, 3].map((n) => ({ id: newEditorId(), title: t('tools.sql.queryTitle', { n }), text: '' }));
  return { editors, active: editors[0]!.id };
}

/**
 * A title as the current language writes it: a default one ('Query 2', 'Requête 2', …, kept in the
 * language of the day it was made) becomes the current language's, any other stays as it was named.
 */
export function localTitle(title: string): string {
  const n = Number(/\d+/.exec(title)?.[0]);
  if (!Number.isInteger(n)) return title;
  const isDefault = LOCALES.some((l) => intlFor(l.code).formatMessage({ id: 'tools.sql.queryTitle' }, { n }) === title);
  return isDefault ? t('tools.sql.queryTitle', { n }) : title;
}

/** The state of one project database, read from localStorage (three empty editors at first). */
export function loadState(projectId: string, dbAlias: string): SqlClientState {
  try {
    const raw = localStorage.getItem(key(projectId, dbAlias));
    const s = raw ? (JSON.parse(raw) as SqlClientState) : null;
    if (s && Array.isArray(s.editors) && s.editors.length) {
      // Temporary editors keep default titles in the language they were made in: shown in today's.
      const editors = s.editors.map((e) => (e.savedId ? e : { ...e, title: localTitle(e.title) }));
      return { editors, active: editors.some((e) => e.id === s.active) ? s.active : editors[0]!.id };
    }
  } catch {
    // A broken entry starts afresh.
  }
  return fresh();
}

export function saveState(projectId: string, dbAlias: string, s: SqlClientState): void {
  localStorage.setItem(key(projectId, dbAlias), JSON.stringify(s));
}

/** The statement time-out in seconds (settings of the SQL Client, kept per browser). */
export const timeoutSeconds: Signal<number> = signal(Number(localStorage.getItem(TIMEOUT_KEY)) || DEFAULT_TIMEOUT_S);

export function setTimeoutSeconds(n: number): void {
  const v = Math.min(3600, Math.max(1, Math.round(n) || DEFAULT_TIMEOUT_S));
  timeoutSeconds.value = v;
  localStorage.setItem(TIMEOUT_KEY, String(v));
}

/** A new title `Query N` (in the current language) not yet used. */
export function nextTitle(editors: EditorDoc[]): string {
  for (let n = editors.length + 1; ; n++) if (!editors.some((e) => e.title === t('tools.sql.queryTitle', { n }))) return t('tools.sql.queryTitle', { n });
}
