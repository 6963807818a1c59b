/**
 * Realtime across instances sharing one PostgreSQL metadata store: each committed write is announced
 * (through the store's LISTEN/NOTIFY notifier, topic `rows`) by its table and row ids; the other
 * instances read those rows from the project database themselves and hand them to their own clients,
 * cut to each reader as usual. Deleted rows, and the values updated rows had before, travel with the
 * announcement when they fit in a notification (a reader's row condition is then checked on them:
 * a row an update took out of it is removed from their grid), else deleted rows go by id. The
 * signed-in member who wrote is named, as on the instance that took the write.
 *
 * Nothing is lost without the readers knowing: a write that cannot be told row by row (a row or a
 * key too big for a notification) is announced as "the table changed" (`reread`), and the clients
 * that show it read it again; so is one whose rows could not be read here. Announcements the store
 * did not take make the notifier owe the others a resync (src/meta/invalidation.ts), and a resync
 * (`*`: after this instance's listening connection came back, or when another instance lost a
 * message) tells every client here to read again what it shows. An instance announces its writes
 * one after the other, each once the store took the one before, and the changes of one project
 * reach its clients in the order they were announced, whatever each takes to read.
 * On SQLite nothing is announced.
 */
import type { AppContext } from '../context';
import type { WriteEvent, WrittenRow } from '../data/write-events';
import type { Actor } from '../lib/actor';
import type { DataContext } from '../data/data-context';
import { readRaw } from '../data/records-read';
import { rowId } from '../data/row-id';
import { ALL, invalidation, nestedBytes } from '../meta/invalidation';
import { notificationsOf } from '../meta/store';
import type { TableModel } from '../schema/model';
import { presenceRooms, type PresenceUser } from './presence';

/** The presence rooms of an instance. */
export type PresenceRooms = ReturnType<typeof presenceRooms>;

/** Rows named in one announcement (a bulk write of more is announced in several). */
const IDS_PER_MESSAGE = 100;

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
  /** Rows of the table changed that are not named: its readers read it again. */
  reread?: true;
}

/**
 * What the clients of an instance are told to read again: everything they show (no table), or one
 * table's rows.
 */
export type Reread = (table?: TableNotice) => void | Promise<void>;

/** Sends local writes to the other instances and delivers theirs here through `deliver` (and `reread`). */
export function crossInstanceRealtime(ctx: AppContext, hasClients: (projectId: string) => boolean, deliver: (event: WriteEvent) => void, reread: Reread): () => void {
  const notifier = invalidation(ctx.meta);
  const room = (m: Announced) => notifier.room('rows', JSON.stringify(m));
  // A store without notifications (SQLite) has no other instances to tell: no work per write.
  // One write's announcements after the other's, each once the store took the one before: they arrive in order.
  let sending = Promise.resolve();
  const offLocal = !notificationsOf(ctx.meta) ? () => {} : ctx.writeEvents.subscribe((event) => {
    sending = sending
      .then(async () => {
        // The model at hand, or read again (the project's row is cached for a second only: an import runs longer).
        const pdb = ctx.projects.peek(event.projectId, event.dbAlias) ?? (await ctx.projects.get(event.projectId, event.dbAlias).catch(() => undefined));
        const t = pdb?.model.tables.find((x) => x.tn === event.tn);
        for (const m of announcementsOf(event, t, room)) await notifier.announce('rows', JSON.stringify(m));
      })
      .catch((e) => ctx.log.warn(`realtime: a change could not be announced to the other instances: ${(e as Error).message}`));
  });
  /** The reads of each project's announcements, chained so that they are delivered in the order they came. */
  const chains = new Map<string, Promise<void>>();
  const inOrder = (projectId: string, read: Promise<WriteEvent | 'reread' | null>, m: Announced) => {
    const next = (chains.get(projectId) ?? Promise.resolve()).then(async () => {
      let event: WriteEvent | 'reread' | null;
      try {
        event = await read;
      } catch (e) {
        // Not readable now (the project database is away, say): its readers read the table again when they can.
        ctx.log.warn(`realtime: a change from another instance could not be read: ${(e as Error).message}`);
        event = 'reread';
      }
      if (event === 'reread') await reread({ projectId: m.p, dbAlias: m.d, tn: m.t });
      else if (event) deliver(event);
    }).catch((e) => ctx.log.warn(`realtime: a change from another instance could not be told: ${(e as Error).message}`));
    chains.set(projectId, next);
    void next.then(() => chains.get(projectId) === next && chains.delete(projectId));
  };
  const offRemote = notifier.subscribe('rows', (key) => {
    // Announcements may have been lost: every client here reads again what it shows.
    if (key === ALL) return void reread();
    let m: Announced;
    try {
      m = JSON.parse(key);
    } catch {
      return;
    }
    if (!m || typeof m.p !== 'string' || typeof m.d !== 'string' || typeof m.t !== 'string' || !hasClients(m.p)) return;
    inOrder(m.p, m.reread ? Promise.resolve('reread') : readAnnounced(ctx, m), m);
  });
  return () => (offLocal(), offRemote());
}

