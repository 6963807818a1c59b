/**
 * What the SQL Client keeps across reloads, per project database in localStorage: its editors
 * (title, text; three temporary ones at start, more on demand), which one is active, and the
 * statement time-out (per user, in seconds).
 */
import { signal, type Signal } from '../../stores/signals';
import { t } from '../../i18n';

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

/** The state of one project database, read from localStorage (three empty editors at first). */
export function loadState(projectId: string, dbAlias: string): SqlClientState {
  try {
    const raw = localStorage.getItem(key(projectId, dbAlias));
    const s = raw ? (JSON.parse(raw) as SqlClientState) : null;
    if (s && Array.isArray(s.editors) && s.editors.length) {
      return { editors: s.editors, active: s.editors.some((e) => e.id === s.active) ? s.active : s.editors[0]!.id };
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
