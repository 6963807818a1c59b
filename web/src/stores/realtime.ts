/**
 * The realtime connection of the open project: one websocket (`/api/v1/realtime`), subscriptions per
 * table, listeners per table and for schema changes. It reconnects by itself after a drop (waiting
 * longer each time, up to 10 s), subscribes again and tells every listener to catch up (`resync`),
 * since changes made meanwhile were not sent. A table's changes are sent only once the server has
 * taken its subscription (it answers `ok` naming the table): a listener added before that may have
 * read its rows before a change it was not sent, so it catches up (`resync`) when the server confirms
 * the table; one added later reads after the server sends it every change. The server may also say that changes could
 * not be told (`resync`: another instance's were lost): every view of the tables named, or of all, reads again what it
 * shows, as after a drop. When the server ends the socket because the session it
 * was opened with ended (4401: it expired after hours open, or was replaced), a fresh token is asked
 * for with the refresh cookie and the socket opens again with it; when the refresh is refused (401), the
 * user is signed out and sent to sign-in as by a 401 of any other call. A refresh that got no verdict
 * (the server or its metadata store unreachable) is asked again later, waiting longer each time, and
 * signs no one out. A socket the server ends because it could not check the caller's rights (4503: its
 * store unreachable) opens again as after a drop.
 */
import { token } from './session';
import { previewAs } from './preview';
import { refreshToken, sessionExpired } from '../api/http';
import { t } from '../i18n';
import { toast } from './toasts';
import { appSocketUrl } from '../api/app-url';
import { presence, setPresence, type PresenceUser } from './presence';
import { noteServerReached } from './server-status';

/** The server ended the socket because it could not check the caller's rights (its metadata store unreachable): open it again later. */
const CLOSE_TRY_AGAIN = 4503;

/** A change of rows sent by the server, cut to what this user may see. */
export interface LiveRows {
  type: 'rows';
  table: string;
  op: 'insert' | 'update' | 'delete';
  rows: Record<string, unknown>[];
  removed: string[];
  /** The e-mail of the member who wrote, when a signed-in member did. */
  by?: string;
}
export type LiveListener = (event: LiveRows | { type: 'resync' }) => void;
/** A table someone renamed: its display name before and after, in one database. */
export interface TableRenamed {
  dbAlias: string;
  from: string;
  to: string;
}
/** A table someone deleted: the display name it was shown under, in one database. */
export interface TableDeleted {
  dbAlias: string;
  name: string;
}
export type SchemaListener = (renamed: TableRenamed[], deleted: TableDeleted[]) => void;

const RETRY_MAX_MS = 10_000;

class LiveConnection {
  private ws: WebSocket | null = null;
  private listeners = new Map<string, Set<LiveListener>>();
  private schemaListeners = new Set<SchemaListener>();
  /** Listeners to changes of a table's saved views, by table. */
  private viewListeners = new Map<string, Set<() => void>>();
  /** Listeners to changes of the comments of a table's rows, by table. */
  private commentListeners = new Map<string, Set<() => void>>();
  /** Listeners added before the server confirmed their table on this socket, by table: they catch up when it does. */
  private unconfirmed = new Map<string, Set<LiveListener>>();
  /** Tables the server confirmed on the current socket. */
  private confirmed = new Set<string>();
  /** Tables subscribed again after a drop: their views and comments are read again too once confirmed. */
  private rejoined = new Set<string>();
  private retryMs = 500;
  private closed = false;
  private everOpened = false;

  constructor(readonly projectId: string) {
    this.connect();
  }

  private connect() {
    if (this.closed || !token.value) return;
    const url = appSocketUrl(`/api/v1/realtime?project_id=${encodeURIComponent(this.projectId)}`);
    // A previewed role goes with the socket too: the rows it brings are that role's (the page reloads when the preview changes).
    const ws = new WebSocket(url, ['tablo.realtime', `tablo.jwt.${token.value}`, ...(previewAs.value ? [`tablo.preview.${previewAs.value}`] : [])]);
    this.ws = ws;
    this.confirmed = new Set();
    ws.onopen = () => {
      this.retryMs = 500;
      noteServerReached(true);
      for (const [table, set] of this.listeners) {
        ws.send(JSON.stringify({ type: 'subscribe', table }));
        // After a drop, what changed meanwhile was not sent: every view reads its rows (and views and comments) again, once subscribed.
        if (this.everOpened) {
          for (const l of set) this.waitFor(table, l);
          this.rejoined.add(table);
        }
      }
      this.everOpened = true;
    };
    ws.onmessage = (e) => {
      let msg: { type: string; table?: string; tables?: unknown[]; renamed?: TableRenamed[]; deleted?: TableDeleted[]; users?: PresenceUser[] };
      try {
        msg = JSON.parse(String(e.data));
      } catch {
        return;
      }
      if (msg.type === 'ok' && Array.isArray(msg.tables)) for (const table of msg.tables) if (typeof table === 'string') this.confirm(table);
      if (msg.type === 'resync') this.catchUp(typeof msg.table === 'string' ? msg.table : undefined);
      if (msg.type === 'rows' && msg.table) for (const l of this.listeners.get(msg.table) ?? []) l(msg as LiveRows);
      if (msg.type === 'schema') for (const l of this.schemaListeners) l(Array.isArray(msg.renamed) ? msg.renamed : [], Array.isArray(msg.deleted) ? msg.deleted : []);
      if (msg.type === 'views' && msg.table) for (const l of this.viewListeners.get(msg.table) ?? []) l();
      if (msg.type === 'comments' && msg.table) for (const l of this.commentListeners.get(msg.table) ?? []) l();
      if (msg.type === 'presence' && msg.table && Array.isArray(msg.users) && this.listeners.has(msg.table)) setPresence(msg.table, msg.users);
    };
    const opened = token.value;
    ws.onclose = (e) => {
      this.ws = null;
      // Who is there is told again when the socket opens again.
      if (current === this) presence.value = {};
      if (this.closed) return;
      // 4403: the user was taken out of the project; no point in trying again, nor in showing its data.
      if (e.code === 4403) return leftProject();
      if (e.code === 4401) return this.renew(opened, e.reason);
      if (e.code === CLOSE_TRY_AGAIN) noteServerReached(false);
      this.later(() => this.connect());
    };
  }

