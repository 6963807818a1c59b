/**
 * Presence: who else shows a table. A signed-in member's socket that subscribes a table they may
 * read joins that table's room; the others in the room are told (`{ type: "presence", table, users }`,
 * each socket with everyone but its own user) when someone arrives or leaves (unsubscribe, socket
 * closed). Several tabs of one user count once. API tokens and the master key have no presence.
 * Kept in memory per instance: with several instances each knows the sockets it serves.
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

export function presenceRooms() {
  /** project -> table (as subscribed) -> sockets there. */
  const rooms = new Map<string, Map<string, Set<PresenceSocket>>>();

  const roomOf = (projectId: string, table: string) => rooms.get(projectId)?.get(table);
  /** The users of a room (each once), in the order they arrived. */
  const usersOf = (room: Set<PresenceSocket>) => {
    const byId = new Map<string, PresenceUser>();
    for (const s of room) if (!byId.has(s.user.id)) byId.set(s.user.id, s.user);
    return [...byId.values()];
  };
  const tell = (s: PresenceSocket, table: string, users: PresenceUser[]) => s.send({ type: 'presence', table, users: users.filter((u) => u.id !== s.user.id) });
  const tellAll = (room: Set<PresenceSocket>, table: string) => {
    const users = usersOf(room);
    for (const s of room) tell(s, table, users);
  };

  return {
    /** A socket shows a table: it learns who is there; the others learn of it when its user is new. */
    join(projectId: string, table: string, s: PresenceSocket) {
      const tables = rooms.get(projectId) ?? rooms.set(projectId, new Map()).get(projectId)!;
      const room = tables.get(table) ?? tables.set(table, new Set()).get(table)!;
      if (room.has(s)) return;
      const isNew = ![...room].some((x) => x.user.id === s.user.id);
      room.add(s);
      if (isNew) tellAll(room, table);
      else tell(s, table, usersOf(room));
    },
    /** A socket no longer shows a table: the others learn of it when its user has no other socket there. */
    leave(projectId: string, table: string, s: PresenceSocket) {
      const room = roomOf(projectId, table);
      if (!room?.delete(s)) return;
      if (!room.size) {
        rooms.get(projectId)!.delete(table);
        if (!rooms.get(projectId)!.size) rooms.delete(projectId);
        return;
      }
      if (![...room].some((x) => x.user.id === s.user.id)) tellAll(room, table);
    },
    /** Who shows a table now (for tests and diagnostics). */
    usersOf(projectId: string, table: string): PresenceUser[] {
      const room = roomOf(projectId, table);
      return room ? usersOf(room) : [];
    },
  };
}
