/**
 * Realtime across instances sharing one PostgreSQL metadata store: each committed write is announced
 * (through the store's LISTEN/NOTIFY notifier, topic `rows`) by its table and row ids; the other
 * instances read those rows from the project database themselves and hand them to their own clients,
 * cut to each reader as usual. Deleted rows travel with their values when they fit in a notification
 * (a reader's row condition is then checked on them), else by id. On SQLite nothing is announced.
 */
import type { AppContext } from '../context';
import type { WriteEvent } from '../data/write-events';
import type { DataContext } from '../data/data-context';
import { readRaw } from '../data/records-read';
import { rowId } from '../data/row-id';
import { invalidation } from '../meta/invalidation';
import { notificationsOf } from '../meta/store';
import type { TableModel } from '../schema/model';

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
}

/** Sends local writes to the other instances and delivers theirs here through `deliver`. */
export function crossInstanceRealtime(ctx: AppContext, hasClients: (projectId: string) => boolean, deliver: (event: WriteEvent) => Promise<void>): () => void {
  const notifier = invalidation(ctx.meta);
  // A store without notifications (SQLite) has no other instances to tell: no work per write.
  const offLocal = !notificationsOf(ctx.meta) ? () => {} : ctx.writeEvents.subscribe((event) => {
    const t = ctx.projects.peek(event.projectId, event.dbAlias)?.model.tables.find((x) => x.tn === event.tn);
    if (!t || !t.pks.length) return;
    for (let i = 0; i < event.rows.length; i += IDS_PER_MESSAGE) {
      const part = event.rows.slice(i, i + IDS_PER_MESSAGE);
      const m: Announced = { p: event.projectId, d: event.dbAlias, t: event.tn, o: event.op, ids: part.map((r) => rowId(t, r.data)) };
      if (event.op === 'delete') {
        const withRows = JSON.stringify({ ...m, rows: part.map((r) => r.data) });
        if (withRows.length <= PAYLOAD_MAX) m.rows = part.map((r) => r.data);
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
      let rows: { data: Record<string, unknown> }[];
      if (m.o === 'delete') {
        rows = m.rows ? m.rows.map((data) => ({ data })) : m.ids.map((id) => ({ data: keyRow(t, id) }));
      } else {
        // The rows as they are now, read with no rights (each reader's rights are applied on delivery).
        const dc: DataContext = { pdb, actor: { kind: 'master', roles: ['super'], superAdmin: true }, maxLimit: ctx.config.queryLimitMax, countTimeoutMs: ctx.config.countTimeoutMs };
        const read = await Promise.all(m.ids.map((id) => readRaw(dc, t, id).catch(() => null)));
        rows = read.filter((r): r is Record<string, unknown> => !!r).map((data) => ({ data }));
      }
      if (rows.length) await deliver({ projectId: m.p, dbAlias: m.d, tn: m.t, op: m.o, rows, actor: { kind: 'master', roles: [] } });
    })().catch((e) => ctx.log.warn(`realtime: a change from another instance could not be read: ${(e as Error).message}`));
  });
  return () => (offLocal(), offRemote());
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