  /** Runs `fn` after the current wait, and waits twice as long (up to RETRY_MAX_MS) the next time. */
  private later(fn: () => void) {
    setTimeout(fn, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }

  /**
   * The session the socket was opened with (`opened`) ended: it opens again with the token refreshed
   * meanwhile, or a fresh one. Refused, the user is signed out; no verdict (the server or its store
   * unreachable), it asks again later.
   */
  private renew(opened: string | null, reason: string) {
    if (this.closed) return;
    if (token.value && token.value !== opened) return this.connect();
    void refreshToken(opened).then((refresh) => {
      if (this.closed) return;
      if (refresh.kind === 'refreshed') this.connect();
      else if (refresh.kind === 'unavailable') this.later(() => this.renew(opened, reason));
      // Not when signed out or in again meanwhile (in this tab or another): that session is not this one.
      else if (token.value === opened) sessionExpired(reason === 'This account is disabled' ? 'disabled' : 'expired');
    });
  }

  /** Listens to one table's changes; answers the function that stops listening. */
  subscribe(table: string, listener: LiveListener): () => void {
    let set = this.listeners.get(table);
    if (!set) {
      this.listeners.set(table, (set = new Set()));
      if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: 'subscribe', table }));
    }
    set.add(listener);
    if (!this.confirmed.has(table)) this.waitFor(table, listener);
    return () => {
      set!.delete(listener);
      this.unconfirmed.get(table)?.delete(listener);
      if (set!.size === 0) {
        this.listeners.delete(table);
        this.unconfirmed.delete(table);
        this.confirmed.delete(table);
        this.rejoined.delete(table);
        if (current === this) setPresence(table, undefined);
        if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: 'unsubscribe', table }));
      }
    };
  }

  /** `listener` catches up once the server confirms `table` on this socket. */
  private waitFor(table: string, listener: LiveListener) {
    const set = this.unconfirmed.get(table) ?? new Set();
    this.unconfirmed.set(table, set);
    set.add(listener);
  }

  /** The server sends `table`'s changes from now on: the listeners that read before catch up. */
  private confirm(table: string) {
    if (this.confirmed.has(table) || !this.listeners.has(table)) return;
    this.confirmed.add(table);
    const waiting = this.unconfirmed.get(table) ?? new Set();
    this.unconfirmed.delete(table);
    for (const l of waiting) l({ type: 'resync' });
    if (!this.rejoined.delete(table)) return;
    for (const l of this.viewListeners.get(table) ?? []) l();
    for (const l of this.commentListeners.get(table) ?? []) l();
  }

  /**
   * Changes were made that the server could not send: the views of `table` read their rows again, or
   * (no table) every view reads its rows, saved views and comments again.
   */
  private catchUp(table?: string) {
    for (const [name, set] of [...this.listeners]) {
      if (table !== undefined && name !== table) continue;
      for (const l of [...set]) l({ type: 'resync' });
      if (table !== undefined) continue;
      for (const l of this.viewListeners.get(name) ?? []) l();
      for (const l of this.commentListeners.get(name) ?? []) l();
    }
  }

  /**
   * Listens to changes of a table's saved views (made by anyone, also after a drop); the table is
   * subscribed meanwhile, since the server tells only the clients that show it.
   */
  onViews(table: string, listener: () => void): () => void {
    return this.onTable(this.viewListeners, table, listener);
  }

  /** Listens to changes of the comments of a table's rows (by anyone, also after a drop); as onViews. */
  onComments(table: string, listener: () => void): () => void {
    return this.onTable(this.commentListeners, table, listener);
  }

  private onTable(listeners: Map<string, Set<() => void>>, table: string, listener: () => void): () => void {
    const set = listeners.get(table) ?? new Set();
    listeners.set(table, set);
    set.add(listener);
    const off = this.subscribe(table, () => {});
    return () => {
      off();
      set.delete(listener);
      if (set.size === 0) listeners.delete(table);
    };
  }

  /** Listens to schema changes of the project (tables or columns changed by someone), with the tables renamed and deleted. */
  onSchema(listener: SchemaListener): () => void {
    this.schemaListeners.add(listener);
    return () => this.schemaListeners.delete(listener);
  }

  close() {
    this.closed = true;
    if (current === this) presence.value = {};
    this.ws?.close();
  }
}

let current: LiveConnection | null = null;

/** Said when the server ends the socket because the user left the project: the projects list replaces its pages. */
function leftProject(): void {
  toast('error', t('errors.LEFT_PROJECT'));
  window.location.hash = '#/projects';
}

/** The connection of a project (made on first use; another project's is closed). */
export function liveConnection(projectId: string): LiveConnection {
  if (current?.projectId !== projectId) {
    current?.close();
    current = new LiveConnection(projectId);
  }
  return current;
}

/** Closes the connection (sign-out, leaving the project). */
export function closeLiveConnection(): void {
  current?.close();
  current = null;
}
