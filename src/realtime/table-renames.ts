/**
 * Which tables a schema change renamed or deleted, by the names the clients show them under (display
 * names), so that another user's open tab of a renamed table follows it instead of losing it, and the
 * tab of a deleted one closes. Display names
 * of the open databases are remembered; after each change they are compared with the new model,
 * following SQL renames and drops announced by the schema events (rollbacks and re-applies included).
 */
import type { AppContext } from '../context';
import { onSchemaEvent } from '../schema/schema-events';
import { invalidation } from '../meta/invalidation';
import { notificationsOf } from '../meta/store';

/** The notifier topic of table renames and drops told to the other instances. */
const TOPIC = 'rt-tables';

/** A table renamed or dropped in one database of a project (SQL names). */
type TableChange = { projectId: string; dbAlias: string } & ({ kind: 'tableRenamed'; from: string; to: string } | { kind: 'tableDropped'; tn: string });

/** One table shown under a new name: its display name before and after, in one database. */
export interface TableRenamed {
  dbAlias: string;
  from: string;
  to: string;
}

/** One table deleted: the display name it was shown under, in one database. */
export interface TableDeleted {
  dbAlias: string;
  name: string;
}

/** Display names by SQL name, per database (dbAlias) of a project. */
type Names = Map<string, Map<string, string>>;

export function tableRenames(ctx: AppContext) {
  const known = new Map<string, Names>();
  /** SQL renames announced since the last comparison: project -> dbAlias -> old SQL name -> new. */
  const moved = new Map<string, Map<string, Map<string, string>>>();
  /** SQL drops announced since the last comparison: project -> dbAlias -> SQL names. */
  const dropped = new Map<string, Map<string, Set<string>>>();
  const namesOf = (projectId: string) => known.get(projectId) ?? known.set(projectId, new Map()).get(projectId)!;

  const take = (projectId: string, dbAlias: string) => {
    const pdb = ctx.projects.peek(projectId, dbAlias);
    if (pdb) namesOf(projectId).set(dbAlias, new Map(pdb.model.tables.map((t) => [t.tn, t._tn])));
  };

  /** Records a rename or drop of a table (made here, or on another instance) for the next comparison. */
  const note = (e: TableChange) => {
    // Announced before the model is read again: what is open now is the model before the change.
    if (!known.get(e.projectId)?.has(e.dbAlias)) take(e.projectId, e.dbAlias);
    if (e.kind === 'tableDropped') {
      const byDb = dropped.get(e.projectId) ?? dropped.set(e.projectId, new Map()).get(e.projectId)!;
      (byDb.get(e.dbAlias) ?? byDb.set(e.dbAlias, new Set()).get(e.dbAlias)!).add(e.tn);
      return;
    }
    const byDb = moved.get(e.projectId) ?? moved.set(e.projectId, new Map()).get(e.projectId)!;
    const renames = byDb.get(e.dbAlias) ?? byDb.set(e.dbAlias, new Map()).get(e.dbAlias)!;
    // A -> B then B -> C before one comparison is A -> C.
    for (const [from, to] of renames) if (to === e.from) renames.set(from, e.to);
    renames.set(e.from, e.to);
  };

  // Other instances sharing a PostgreSQL metadata store are told too, before the schema invalidation
  // that makes them read the model again (awaited: notifications arrive in the order they commit).
  const notifier = invalidation(ctx.meta);
  const remote = !!notificationsOf(ctx.meta);
  const off = onSchemaEvent(async (e) => {
    if (e.meta !== ctx.meta || (e.kind !== 'tableDropped' && e.kind !== 'tableRenamed')) return;
    const { meta: _, ...change } = e;
    note(change);
    if (remote) await notifier.announce(TOPIC, JSON.stringify(change));
  });
  const offRemote = notifier.subscribe(TOPIC, (key) => {
    let e: TableChange;
    try {
      e = JSON.parse(key);
    } catch {
      return; // a resync ('*'): the tabs of such tables say the table is not found
    }
    if (e && typeof e.projectId === 'string' && typeof e.dbAlias === 'string' && (e.kind === 'tableDropped' ? typeof e.tn === 'string' : e.kind === 'tableRenamed' && typeof e.from === 'string' && typeof e.to === 'string')) {
      // Only where a client shows the project's tables (remembered): no one else has a tab to follow.
      if (known.get(e.projectId)?.has(e.dbAlias)) note(e);
    }
  });
  ctx.closers.push(async () => (off(), offRemote()));

  return {
    /** Remembers the display names of a project's database (when a client starts to show its tables). */
    remember(projectId: string, dbAlias = 'db'): void {
      if (known.get(projectId)?.has(dbAlias)) return;
      take(projectId, dbAlias);
      if (known.get(projectId)?.has(dbAlias)) return;
      // The project's model is not at hand (its cached row expired): read, else its renames would never be followed.
      void ctx.projects.get(projectId, dbAlias).then(
        () => known.get(projectId)?.has(dbAlias) || take(projectId, dbAlias),
        () => {},
      );
    },
    /**
     * After a project's model changed: the tables now shown under another name, and those deleted.
     * A model another instance changed is being read again here: its new names are awaited.
     */
    async changed(projectId: string): Promise<{ renamed: TableRenamed[]; deleted: TableDeleted[] }> {
      const out: TableRenamed[] = [];
      const deleted: TableDeleted[] = [];
      const byDb = moved.get(projectId);
      const gone = dropped.get(projectId);
      moved.delete(projectId);
      dropped.delete(projectId);
      for (const [dbAlias, names] of known.get(projectId) ?? []) {
        const pdb = ctx.projects.peek(projectId, dbAlias) ?? (await ctx.projects.get(projectId, dbAlias).catch(() => undefined));
        if (!pdb) continue;
        const renames = byDb?.get(dbAlias);
        for (const [tn, shown] of names) {
          const now = pdb.model.tables.find((t) => t.tn === (renames?.get(tn) ?? tn));
          if (now && now._tn !== shown) out.push({ dbAlias, from: shown, to: now._tn });
          // Dropped and not back (a rollback re-creates it): its tab closes.
          else if (!now && gone?.get(dbAlias)?.has(tn)) deleted.push({ dbAlias, name: shown });
        }
        take(projectId, dbAlias);
      }
      return { renamed: out, deleted };
    },
  };
}
