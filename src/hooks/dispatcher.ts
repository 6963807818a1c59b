/**
 * Turns committed writes into queued deliveries: for each write event, the table's active hooks of
 * that event whose condition matches the written row get one delivery each in the metadata queue,
 * then the worker is woken. Runs off the request (the bus defers it); errors only reach the log.
 */
import type { Cond } from '../sql/ast';
import type { TableModel } from '../schema/model';
import type { AppContext } from '../context';
import type { WriteEvent } from '../data/write-events';
import { hooksRepo, type HookRecord } from '../meta/hooks-repo';
import { hookQueueRepo } from '../meta/hook-queue-repo';
import { parseHookCondition, rowMatches } from './condition';
import type { HookPayload } from './send';

interface Parsed {
  stamp: string;
  table: TableModel;
  cond: Cond | undefined;
}

/** A subscriber for the write-event bus; `wake` starts the worker on the new deliveries. */
export function hookDispatcher(ctx: AppContext, wake: () => void) {
  const hooks = hooksRepo(ctx.meta);
  const queue = hookQueueRepo(ctx.meta);
  const parsed = new Map<string, Parsed>();

  /** The hook's condition for the current model (parsed once per hook version and model). */
  const conditionOf = (h: HookRecord, t: TableModel): Cond | undefined => {
    const hit = parsed.get(h.id);
    if (hit && hit.stamp === h.updated_at && hit.table === t) return hit.cond;
    const cond = parseHookCondition(h.where_cond, t);
    if (parsed.size > 10_000) parsed.clear();
    parsed.set(h.id, { stamp: h.updated_at, table: t, cond });
    return cond;
  };

  return async (e: WriteEvent): Promise<void> => {
    const event = `after.${e.op}`;
    const active = (await hooks.activeFor(e.projectId, e.dbAlias, e.tn)).filter((h) => h.event === event);
    if (active.length === 0) return;
    const pdb = ctx.projects.peek(e.projectId, e.dbAlias) ?? (await ctx.projects.get(e.projectId, e.dbAlias));
    const t = pdb.model.tables.find((x) => x.tn === e.tn);
    if (!t) return;
    const at = new Date().toISOString();
    const items: { hookId: string; event: string; payload: string }[] = [];
    for (const h of active) {
      let cond: Cond | undefined;
      try {
        cond = conditionOf(h, t);
      } catch (err) {
        await queue.logOnly(h.id, event, { status: 'error', responseStatus: null, error: `The condition no longer applies to '${t._tn}': ${(err as Error).message}`, durationMs: 0 });
        continue;
      }
      for (const r of e.rows) {
        if (!rowMatches(cond, r.data, t)) continue;
        const payload: HookPayload = { event, table: t._tn, data: r.data, ...(r.previous ? { previous: r.previous } : {}), hook: { id: h.id, title: h.title }, at };
        items.push({ hookId: h.id, event, payload: JSON.stringify(payload) });
      }
    }
    if (items.length === 0) return;
    await queue.enqueue(items);
    wake();
  };
}
