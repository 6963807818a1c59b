/**
 * Realtime across instances sharing one PostgreSQL metadata store: each committed write is announced
 * (through the store's LISTEN/NOTIFY notifier, topic `rows`) by its table and row ids; the other
 * instances read those rows from the project database themselves and hand them to their own clients,
 * cut to each reader as usual. Deleted rows, and the values updated rows had before, travel with the
 * announcement when they fit in a notification (a reader's row condition is then checked on them:
 * a row an update took out of it is removed from their grid), else deleted rows go by id. The
 * signed-in member who wrote is named, as on the instance that took the write.
 * On SQLite nothing is announced.
 */
import type { AppContext } from '../context';
import type { WriteEvent, WrittenRow } from '../data/write-events';
import type { Actor } from '../lib/actor';
import type { DataContext } from '../data/data-context';
import { readRaw } from '../data/records-read';
import { rowId } from '../data/row-id';
import { invalidation } from '../meta/invalidation';
import { notificationsOf } from '../meta/store';
import type { TableModel } from '../schema/model';
import { presenceRooms, type PresenceUser } from './presence';

/** The presence rooms of an instance. */
export type PresenceRooms = ReturnType<typeof presenceRooms>;

/** Rows named in one announcement (a bulk write of more is announced in several). */
const IDS_PER_MESSAGE = 100;
/** PostgreSQL notifications carry at most 8000 bytes. */
const PAYLOAD_MAX = 7000;

interface Announced {
  p: string;
  d: string;
  t: string;
  o: WriteEvent['op'];
  ids: string[];
  rows?: Record<string, unknown>[];
  /** For updates: the rows' values before, in the order of `ids`. */
  prev?: Record<string, unknown>[];
  /** The e-mail of the signed-in member who wrote. */
  by?: string;
}

/** Sends local writes to the other instances and delivers theirs here through `deliver`. */
export function crossInstanceRealtime(ctx: AppContext, hasClients: (projectId: string) => boolean, deliver: (event: WriteEvent) => Promise<void>): () => void {
  const notifier = invalidation(ctx.meta);
  // A store without notifications (SQLite) has no other instances to tell: no work per write.
  const offLocal = !notificationsOf(ctx.meta) ? () => {} : ctx.writeEvents.subscribe((event) => {
    const t = ctx.projects.peek(event.projectId, event.dbAlias)?.model.tables.find((x) => x.tn === event.tn);
    if (!t || !t.pks.length) return;
    const by = event.actor.kind === 'user' ? event.actor.email : undefined;
    // Rows inserted without their key known (an import's auto-increment ids) travel with their values, as many as fit.
    if (event.op === 'insert' && event.rows.some((r) => t.pks.some((pk) => r.data[t.columns.find((c) => c.cn === pk)?._cn ?? pk] == null))) {
      for (const rows of fitting(event.rows.map((r) => r.data))) void notifier.announce('rows', JSON.stringify({ p: event.projectId, d: event.dbAlias, t: event.tn, o: event.op, ids: [], rows, ...(by ? { by } : {}) } satisfies Announced));
      return;
    }
    for (let i = 0; i < event.rows.length; i += IDS_PER_MESSAGE) {
      const part = event.rows.slice(i, i + IDS_PER_MESSAGE);
      const m: Announced = { p: event.projectId, d: event.dbAlias, t: event.tn, o: event.op, ids: part.map((r) => rowId(t, r.data)), ...(by ? { by } : {}) };
      if (event.op === 'delete') {
        const withRows = JSON.stringify({ ...m, rows: part.map((r) => r.data) });
        if (withRows.length <= PAYLOAD_MAX) m.rows = part.map((r) => r.data);
      } else if (event.op === 'update' && part.every((r) => r.previous)) {
        const prev = part.map((r) => r.previous!);
        if (JSON.stringify({ ...m, prev }).length <= PAYLOAD_MAX) m.prev = prev;
      }
      void notifier.announce('rows', JSON.stringify(m));
    }
  });
  const offRemote = notifier.subscribe('rows', (key) => {
    let m: Announced;
    try {
      m = JSON.parse(key);
    } catch {
      return; // a resync ('*') or something else: nothing to send
    }
    if (!m || typeof m.p !== 'string' || !hasClients(m.p)) return;
    void (async () => {
      const pdb = await ctx.projects.get(m.p, m.d);
      const t = pdb.model.tables.find((x) => x.tn === m.t);
      if (!t) return;
      let rows: WrittenRow[];
      if (m.o === 'delete') {
        rows = m.rows ? m.rows.map((data) => ({ data })) : m.ids.map((id) => ({ data: keyRow(t, id) }));
      } else if (m.o === 'insert' && m.rows) {
        rows = m.rows.map((data) => ({ data }));
      } else {
        // The rows as they are now, read with no rights (each reader's rights are applied on delivery).
        const dc: DataContext = { pdb, actor: { kind: 'master', roles: ['super'], superAdmin: true }, maxLimit: ctx.config.queryLimitMax, countTimeoutMs: ctx.config.countTimeoutMs };
        const read = await Promise.all(m.ids.map((id) => readRaw(dc, t, id).catch(() => null)));
        rows = [];
        read.forEach((data, i) => data && rows.push({ data, ...(m.prev?.[i] ? { previous: m.prev[i] } : {}) }));
      }
      // The writer as the readers' messages name them (a member by e-mail; anyone else unnamed).
      const actor: Actor = typeof m.by === 'string' ? { kind: 'user', email: m.by, roles: [] } : { kind: 'master', roles: [] };
      if (rows.length) await deliver({ projectId: m.p, dbAlias: m.d, tn: m.t, op: m.o, rows, actor });
    })().catch((e) => ctx.log.warn(`realtime: a change from another instance could not be read: ${(e as Error).message}`));
  });
  return () => (offLocal(), offRemote());
}

