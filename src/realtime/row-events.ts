/**
 * What one reader may receive of a committed write: the rows their rights admit (row condition
 * checked on the written values), each cut to the columns they may read; a row that left the
 * reader's condition by an update arrives as removed, by its id only. Nothing of a table the
 * reader may not read, nor of a hidden column, ever leaves here.
 */
import type { Cond } from '../sql/ast';
import type { TableModel } from '../schema/model';
import type { DataContext } from '../data/data-context';
import type { WriteEvent } from '../data/write-events';
import { grantCondition, grantOf } from '../data/access';
import { readableTable } from '../data/read-scope';
import { rowId } from '../data/row-id';
import { rowMatches } from '../hooks/condition';

/** The message a reader gets for one write (null: nothing for them). */
export interface RowsMessage {
  type: 'rows';
  /** The table by its API alias, as the grid names it. */
  table: string;
  op: 'insert' | 'update' | 'delete';
  /** Written rows the reader may see, only their readable columns (inserts and updates). */
  rows: Record<string, unknown>[];
  /** Ids of rows to take away: deleted, or moved out of the reader's rows by an update. */
  removed: string[];
}

const matches = (cond: Cond | undefined, row: Record<string, unknown>, t: TableModel) =>
  !cond || (cond.kind === 'const' ? cond.value === true : rowMatches(cond, row, t));

/** The reader's share of one write event, or null. */
export function messageFor(dc: DataContext, event: WriteEvent): RowsMessage | null {
  const t = dc.pdb.model.tables.find((x) => x.tn === event.tn);
  if (!t) return null;
  const grant = grantOf(dc.actor, dc.acl, t, 'read');
  if (!grant) return null;
  const cond = grantCondition(grant, t);
  const shown = readableTable(dc, t).columns.filter((c) => !c.virtual);
  const cut = (row: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const c of shown) if (c._cn in row) out[c._cn] = row[c._cn];
    return out;
  };
  const rows: Record<string, unknown>[] = [];
  const removed: string[] = [];
  for (const w of event.rows) {
    const id = t.pks.length ? rowId(t, w.data) : null;
    if (event.op === 'delete') {
      if (id !== null && matches(cond, w.data, t)) removed.push(id);
      continue;
    }
    if (matches(cond, w.data, t)) rows.push(cut(w.data));
    else if (event.op === 'update' && id !== null && w.previous && matches(cond, w.previous, t)) removed.push(id);
  }
  if (rows.length === 0 && removed.length === 0) return null;
  // Who wrote (a signed-in member, by e-mail; not a script's token, a shared form or the master key): an open editor says so.
  const by = event.actor.kind === 'user' ? event.actor.email : undefined;
  return { type: 'rows', table: t._tn, op: event.op, rows, removed, ...(by ? { by } : {}) };
}
