/** Who else shows each table of the open project (sent by the server through the realtime socket, realtime.ts). */
import { signal } from './signals';

/** Another member showing the same table (never the user themself). */
export interface PresenceUser {
  id: string;
  email: string;
  name?: string;
  color: string;
}

/** By table as subscribed; told again on every arrival and leave. */
export const presence = signal<Record<string, PresenceUser[]>>({});

/** The users of one table, or none (the table is no longer shown). */
export function setPresence(table: string, users: PresenceUser[] | undefined): void {
  const next = { ...presence.value };
  if (users) next[table] = users;
  else delete next[table];
  presence.value = next;
}
