/**
 * Realtime: one websocket per open project (`/api/v1/realtime?project_id=`), authenticated like the
 * API (session token as the subprotocol `tablo.jwt.<token>` or `?token=`; a foreign Origin is
 * refused). A client subscribes to the tables it shows; every committed write of such a table
 * (REST, GraphQL, the dashboard, bulk calls, imports, shared forms) is sent to it within moments,
 * cut to what this reader may see (row-events.ts), with the reader's rights worked out again for
 * every message. Schema changes tell every client of the project to read the model again, naming
 * the tables they renamed.
 */
import type { AppContext } from '../context';
import type { Server } from 'bun';
import type { Sockets, AppSocket, SocketData } from '../http/sockets';
import { refuse, refuseFailure } from '../http/sockets';
import { isOwnOrigin } from '../http/client-address';
import { forbidden, isAppError } from '../lib/errors';
import type { Actor } from '../lib/actor';
import { projectRolesOf, resolveActor } from '../http/principal';
import { cachedDataContext, dataContext } from '../api/rest/context';
import type { WriteEvent } from '../data/write-events';
import { messageFor } from './row-events';
import { crossInstanceNotices, crossInstancePresence, crossInstanceRealtime, type TableNotice } from './cross-instance';
import { onViewsChanged } from '../api/views/view-events';
import { tableRenames } from './table-renames';
import { onCommentsChanged } from '../api/shared/comment-events';
import { onRowsChangedBySql } from '../api/shared/sql-write-events';
import { invalidation } from '../meta/invalidation';
import { onSessionsEnded } from '../auth/session-events';
import { mayReadTable, presenceUserOf, type PresenceSocket, type PresenceUser } from './presence';

export const REALTIME_PATH = '/api/v1/realtime';
export const REALTIME_PROTOCOL = 'tablo.realtime';

interface RealtimeState {
  projectId: string;
  /** The caller's credentials as request headers (their rights are resolved again per message). */
  headers: Record<string, string>;
  /** Tables (API alias or SQL name) this client shows. */
  tables: Set<string>;
  /** The credentials as one text: clients with the same key get the same share of a write. */
  key: string;
  /** The caller's roles in the project when last looked at: a change is told to the client. */
  roles: string;
  /** Who the caller is to the others on the same table (signed-in users only). */
  user?: PresenceUser;
  /** This socket in the presence rooms of the tables it shows (set when it opens). */
  presence?: PresenceSocket;
}
type RealtimeSocket = AppSocket<RealtimeState>;

function credentials(request: Request, url: URL): Record<string, string> | null {
  const offered = (request.headers.get('sec-websocket-protocol') ?? '').split(',').map((x) => x.trim());
  // A role previewed by the page (`tablo.preview.<role>`, as `xc-preview` on its calls): the socket's rows
  // are that role's, so a preview follows others' changes as a member of that role sees them.
  const preview = offered.find((p) => p.startsWith('tablo.preview.'))?.slice('tablo.preview.'.length);
  for (const p of offered) {
    if (p.startsWith('tablo.jwt.')) return { 'xc-auth': p.slice('tablo.jwt.'.length), ...(preview ? { 'xc-preview': preview } : {}) };
  }
  const token = url.searchParams.get('token');
  if (token) return { 'xc-auth': token };
  const apiToken = url.searchParams.get('api_token');
  return apiToken ? { 'xc-token': apiToken } : null;
}

/** A browser's Origin must be this server (or the public URL); clients without one (scripts) pass. */
function originAllowed(ctx: AppContext, request: Request): boolean {
  const origin = request.headers.get('origin');
  return !origin || isOwnOrigin(ctx.config, request, origin);
}

/** The request the rights of a socket's caller are resolved from. */
const callerRequest = (s: RealtimeState) => new Request('http://realtime.local/', { headers: s.headers });

/** Close code of a socket whose caller's rights could not be checked (the metadata store unreachable): open it again later. */
export const CLOSE_TRY_AGAIN = 4503;
/** The reason sent with CLOSE_TRY_AGAIN when the error has no message to show. */
export const MSG_TRY_AGAIN = 'Your rights could not be checked; try again in a moment.';

