/**
 * Presence: who else shows a table. A signed-in member's socket that subscribes a table they may
 * read joins that table's room; the others in the room are told (`{ type: "presence", table, users }`,
 * each socket with everyone but its own user) when someone arrives or leaves (unsubscribe, socket
 * closed). Several tabs of one user count once. API tokens and the master key have no presence.
 * Kept in memory per instance; with several instances (a PostgreSQL metadata store) each tells the
 * others who it has in each room (cross-instance.ts), so members served by different instances
 * see each other too.
 */
import type { AppContext } from '../context';
import type { Actor } from '../lib/actor';
import { projectsRepo } from '../meta/projects-repo';
import { usersRepo } from '../meta/users-repo';
import { dataContext } from '../api/rest/context';
import { readableTableOf } from '../api/views/view-access';

/** A member as the others see them. */
export interface PresenceUser {
  id: string;
  email: string;
  name?: string;
  color: string;
}

/** A socket as presence knows it: its user and a way to send it a message. */
export interface PresenceSocket {
  user: PresenceUser;
  send(message: unknown): void;
}

/** Dark enough for white initials (WCAG AA contrast) and told apart from each other. */
const COLORS = ['#0b5cad', '#a11d48', '#1e7b3a', '#8a4b00', '#6b3fa0', '#00707a', '#b42318', '#4d5b1f'];

/** A user's colour: the same on every page and instance, derived from their id. */
export function colorOf(userId: string): string {
  let h = 0;
  for (const ch of userId) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return COLORS[h % COLORS.length]!;
}

/** The presence identity of a caller: signed-in users only (not API tokens, not the master key). */
export async function presenceUserOf(ctx: AppContext, actor: Actor): Promise<PresenceUser | undefined> {
  if (actor.kind !== 'user' || !actor.userId || !actor.email) return undefined;
  const row = await usersRepo(ctx.meta).byIdCached(actor.userId).catch(() => undefined);
  const name = [row?.firstname, row?.lastname].filter(Boolean).join(' ').trim();
  return { id: actor.userId, email: actor.email, ...(name ? { name } : {}), color: colorOf(actor.userId) };
}

/** Whether the caller may read the table (by SQL name or alias) in one of the project's databases. */
export async function mayReadTable(ctx: AppContext, request: Request, projectId: string, table: string): Promise<boolean> {
  const aliases = [...new Set((await projectsRepo(ctx.meta).dbs(projectId)).map((d) => d.db_alias))];
  for (const dbAlias of aliases) {
    const pdb = ctx.projects.peek(projectId, dbAlias) ?? (await ctx.projects.get(projectId, dbAlias).catch(() => undefined));
    const t = pdb?.model.tables.find((x) => x.tn === table || x._tn === table);
    if (!t) continue;
    try {
      readableTableOf(await dataContext(ctx, request, projectId, dbAlias), t.tn);
      return true;
    } catch {
      return false;
    }
  }
  return false;
}

/** What a room's sockets on this instance are told when its users change, for the other instances. */
export type PresenceAnnounce = (projectId: string, table: string, users: PresenceUser[]) => void;

/**
 * The rooms of this instance's sockets, plus the users other instances said they have in each room
 * (`remote`): everyone in a room sees everyone there, whichever instance serves them. `announce` is
 * called with this instance's users of a room whenever they change (an empty list: none left).
 */