/** Rows in groups whose announcement fits in one notification (a row too big for one alone is left out). */
function fitting(rows: Record<string, unknown>[]): Record<string, unknown>[][] {
  const groups: Record<string, unknown>[][] = [];
  let group: Record<string, unknown>[] = [];
  let size = 0;
  // In bytes, with room for the escaping of the announcement's own JSON text around them.
  const most = PAYLOAD_MAX / 2;
  for (const row of rows) {
    const n = Buffer.byteLength(JSON.stringify(row)) + 1;
    if (n > most) continue;
    if (size + n > most) (groups.push(group), (group = []), (size = 0));
    group.push(row);
    size += n;
  }
  if (group.length) groups.push(group);
  return groups;
}

/** A row holding only its key values, by API alias (what a removal needs). */
function keyRow(t: TableModel, id: string): Record<string, unknown> {
  const parts = t.pks.length === 1 ? [id] : id.split('___');
  return Object.fromEntries(t.pks.map((pk, i) => [t.columns.find((c) => c.cn === pk)?._cn ?? pk, parts[i]]));
}

/** A change of one table's saved views or comments, as the other instances are told of it. */
export interface TableNotice {
  projectId: string;
  dbAlias: string;
  tn: string;
}

/**
 * Table notices (saved views or comments changed) on `topic` across instances sharing a PostgreSQL
 * metadata store: `announce` tells the other instances (this one has told its own clients), and
 * theirs arrive through `deliver`. On SQLite there are no other instances: announce does nothing.
 */
export function crossInstanceNotices(ctx: AppContext, topic: string, deliver: (n: TableNotice) => void): { announce(n: TableNotice): void; stop(): void } {
  const notifier = invalidation(ctx.meta);
  const remote = !!notificationsOf(ctx.meta);
  const stop = notifier.subscribe(topic, (key) => {
    let m: { p?: unknown; d?: unknown; t?: unknown };
    try {
      m = JSON.parse(key);
    } catch {
      return; // a resync ('*'): a lost notice only means a view or comment shows at the next read
    }
    if (m && typeof m.p === 'string' && typeof m.d === 'string' && typeof m.t === 'string') deliver({ projectId: m.p, dbAlias: m.d, tn: m.t });
  });
  return {
    announce: (n) => void (remote && notifier.announce(topic, JSON.stringify({ p: n.projectId, d: n.dbAlias, t: n.tn }))),
    stop,
  };
}

/** How often an instance tells the others again who it has in each room; what an instance said is forgotten after three times that. */
export const PRESENCE_REFRESH_MS = 10_000;
/** Users named in one presence notice (a notification carries at most 8000 bytes). */
const PRESENCE_USERS_MAX = 40;

/**
 * Presence rooms shared by the instances of a PostgreSQL metadata store (topic `rt-presence`): each
 * instance tells the others its users of a room when they change, all of them again every
 * PRESENCE_REFRESH_MS (an instance that died stops doing so and its users go), at start (`hello`:
 * the others answer with theirs) and after the store's connection came back, and says `bye` when it
 * stops. On SQLite the rooms are this instance's alone.
 */
export function crossInstancePresence(ctx: AppContext): { rooms: PresenceRooms; stop(): Promise<void> } {
  const notifier = invalidation(ctx.meta);
  if (!notificationsOf(ctx.meta)) return { rooms: presenceRooms(), stop: async () => {} };
  const send = (m: Record<string, unknown>) => notifier.announce('rt-presence', JSON.stringify({ i: notifier.instance, ...m }));
  const tell = (projectId: string, table: string, users: PresenceUser[]) => {
    // As many as fit in one notification (with room for the escaping of the notice's own JSON text).
    const u = users.slice(0, PRESENCE_USERS_MAX);
    while (u.length > 1 && Buffer.byteLength(JSON.stringify(u)) > PAYLOAD_MAX / 2) u.pop();
    void send({ p: projectId, t: table, u });
  };
  const rooms = presenceRooms(tell);
  const tellAll = () => {
    for (const r of rooms.local()) tell(r.projectId, r.table, r.users);
  };
  const off = notifier.subscribe('rt-presence', (key) => {
    let m: { i?: unknown; p?: unknown; t?: unknown; u?: unknown; hello?: unknown; bye?: unknown };
    try {
      m = JSON.parse(key);
    } catch {
      // A resync ('*'): notices may have been lost while the store was away; all tell theirs again.
      tellAll();
      void send({ hello: true });
      return;
    }
    if (!m || typeof m.i !== 'string' || m.i === notifier.instance) return;
    if (m.hello) return tellAll();
    if (m.bye) return rooms.forget({ instance: m.i });
    if (typeof m.p !== 'string' || typeof m.t !== 'string' || !Array.isArray(m.u)) return;
    const users = m.u.filter((u): u is PresenceUser => !!u && typeof u.id === 'string' && typeof u.email === 'string' && typeof u.color === 'string');
    rooms.remote(m.i, m.p, m.t, users);
  });
  const timer = setInterval(() => {
    tellAll();
    rooms.forget({ before: Date.now() - 3 * PRESENCE_REFRESH_MS });
  }, PRESENCE_REFRESH_MS);
  timer.unref?.();
  void notifier.ready.then(() => send({ hello: true }));
  return {
    rooms,
    async stop() {
      clearInterval(timer);
      off();
      await send({ bye: true });
    },
  };
}