/**
 * Ends a socket whose caller's rights check failed: 4401 when the session ended, 4403 when the caller
 * may not be in the project; any other failure (503: the metadata store unreachable) is no verdict on
 * the session, so the socket ends with CLOSE_TRY_AGAIN, which the client answers by opening it again
 * later, never by signing out.
 */
function endSocket(ws: RealtimeSocket, e: unknown): void {
  const status = isAppError(e) ? e.status : 500;
  const said = (e as Error | undefined)?.message ?? '';
  // A close reason holds at most 123 bytes.
  const fits = (msg: string) => Buffer.byteLength(msg) <= 123;
  if (status === 401 || status === 403) return ws.close(4000 + status, fits(said) ? said : status === 401 ? 'Not signed in' : 'Not allowed');
  ws.close(CLOSE_TRY_AGAIN, status === 503 && fits(said) ? said : MSG_TRY_AGAIN);
}

export function realtimeFeature(ctx: AppContext, sockets: Sockets) {
  const byProject = new Map<string, Set<RealtimeSocket>>();

  const send = (ws: RealtimeSocket, message: unknown) => {
    if (ws.readyState === 1) ws.send(JSON.stringify(message));
  };

  /** Who listens to what: project -> table name (as clients subscribed it) -> caller key -> sockets. */
  const listeners = new Map<string, Map<string, Map<string, number>>>();
  const topicOf = (projectId: string, table: string, key: string) => `rt\u0000${projectId}\u0000${table}\u0000${key}`;
  const count = (s: RealtimeState, table: string, by: 1 | -1) => {
    const tables = listeners.get(s.projectId) ?? new Map<string, Map<string, number>>();
    listeners.set(s.projectId, tables);
    const keys = tables.get(table) ?? new Map<string, number>();
    tables.set(table, keys);
    const n = (keys.get(s.key) ?? 0) + by;
    if (n > 0) keys.set(s.key, n);
    else keys.delete(s.key);
  };
  let server: Server<SocketData> | null = null;
  // Members on other instances (a PostgreSQL metadata store) are in the same rooms.
  const sharedPresence = crossInstancePresence(ctx);
  const rooms = sharedPresence.rooms;

  /**
   * Refuses (403) a caller taken out of the project since their socket opened: the socket ends with
   * 4403 at the project's next write, as it does at their next message.
   */
  async function assertStillMember(actor: Actor, projectId: string) {
    if (actor.kind === 'master' || actor.superAdmin) return;
    if (!(await projectRolesOf(ctx, actor, projectId)).some((r) => r !== 'guest')) throw forbidden('Not a member of this project');
  }

  /** Each project's deliveries, one after the other: its clients get its writes in the order they were made. */
  const deliveries = new Map<string, Promise<void>>();
  function deliver(event: WriteEvent): Promise<void> {
    const run = (deliveries.get(event.projectId) ?? Promise.resolve()).then(() => deliverNow(event));
    const settled = run.then(() => {}, () => {});
    deliveries.set(event.projectId, settled);
    void settled.then(() => deliveries.get(event.projectId) === settled && deliveries.delete(event.projectId));
    return run;
  }

  /**
   * One write to every client of its project that shows the table, each with their own share: the
   * share is worked out once per caller and published once to all of that caller's sockets (Bun's
   * pub/sub sends it to each).
   */
  async function deliverNow(event: WriteEvent) {
    const tables = listeners.get(event.projectId);
    if (!tables?.size || !server) return;
    // The model at hand, or read again (the project's row is cached for a second only: an import runs longer).
    let pdb = ctx.projects.peek(event.projectId, event.dbAlias);
    if (!pdb) {
      try {
        pdb = await ctx.projects.get(event.projectId, event.dbAlias);
      } catch (e) {
        // Without the model the table's alias, which clients subscribe by, is unknown (the metadata store
        // unreachable): every client that shows a table of the project ends with 4503 and reads again once back.
        for (const ws of byProject.get(event.projectId) ?? []) if (ws.data.state.tables.size) endSocket(ws, e);
        return;
      }
    }
    const model = pdb.model.tables.find((t) => t.tn === event.tn);
    const names = model && model._tn !== event.tn ? [event.tn, model._tn] : [event.tn];
    const shares = new Map<string, Promise<string | null>>();
    for (const name of names) {
      for (const key of tables.get(name)?.keys() ?? []) {
        let share = shares.get(key);
        if (!share) {
          share = (async () => {
            const request = new Request('http://realtime.local/', { headers: JSON.parse(key) as Record<string, string> });
            const dc = cachedDataContext(ctx, request, event.projectId, event.dbAlias) ?? (await dataContext(ctx, request, event.projectId, event.dbAlias));
            await assertStillMember(dc.actor, event.projectId);
            const message = messageFor(dc, event);
            return message ? JSON.stringify(message) : null;
          })();
          shares.set(key, share);
        }
        try {
          const text = await share;
          if (text) server.publish(topicOf(event.projectId, name, key), text);
        } catch (e) {
          // The caller lost their session or their place in the project (4401, 4403), or their rights could not
          // be worked out (4503: the metadata store is unreachable): their sockets end. After a 4503 the client
          // opens again as after a drop and reads again what it shows, so the change is not lost to it.
          for (const ws of byProject.get(event.projectId) ?? []) if (ws.data.state.key === key) endSocket(ws, e);
        }
      }
    }
  }

  /**
   * A membership changed (an invite, a role, a removal; here or on another instance), or a user's
   * sessions ended (a disabled account, a new password): the sockets of callers no longer in their
   * project end now (4403), and those whose session ended (4401), without waiting for a write or a message.
   * A caller whose roles changed is sent `{ type: "schema" }`: their page reads the tree, the open
   * tables and their rights again (a demoted editor's grid turns read-only).
   */
  async function endLeavers() {
    // After the other subscribers of the change have dropped the cached roles.
    await Promise.resolve();
    for (const [projectId, set] of byProject) {
      for (const ws of [...set]) {
        try {
          const actor = await resolveActor(ctx, callerRequest(ws.data.state));
          await assertStillMember(actor, projectId);
          const roles = (await projectRolesOf(ctx, actor, projectId)).join(',');
          if (roles !== ws.data.state.roles) {
            ws.data.state.roles = roles;
            send(ws, { type: 'schema' });
            await placePresence(ws);
          }
        } catch (e) {
          const status = isAppError(e) ? e.status : 500;
          if (status === 401 || status === 403) ws.close(4000 + status, isAppError(e) ? e.message : 'Not allowed');
        }
      }
    }
  }
  /** After a change of roles: the socket is in the presence of the tables it shows that its caller may read now, and only those. */
  async function placePresence(ws: RealtimeSocket) {
    const s = ws.data.state;
    if (!s.presence) return;
    for (const table of [...s.tables]) {
      const may = await mayReadTable(ctx, callerRequest(s), s.projectId, table);
      if (ws.readyState !== 1 || !s.tables.has(table)) continue;
      if (may) rooms.join(s.projectId, table, s.presence);
      else rooms.leave(s.projectId, table, s.presence);
    }
  }
  const unsubscribeRoles = invalidation(ctx.meta).subscribe('roles', () => void endLeavers());
  const unsubscribeSessions = onSessionsEnded(ctx, () => void endLeavers());

  /**
   * The name clients know a table by (its alias), from its SQL name: through the project's model at
   * hand, else read (this instance holds a project's row for a second only, and a notice from another
   * instance may come later); the SQL name when the project or table is not there.
   */
  const aliasOf = async (scope: TableNotice): Promise<string> => {
    const pdb = ctx.projects.peek(scope.projectId, scope.dbAlias) ?? (await ctx.projects.get(scope.projectId, scope.dbAlias).catch(() => undefined));
    return pdb?.model.tables.find((x) => x.tn === scope.tn)?._tn ?? scope.tn;
  };
  const unsubscribeWrites = ctx.writeEvents.subscribe(deliver);
  /**
   * Changes may have been missed (another instance's announcement was lost, or its rows could not
   * be read): the clients that show the table, or every client (no table), are sent
   * `{ type: "resync", table? }` and read again what they show.
   */
  const reread = async (scope?: TableNotice) => {
    if (!scope) {
      for (const set of byProject.values()) for (const ws of set) send(ws, { type: 'resync' });
      return;
    }
    const table = await aliasOf(scope);
    for (const ws of byProject.get(scope.projectId) ?? []) {
      const shown = ws.data.state.tables;
      if (shown.has(table)) send(ws, { type: 'resync', table });
      else if (shown.has(scope.tn)) send(ws, { type: 'resync', table: scope.tn });
    }
  };
  const unsubscribeRemote = crossInstanceRealtime(ctx, (projectId) => !!byProject.get(projectId)?.size, (event) => void deliver(event), reread);
  // Renamed and deleted tables are named, so that open tabs follow them or close.
  const renames = tableRenames(ctx);
  const unsubscribeSchema = ctx.projects.onChange((projectId) => {
    void renames.changed(projectId).then(({ renamed, deleted }) => {
      const message = { type: 'schema', ...(renamed.length ? { renamed } : {}), ...(deleted.length ? { deleted } : {}) };
      for (const ws of byProject.get(projectId) ?? []) send(ws, message);
    });
  });
  /** Tells this instance's clients that show a table (by its SQL name or alias) that something of it changed. */
  const tellHere = (type: 'views' | 'comments') => async (e: TableNotice) => {
    const table = await aliasOf(e);
    for (const ws of byProject.get(e.projectId) ?? []) {
      if (ws.data.state.tables.has(e.tn) || ws.data.state.tables.has(table)) send(ws, { type, table });
    }
  };
  // Other instances (a PostgreSQL metadata store) tell their clients too.
  const remoteViews = crossInstanceNotices(ctx, 'rt-views', (e) => void tellHere('views')(e));
  const remoteComments = crossInstanceNotices(ctx, 'rt-comments', (e) => void tellHere('comments')(e));
  const tell = (type: 'views' | 'comments', remote: typeof remoteViews) => (e: TableNotice & { meta: unknown }) => {
    if (e.meta !== ctx.meta) return;
    void tellHere(type)(e);
    remote.announce(e);
  };
  // A table's saved views changed: the clients that show the table read its views again.
  const unsubscribeViews = onViewsChanged(tell('views', remoteViews));
  // Comments of a table's rows changed: the clients that show the table read their open rows' comments again.
  const unsubscribeComments = onCommentsChanged(tell('comments', remoteComments));
  // Rows changed by SQL (the SQL Client), here or on another instance: which rows is not known, so every
  // client of the project reads again what it shows.
  const resyncProject = (projectId: string) => {
    for (const ws of byProject.get(projectId) ?? []) send(ws, { type: 'resync' });
  };
  const remoteSql = crossInstanceNotices(ctx, 'rt-sql', (e) => resyncProject(e.projectId));
  const unsubscribeSql = onRowsChangedBySql((e) => {
    if (e.meta !== ctx.meta) return;
    resyncProject(e.projectId);
    remoteSql.announce({ projectId: e.projectId, dbAlias: e.dbAlias, tn: '' });
  });
  ctx.closers.push(async () => {
    unsubscribeSql();
    remoteSql.stop();
    unsubscribeViews();
    unsubscribeComments();
    remoteViews.stop();
    remoteComments.stop();
    unsubscribeWrites();
    unsubscribeRoles();
    unsubscribeSessions();
    unsubscribeRemote();
    unsubscribeSchema();
    await sharedPresence.stop();
    for (const set of byProject.values()) for (const ws of set) ws.close(1001, 'Server stopping');
  });

  sockets.register<RealtimeState>(REALTIME_PATH, {
    async accept(request, srv) {
      server = srv;
      const url = new URL(request.url);
      if (!originAllowed(ctx, request)) return refuse(403, 'This origin may not open the realtime socket');
      const projectId = url.searchParams.get('project_id');
      if (!projectId) return refuse(400, 'project_id is required');
      const headers = credentials(request, url);
      if (!headers) return refuse(401, 'Not signed in');
      let roles: string[];
      let user: PresenceUser | undefined;
      try {
        const actor = await resolveActor(ctx, new Request(url, { headers }));
        if (actor.kind === 'guest') return refuse(401, 'Not signed in');
        roles = await projectRolesOf(ctx, actor, projectId);
        const member = actor.kind === 'master' || actor.superAdmin || roles.some((r) => r !== 'guest');
        if (!member) return refuse(403, 'Not a member of this project');
        user = await presenceUserOf(ctx, actor);
      } catch (e) {
        return refuseFailure(e, ctx.log, 'the realtime socket upgrade');
      }
      const offered = request.headers.get('sec-websocket-protocol') ?? '';
      const answer: Record<string, string> = offered.includes(REALTIME_PROTOCOL) ? { 'Sec-WebSocket-Protocol': REALTIME_PROTOCOL } : {};
      return { state: { projectId, headers, tables: new Set<string>(), key: JSON.stringify(headers), roles: roles.join(','), user }, headers: answer };
    },
    open(ws) {
      const set = byProject.get(ws.data.state.projectId) ?? new Set();
      set.add(ws);
      byProject.set(ws.data.state.projectId, set);
      const user = ws.data.state.user;
      if (user) ws.data.state.presence = { user, send: (m) => send(ws, m) };
      send(ws, { type: 'hello' });
    },
    async message(ws, raw) {
      const s = ws.data.state;
      let msg: { type?: string; table?: unknown };
      try {
        msg = JSON.parse(String(raw));
      } catch {
        return send(ws, { type: 'error', msg: 'Messages are JSON' });
      }
      // Every message is checked against the caller's rights as they are now.
      try {
        const actor = await resolveActor(ctx, callerRequest(s));
        const roles = await projectRolesOf(ctx, actor, s.projectId);
        if (!(actor.kind === 'master' || actor.superAdmin || roles.some((r) => r !== 'guest'))) return ws.close(4403, 'Not a member of this project');
      } catch (e) {
        return endSocket(ws, e);
      }
      if (typeof msg.table !== 'string' || !msg.table) return send(ws, { type: 'error', msg: 'table is required' });
      if (msg.type === 'subscribe' && !s.tables.has(msg.table)) {
        renames.remember(s.projectId);
        s.tables.add(msg.table);
        count(s, msg.table, 1);
        ws.subscribe(topicOf(s.projectId, msg.table, s.key));
        // Those who may read the table see each other there.
        const table = msg.table;
        if (s.presence && (await mayReadTable(ctx, callerRequest(s), s.projectId, table)) && s.tables.has(table) && ws.readyState === 1) rooms.join(s.projectId, table, s.presence);
      } else if (msg.type === 'unsubscribe' && s.tables.has(msg.table)) {
        s.tables.delete(msg.table);
        count(s, msg.table, -1);
        ws.unsubscribe(topicOf(s.projectId, msg.table, s.key));
        if (s.presence) rooms.leave(s.projectId, msg.table, s.presence);
      } else if (msg.type !== 'ping' && msg.type !== 'subscribe' && msg.type !== 'unsubscribe') return send(ws, { type: 'error', msg: `Unknown message type '${msg.type}'` });
      send(ws, { type: 'ok', tables: [...s.tables] });
    },
    close(ws) {
      byProject.get(ws.data.state.projectId)?.delete(ws);
      for (const table of ws.data.state.tables) {
        count(ws.data.state, table, -1);
        if (ws.data.state.presence) rooms.leave(ws.data.state.projectId, table, ws.data.state.presence);
      }
    },
  });
  return { presence: rooms.usersOf, clients: () => [...byProject.values()].reduce((n, s) => n + s.size, 0) };
}
