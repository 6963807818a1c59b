/**
 * Reads answered from plans: a list or one-row read parsed and compiled once per table model and
 * request shape, so a repeated request only runs its SQL. Plans are kept per table model, so a
 * schema sync or DDL (which builds a new model) starts afresh; only callers without row or column
 * limits use them, since a plan holds no rights of its own.
 */
import type { Compiled } from '../sql/ast';
import type { TableModel } from '../schema/model';
import { isUnrestricted } from './access';
import type { DataContext } from './data-context';
import type { ListQuery, Params } from './list-query';

/** A parsed query (no limit: every matching row) and its compiled page SELECT. */
export interface ReadPlan {
  q: Omit<ListQuery, 'limit'> & { limit?: number };
  compiled: Compiled;
  /** Positions in `compiled.params` that take a row's key values at run time (reads by id). */
  keySlots?: number[];
}

/** Plans kept per table model. */
const PLANS_MAX = 256;
const plans = new WeakMap<TableModel, Map<string, ReadPlan>>();

/** An unambiguous key part (length-prefixed, so no text can pass for two parts). */
const part = (s: string) => `${s.length}:${s}`;

/** The key of a request shape: what it reads (`what`) and its parameters in order. */
function keyOf(dc: DataContext, what: string, params: Params): string {
  const last = lastKeys.get(params);
  if (last && last.what === what && last.maxLimit === dc.maxLimit) return last.key;
  let key = `${dc.maxLimit}|${part(what)}`;
  for (const k in params) {
    const v = params[k];
    if (v !== undefined) key += part(k) + part(v);
  }
  if (Object.isFrozen(params)) lastKeys.set(params, { what, maxLimit: dc.maxLimit, key });
  return key;
}

/** Keys of parameter objects that cannot change (frozen), for callers that read with the same ones again. */
const lastKeys = new WeakMap<Params, { what: string; maxLimit: number; key: string }>();

/**
 * Plans of callers with rules, per rules object (the cached rules of a project database: saving a
 * rule or the cache's expiry gives a new object, so plans made under old rules are never used again).
 */
const restrictedPlans = new WeakMap<object, WeakMap<TableModel, Map<string, ReadPlan>>>();

/**
 * What a restricted caller's plan depends on besides the rules: the roles it acts with and the
 * values `$user.id` / `$user.email` in row conditions take.
 */
export function callerKey(dc: DataContext): string {
  const a = dc.actor;
  let key = callerKeys.get(a);
  if (key === undefined) callerKeys.set(a, (key = part(`${a.kind}|${a.previewAs ?? ''}|${a.roles.join(',')}|${a.userId ?? ''}|${a.email ?? ''}`)));
  return key;
}
/** callerKey per actor object (an actor is never changed once made; cached callers come back as the same object). */
const callerKeys = new WeakMap<DataContext['actor'], string>();

/** The plan of a read: kept per request shape (and, for callers with rules, per rules and caller), made by `make` the first time. */
export function planFor(dc: DataContext, t: TableModel, what: string, params: Params, make: () => ReadPlan): ReadPlan {
  let byKey: Map<string, ReadPlan> | undefined;
  let key: string;
  if (isUnrestricted(dc.actor)) {
    byKey = plans.get(t);
    if (!byKey) plans.set(t, (byKey = new Map()));
    key = keyOf(dc, what, params);
  } else {
    if (!dc.acl) return make();
    let byTable = restrictedPlans.get(dc.acl);
    if (!byTable) restrictedPlans.set(dc.acl, (byTable = new WeakMap()));
    byKey = byTable.get(t);
    if (!byKey) byTable.set(t, (byKey = new Map()));
    key = callerKey(dc) + keyOf(dc, what, params);
  }
  let plan = byKey.get(key);
  if (!plan) {
    plan = make();
    if (byKey.size >= PLANS_MAX) byKey.clear();
    byKey.set(key, plan);
  }
  return plan;
}

/** How many plans a table model holds (tests: reads by id share one plan per request shape). */
export function plansHeld(t: TableModel): number {
  return plans.get(t)?.size ?? 0;
}