/**
 * The announcements of one write (see the file comment). `t`: its table (none: not known here);
 * `room`: the bytes left in a notification of a message.
 */
function announcementsOf(event: WriteEvent, t: TableModel | undefined, room: (m: Announced) => number): Announced[] {
  const by = event.actor.kind === 'user' ? event.actor.email : undefined;
  const base: Announced = { p: event.projectId, d: event.dbAlias, t: event.tn, o: event.op, ids: [], ...(by ? { by } : {}) };
  // Rows that cannot be named (no model, no key): the readers read the table again.
  if (!t || !t.pks.length) return [{ ...base, reread: true }];
  const out: Announced[] = [];
  // Rows inserted without their key known (an import's auto-increment ids) travel with their values, as many as fit.
  if (event.op === 'insert' && event.rows.some((r) => t.pks.some((pk) => r.data[t.columns.find((c) => c.cn === pk)?._cn ?? pk] == null))) {
    const { groups, left } = fitting(event.rows, room({ ...base, rows: [] }), (r) => r.data);
    for (const rows of groups) out.push({ ...base, rows: rows.map((r) => r.data) });
    if (left) out.push({ ...base, reread: true });
    return out;
  }
  for (let i = 0; i < event.rows.length; i += IDS_PER_MESSAGE) {
    const part = event.rows.slice(i, i + IDS_PER_MESSAGE);
    const { groups, left } = fitting(part, room(base), (r) => rowId(t, r.data));
    if (left) out.push({ ...base, reread: true });
    for (const rows of groups) {
      const m: Announced = { ...base, ids: rows.map((r) => rowId(t, r.data)) };
      if (event.op === 'delete') {
        const withRows = { ...m, rows: rows.map((r) => r.data) };
        if (room(withRows) >= 0) m.rows = withRows.rows;
      } else if (event.op === 'update' && rows.every((r) => r.previous)) {
        const withPrev = { ...m, prev: rows.map((r) => r.previous!) };
        if (room(withPrev) >= 0) m.prev = withPrev.prev;
      }
      out.push(m);
    }
  }
  return out;
}

/** The write an announcement stands for, with its rows as they are now (null: none left to tell). */
async function readAnnounced(ctx: AppContext, m: Announced): Promise<WriteEvent | null> {
  const pdb = await ctx.projects.get(m.p, m.d);
  const t = pdb.model.tables.find((x) => x.tn === m.t);
  if (!t) return null;
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
  return rows.length ? { projectId: m.p, dbAlias: m.d, tn: m.t, op: m.o, rows, actor } : null;
}

/**
 * Items in groups (of at most IDS_PER_MESSAGE) whose `told` values each fit in `room` bytes of a
 * notification; `left`: some item is too big for one alone and was left out.
 */
function fitting<T>(items: T[], room: number, told: (item: T) => unknown): { groups: T[][]; left: boolean } {
  const groups: T[][] = [];
  let group: T[] = [];
  let size = 0;
  let left = false;
  for (const item of items) {
    // The item's text as the notification carries it, and its comma.
    const n = nestedBytes(told(item)) + 1;
    if (n > room) {
      left = true;
      continue;
    }
    if (size + n > room || group.length === IDS_PER_MESSAGE) (groups.push(group), (group = []), (size = 0));
    group.push(item);
    size += n;
  }
  if (group.length) groups.push(group);
  return { groups, left };
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
      return; // a resync ('*'): every client reads again what it shows (crossInstanceRealtime)
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
/** Bytes of users' JSON in one presence notice (with room for the escaping of the notice's own JSON text). */
const PRESENCE_BYTES_MAX = 3500;

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
    while (u.length > 1 && Buffer.byteLength(JSON.stringify(u)) > PRESENCE_BYTES_MAX) u.pop();
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