export function presenceRooms(announce: PresenceAnnounce = () => {}) {
  /** project -> table (as subscribed) -> sockets there. */
  const rooms = new Map<string, Map<string, Set<PresenceSocket>>>();
  /** project\0table -> instance -> its users there and when it last said so. */
  const remote = new Map<string, Map<string, { users: PresenceUser[]; at: number }>>();
  const remoteKey = (projectId: string, table: string) => `${projectId}\u0000${table}`;

  const roomOf = (projectId: string, table: string) => rooms.get(projectId)?.get(table);
  /** The users of this instance's sockets in a room (each once), in the order they arrived. */
  const localUsersOf = (room: Set<PresenceSocket> | undefined) => {
    const byId = new Map<string, PresenceUser>();
    for (const s of room ?? []) if (!byId.has(s.user.id)) byId.set(s.user.id, s.user);
    return [...byId.values()];
  };
  /** Everyone in a room: this instance's users, then those of the other instances (each once). */
  const allUsersOf = (projectId: string, table: string) => {
    const byId = new Map(localUsersOf(roomOf(projectId, table)).map((u) => [u.id, u]));
    for (const { users } of remote.get(remoteKey(projectId, table))?.values() ?? []) for (const u of users) if (!byId.has(u.id)) byId.set(u.id, u);
    return [...byId.values()];
  };
  const tell = (s: PresenceSocket, table: string, users: PresenceUser[]) => s.send({ type: 'presence', table, users: users.filter((u) => u.id !== s.user.id) });
  const tellAll = (projectId: string, table: string) => {
    const room = roomOf(projectId, table);
    if (!room) return;
    const users = allUsersOf(projectId, table);
    for (const s of room) tell(s, table, users);
  };
  /** The others in a room learn of a change of this instance's users there (here and elsewhere). */
  const changed = (projectId: string, table: string) => {
    tellAll(projectId, table);
    announce(projectId, table, localUsersOf(roomOf(projectId, table)));
  };

  return {
    /** A socket shows a table: it learns who is there; the others learn of it when its user is new. */
    join(projectId: string, table: string, s: PresenceSocket) {
      const tables = rooms.get(projectId) ?? rooms.set(projectId, new Map()).get(projectId)!;
      const room = tables.get(table) ?? tables.set(table, new Set()).get(table)!;
      if (room.has(s)) return;
      const isNew = ![...room].some((x) => x.user.id === s.user.id);
      room.add(s);
      if (isNew) changed(projectId, table);
      else tell(s, table, allUsersOf(projectId, table));
    },
    /** A socket no longer shows a table: the others learn of it when its user has no other socket there. */
    leave(projectId: string, table: string, s: PresenceSocket) {
      const room = roomOf(projectId, table);
      if (!room?.delete(s)) return;
      if (!room.size) {
        rooms.get(projectId)!.delete(table);
        if (!rooms.get(projectId)!.size) rooms.delete(projectId);
        announce(projectId, table, []);
        return;
      }
      if (![...room].some((x) => x.user.id === s.user.id)) changed(projectId, table);
    },
    /** Another instance's users of a room (empty: it has none there now); this instance's sockets there are told. */
    remote(instance: string, projectId: string, table: string, users: PresenceUser[], now = Date.now()) {
      const key = remoteKey(projectId, table);
      const byInstance = remote.get(key) ?? remote.set(key, new Map()).get(key)!;
      const before = JSON.stringify(allUsersOf(projectId, table));
      if (users.length) byInstance.set(instance, { users, at: now });
      else byInstance.delete(instance);
      if (!byInstance.size) remote.delete(key);
      if (JSON.stringify(allUsersOf(projectId, table)) !== before) tellAll(projectId, table);
    },
    /** Forgets what other instances said: everything of `instance` (it stopped), or all that is older than `before` (they went silent). */
    forget(opts: { instance?: string; before?: number }) {
      for (const [key, byInstance] of [...remote]) {
        const [projectId, table] = key.split('\u0000') as [string, string];
        for (const [instance, entry] of [...byInstance]) {
          if (instance !== opts.instance && !(opts.before !== undefined && entry.at < opts.before)) continue;
          this.remote(instance, projectId, table, []);
        }
      }
    },
    /** This instance's non-empty rooms with their users (told again to the other instances now and then). */
    local(): { projectId: string; table: string; users: PresenceUser[] }[] {
      return [...rooms].flatMap(([projectId, tables]) => [...tables].map(([table, room]) => ({ projectId, table, users: localUsersOf(room) })));
    },
    /** Who shows a table now, on any instance (for tests and diagnostics). */
    usersOf(projectId: string, table: string): PresenceUser[] {
      return allUsersOf(projectId, table);
    },
  };
}
